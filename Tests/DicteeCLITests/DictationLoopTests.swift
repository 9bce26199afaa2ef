import Foundation
import Testing
import DicteeTestSupport

/// The loop around the writing, run with the built binary on the fixture family (Docs/domain.md §7-8): two
/// children, ingest, three cards each, pick, show (read aloud, clean copy, A4 page), grade with a
/// scripted --missed, grading twice refused, skills, and the new deal after grading. Compared with
/// golden files in Fixtures/golden/loop_*; `RECORD_SNAPSHOTS=1` re-records them. The temporary
/// folder's path is written `$DIR` in the golden files.
@Suite("The dictation loop: cards, pick, show, grade, skills (golden files)")
struct DictationLoopTests {
    static let now = ["--now", "2026-11-29T18:00:00+01:00"]

    /// The steps, in order, on one fresh state. `$STATE` and `$DIR` stand for temporary paths.
    static let steps: [EndToEndTests.Case] = [
        .init(name: "loop_01_child_lea", arguments: ["--state", "$STATE", "child", "add", "Léa", "--gender", "f", "--grade", "CE1"], status: 0),
        .init(name: "loop_02_child_hugo", arguments: ["--state", "$STATE", "child", "add", "Hugo", "--gender", "m", "--grade", "CM1"], status: 0),
        .init(name: "loop_03_ingest", arguments: ["--state", "$STATE", "ingest", "Fixtures/famille.ics", "--tz", "Europe/Paris"] + now, status: 0),
        .init(name: "loop_04_cards_lea", arguments: ["--state", "$STATE", "cards", "--child", "Léa"] + now, status: 0),
        .init(name: "loop_05_cards_lea_again", arguments: ["--state", "$STATE", "cards", "--child", "léa", "--json"] + now, status: 0),
        .init(name: "loop_06_cards_hugo", arguments: ["--state", "$STATE", "cards", "--child", "Hugo"] + now, status: 0),
        .init(name: "loop_07_pick_lea", arguments: ["--state", "$STATE", "pick", "--child", "Léa", "3"] + now, status: 0),
        .init(name: "loop_08_show", arguments: ["--state", "$STATE", "show", "3"], status: 0),
        .init(name: "loop_09_show_sheet", arguments: ["--state", "$STATE", "show", "3", "--sheet"], status: 0),
        .init(name: "loop_10_show_html", arguments: ["--state", "$STATE", "show", "3", "--html", "$DIR/dictee-3.html"], status: 0),
        .init(name: "loop_10b_show_json", arguments: ["--state", "$STATE", "show", "3", "--json"], status: 0),
        .init(name: "loop_10c_show_two_modes", arguments: ["--state", "$STATE", "show", "3", "--json", "--sheet"], status: 64),
        .init(name: "loop_11_grade_not_picked", arguments: ["--state", "$STATE", "grade", "1", "--missed", "none"] + now, status: 65),
        .init(name: "loop_12_grade_out_of_range", arguments: ["--state", "$STATE", "grade", "3", "--missed", "99"] + now, status: 64),
        .init(name: "loop_13_grade", arguments: ["--state", "$STATE", "grade", "3", "--missed", "2,6"] + now, status: 0),
        .init(name: "loop_14_grade_twice", arguments: ["--state", "$STATE", "grade", "3", "--missed", "none"] + now, status: 65),
        .init(name: "loop_15_skills_lea", arguments: ["--state", "$STATE", "skills", "--child", "Léa"], status: 0),
        .init(name: "loop_16_skills_lea_json", arguments: ["--state", "$STATE", "skills", "--child", "Léa", "--json"], status: 0),
        .init(name: "loop_17_cards_lea_after", arguments: ["--state", "$STATE", "cards", "--child", "Léa"] + now, status: 0),
        .init(name: "loop_18_pick_hugo", arguments: ["--state", "$STATE", "pick", "--child", "Hugo", "1"] + now, status: 0),
        .init(name: "loop_19_grade_hugo", arguments: ["--state", "$STATE", "grade", "4", "--missed", "none"] + now, status: 0),
        .init(name: "loop_20_skills_hugo", arguments: ["--state", "$STATE", "skills", "--child", "Hugo"], status: 0),
        .init(name: "loop_21_unknown_child", arguments: ["--state", "$STATE", "cards", "--child", "Zoé"] + now, status: 64),
        .init(name: "loop_22_grade_no_missed", arguments: ["--state", "$STATE", "grade", "3"], status: 64),
    ]

