import Foundation
import Testing
@testable import French

@Suite struct HunspellTests {
    /// Debian's hunspell-fr-classical; a missing package fails the test with the install hint.
    static let french: SpellChecker? = try? SpellChecker.french()

    func checker() throws -> SpellChecker {
        try #require(Self.french, "\(SpellCheckerError.unreadableFile(SpellChecker.frenchAffix))")
    }

    @Test(arguments: [
        "maison", "partie", "été", "aujourd'hui", "aujourd’hui", "l'", "l’", "d'", "qu'", "jusqu'",
        "jusqu’", "lorsqu'", "peut-être", "pique-nique", "week-end", "grand-mère", "l'école", "L’école",
        "c'est", "jusqu'à", "quelqu'un", "presqu'île", "Aujourd'hui", "Peut-être", "ÉTÉ", "va-t-il",
        "dit-il", "donne-moi", "peut\u{2011}être", "e\u{301}te\u{301}", "Léa", "Maël", "partit",
    ])
    func acceptsWhatACorrectTextContains(_ word: String) throws {
        #expect(try checker().accepts(word), "\(word)")
    }

    @Test(arguments: ["maisonn", "sautté", "grenouile", "aujourdhui", "peut-etre", "Ecole", "", " ", "maison ",
                      "l‘", "-t-il", "10h", "mme"])
    func rejectsMisspellings(_ word: String) throws {
        #expect(try !checker().accepts(word), "\(word)")
    }

    @Test func partitIsARealPastSimpleForm() throws {
        // "partit" is not a misspelling of "partie": partir, passé simple, 3rd person singular.
        let readings = try checker().analyze("partit")
        #expect(readings.contains { $0.contains("st:partir") && $0.contains("po:ipsi") && $0.contains("po:3sg") })
    }

    @Test func analyzeGivesLemmaPartOfSpeechGenderAndNumber() throws {
        let spell = try checker()
        let partie = spell.analyze("partie")
        #expect(partie.contains("st:partir po:v3_i____e_ po:ppas po:adj is:fem is:sg"))
        #expect(partie.contains("st:partie po:nom is:fem is:sg"))
        #expect(spell.analyze("l’école").contains { $0.hasPrefix("dp:le|la+") && $0.contains("st:école") })
        #expect(spell.analyze("maisonn").isEmpty)
        #expect(spell.analyze("").isEmpty)
        #expect(spell.dictionaryEncoding == "UTF-8")
    }

    @Test func missingFilesAreReportedNotSilentlyLoaded() {
        let missing = URL(fileURLWithPath: "/nonexistent/fr.aff")
        #expect(throws: SpellCheckerError.unreadableFile(missing)) {
            try SpellChecker(affix: missing, dictionary: SpellChecker.frenchDictionary)
        }
        #expect(SpellCheckerError.unreadableFile(missing).description.contains("apt-get install hunspell-fr-classical"))
    }

    @Test func usableFromManyThreadsAtOnce() async throws {
        let spell = try checker()
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask { spell.accepts(index.isMultiple(of: 2) ? "maison" : "grenouille") && !spell.accepts("maisonn") }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }

    /// A dictionary in a legacy single-byte encoding: words are converted on the way in and the
    /// analyses on the way out.
    @Test(arguments: [("ISO8859-1", "été"), ("ISO8859-15", "cœur")])
    func convertsToAndFromASingleByteDictionaryEncoding(encoding: String, word: String) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dictee-hunspell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let latin = { (text: String) -> Data in
            Data(text.unicodeScalars.map { $0 == "œ" ? 0xBD : UInt8($0.value) })
        }
        let affix = directory.appendingPathComponent("x.aff")
        let dictionary = directory.appendingPathComponent("x.dic")
        try latin("SET \(encoding)\n").write(to: affix)
        try latin("1\n\(word)\tst:\(word) po:nom\n").write(to: dictionary)

        let spell = try SpellChecker(affix: affix, dictionary: dictionary)
        #expect(spell.dictionaryEncoding == encoding)
        #expect(spell.accepts(word))
        #expect(spell.analyze(word) == ["st:\(word) po:nom"])
        #expect(!spell.accepts("maison"))
        #expect(!spell.accepts("日本"))  // no byte for it: rejected, not mangled
    }

    /// Regression: destroying a handle of an 8-bit dictionary used to free Hunspell's process-wide
    /// UTF-8 case tables under the French handle ("Aujourd'hui", "ÉTÉ" then came back misspelt).
    @Test func anEightBitDictionaryGoingAwayLeavesTheFrenchOneIntact() throws {
        let french = try SpellChecker.french()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-hunspell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let affix = directory.appendingPathComponent("x.aff"), dictionary = directory.appendingPathComponent("x.dic")
        try Data("SET ISO8859-1\n".utf8).write(to: affix)
        try Data("1\nmot\n".utf8).write(to: dictionary)
        for _ in 0..<3 {
            let other = try SpellChecker(affix: affix, dictionary: dictionary)
            #expect(other.accepts("mot"))
        }
        for word in ["Aujourd'hui", "Peut-être", "ÉTÉ", "Maison"] { #expect(french.accepts(word), "\(word)") }
    }

    /// The 1990 rectified spellings pass through hunspell-fr-revised (extracted by Scripts/setup),
    /// beside the traditional ones; the classical dictionary alone refuses them.
    @Test func rectifiedSpellingsThroughTheRevisedDictionary() throws {
        let spell = try SpellChecker.french()
        #expect(spell.companion != nil, "hunspell-fr-revised is not extracted: run Scripts/setup")
        for word in ["connait", "évènement", "plateforme", "connaît", "événement", "plate-forme"] {
            #expect(spell.accepts(word), "\(word)")
        }
        #expect(!spell.accepts("conait"))
        let classical = try SpellChecker(affix: SpellChecker.frenchAffix, dictionary: SpellChecker.frenchDictionary)
        #expect(!classical.accepts("connait") && classical.accepts("connaît"))
    }
}
