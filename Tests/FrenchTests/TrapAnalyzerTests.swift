import DicteeCore
import Foundation
import Testing
@testable import French

/// The hand-written table `Fixtures/traps.tsv` (skill, sentence, expected sites in order, note):
/// at least 10 sentences per skill, positive and negative, written independently of the analyzer
/// from `Docs/trap-sites.md`.
@Suite struct TrapAnalyzerTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var line: Int
        var skill: SkillID
        var sentence: String
        var sites: [String]
        var note: String
        var testDescription: String { "line \(line) \(skill.rawValue): \(sentence)" }
    }

    static let rows: [Row] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/traps.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var rows: [Row] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where n > 0 && !line.isEmpty {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 3, let skill = SkillID(rawValue: f[0]) else { continue }
            let sites = f[2] == "-" ? [] : f[2].components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
            rows.append(Row(line: n + 1, skill: skill, sentence: f[1], sites: sites, note: f.count > 3 ? f[3] : ""))
        }
        return rows
    }()

    @Test func theTableHasAtLeastTenSentencesPerSkillWithNegatives() {
        for skill in SkillID.allCases {
            let mine = Self.rows.filter { $0.skill == skill }
            #expect(mine.count >= 10, "\(skill.rawValue): \(mine.count) rows")
            #expect(mine.contains { $0.sites.isEmpty || $0.note.lowercased().contains("faux") || $0.note.lowercased().contains("pas ") },
                    "\(skill.rawValue) has no negative case")
        }
    }

    @Test(arguments: rows)
    func sitesMatchTheTable(_ row: Row) throws {
        let analyzer = TrapAnalyzer(lexicon: try TestLexicon.shared())
        let found = analyzer.sites(in: TextAnalysis(row.sentence, lexicon: analyzer.lexicon, names: ["Léa"]), skills: [row.skill])
        #expect(found.map(\.word) == row.sites, "\(row.note)")
    }

    @Test func homophoneSitesCarryTheCorrectChoiceAndAlternatives() throws {
        let analyzer = TrapAnalyzer(lexicon: try TestLexicon.shared())
        let sites = analyzer.sites(in: "Léa a mangé à la cantine et c'est bon.", names: ["Léa"])
        let a = try #require(sites.first { $0.skill == .homophonesAA && $0.word == "a" })
        #expect(a.choice == "a" && a.alternatives == ["à"])
        let cest = try #require(sites.first { $0.skill == .homophonesCesSesCestSest })
        #expect(cest.word == "c'est" && cest.choice == "c'est" && cest.alternatives.contains("s'est"))
        // Spans are scalar offsets of the text.
        #expect(cest.start == 28 && cest.end == 33)
    }
}

enum TestLexicon {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Data/lexique-3.83.bin")
    nonisolated(unsafe) static var cached: Lexicon?
    static let lock = NSLock()

    /// The installed Lexique table; a missing table fails the test with what to run.
    static func shared() throws -> Lexicon {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record("Data/lexique-3.83.bin is missing: run Scripts/setup (or Scripts/lexicon/install-lexicon)")
            throw CancellationError()
        }
        let lexicon = try Lexicon(contentsOf: url)
        cached = lexicon
        return lexicon
    }
}