    /// Words and shapes of a total score: none may appear in any output (Docs/domain.md §1: "no average, no
    /// percentage, no points, in any output").
    static func totalScore(in text: String) -> String? {
        let lower = text.lowercased()
        for word in ["score", "moyenne", "average", "points", "pourcentage", "percent", "%", "/20", "/10", "note :", "total"]
        where lower.contains(word) {
            return word
        }
        for pattern in [#"\d+\s*/\s*\d+"#, #"\d+\s+sur\s+\d+"#, #"\d+\s+out of\s+\d+"#] {
            if let r = lower.range(of: pattern, options: .regularExpression) { return String(lower[r]) }
        }
        return nil
    }

    @Test("every step's stdout, stderr and exit status; no total score anywhere")
    func loop() throws {
        let binary = EndToEndTests.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "\(binary.path) is missing: run Scripts/test")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-loop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = repositoryRoot.appendingPathComponent("Fixtures/golden")
        let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        for step in Self.steps {
            let arguments = step.arguments.map {
                $0.replacingOccurrences(of: "$STATE", with: dir.appendingPathComponent("state.sqlite").path)
                    .replacingOccurrences(of: "$DIR", with: dir.path)
            }
            let (status, out, err) = try runBuiltDictee(binary, arguments)
            let stdout = String(decoding: out, as: UTF8.self).replacingOccurrences(of: dir.path, with: "$DIR")
            let stderr = String(decoding: err, as: UTF8.self).replacingOccurrences(of: dir.path, with: "$DIR")
            #expect(status == step.status, "\(step.name): exit \(status)\n\(stderr)")
            #expect(Self.totalScore(in: stdout + stderr) == nil, "\(step.name) shows a score: \(Self.totalScore(in: stdout + stderr) ?? "")")
            let outFile = golden.appendingPathComponent("\(step.name).stdout")
            let errFile = golden.appendingPathComponent("\(step.name).stderr")
            if record {
                try Data(stdout.utf8).write(to: outFile)
                try Data(stderr.utf8).write(to: errFile)
            } else {
                #expect(stdout == (try String(contentsOf: outFile, encoding: .utf8)), "\(step.name).stdout")
                #expect(stderr == (try String(contentsOf: errFile, encoding: .utf8)), "\(step.name).stderr")
            }
        }
        // The A4 page.
        let html = try String(contentsOf: dir.appendingPathComponent("dictee-3.html"), encoding: .utf8)
        #expect(Self.totalScore(in: html) == nil)
        let htmlFile = golden.appendingPathComponent("loop_show.html")
        if record {
            try Data(html.utf8).write(to: htmlFile)
        } else {
            #expect(html == (try String(contentsOf: htmlFile, encoding: .utf8)))
        }
    }

    /// What the parent is shown and what `grade` numbers are the same sites: the read-aloud list,
    /// the A4 page's list, `show --json` and the range `grade` accepts (the golden files of one run).
    @Test("show, the A4 page, show --json and grade number the same sites")
    func theSameSitesEverywhere() throws {
        let golden = repositoryRoot.appendingPathComponent("Fixtures/golden")
        func read(_ name: String) throws -> String { try String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try read("loop_10b_show_json.stdout").utf8)) as? [String: Any])
        let sites = try #require(json["sites"] as? [[String: Any]])
        let words = sites.compactMap { $0["word"] as? String }
        #expect(!words.isEmpty && !words.contains { [".", "!", "?"].contains($0) })
        let screen = try read("loop_08_show.stdout").split(separator: "\n").filter { $0.contains(" — ") && !$0.contains("— Dictée") }
        #expect(screen.count == sites.count)
        for (line, word) in zip(screen, words) { #expect(line.contains(" " + word + " — "), "\(line)") }
        #expect(try read("loop_show.html").components(separatedBy: "<li>").count - 1 == sites.count)
        #expect(try read("loop_12_grade_out_of_range.stderr").contains("numbered 1 to \(sites.count)\n"))
        let given = try #require(json["mots_donnes"] as? [String])
        #expect(try read("loop_08_show.stdout").contains("Mots donnés : " + given.joined(separator: ", ")))
    }

    @Test("the score detector itself finds scores")
    func detector() {
        for text in ["3/10", "3 / 10", "Score : 4", "moyenne 12", "80 %", "2 sur 5", "7 points", "3 out of 4"] {
            #expect(Self.totalScore(in: text) != nil, "\(text)")
        }
        for text in ["homophones a / à", "2026-11-29", "[a]¹ ² ³", "dictation 3", "missed 2, 6"] {
            #expect(Self.totalScore(in: text) == nil, "\(text)")
        }
    }
}
