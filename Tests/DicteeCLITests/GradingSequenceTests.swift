import DicteeCore
import Foundation
import Store
import Testing

/// The loop over several graded dictations, in process: the skill states follow the transitions
/// (replayed independently here), the next plan's targets follow the states, and its length and
/// density follow the last result (Docs/domain.md §7-8).
@Suite struct GradingSequenceTests {
    static let now = ["--now", "2026-11-29T18:00:00+01:00"]

    /// A fresh state with Léa (CE1) and the fixture family's calendar.
    func freshState() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-seq-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("state.sqlite").path
        #expect(runDictee(["--state", state, "child", "add", "Léa", "--gender", "f", "--grade", "CE1"]).code == .ok)
        let ingest = runDictee(["--state", state, "ingest", fixture("famille.ics"), "--tz", "Europe/Paris"] + Self.now)
        #expect(ingest.code == .ok, "\(ingest.stderr)")
        return state
    }

    /// The transitions of Docs/domain.md §7, written again here from that table (not from the code).
    static func next(_ state: String, clean: Bool, previousClean: Bool?) -> String {
        switch (state, clean) {
        case ("non_vu", _): return "en_cours"
        case ("en_cours", true): return previousClean == true ? "maitrise" : "en_cours"
        case ("fragile", true): return "en_cours"
        case ("maitrise", false): return "fragile"
        default: return state
        }
    }

    @Test func statesTargetsLengthAndDensityFollowTheGrades() throws {
        let state = try freshState()
        defer { try? FileManager.default.removeItem(atPath: (state as NSString).deletingLastPathComponent) }
        let store = try StateStore(path: state)
        let lea = try #require(try store.children().first)
        // Missed sites per round: all; none seven times (skills become maîtrisé); then the sites
        // of the skills the child has mastered (they become fragile), else a fifth of them.
        enum Grading { case all, none, mastered }
        let rounds: [Grading] = [.all] + Array(repeating: .none, count: 7) + Array(repeating: .mastered, count: 4)
        var states = Dictionary(uniqueKeysWithValues: SkillID.allCases.map { ($0, "non_vu") })
        var lastClean: [SkillID: Bool] = [:]
        var fragileSince: [SkillID: Int] = [:]
        var previous: DictationRecord?
        var sawFragile = false
        for (round, grading) in rounds.enumerated() {
            // One grading per evening, as a family would: "since" tells the longest fragile.
            let now = ["--now", String(format: "2026-11-29T18:%02d:00+01:00", round)]
            let cards = runDictee(["--state", state, "cards", "--child", "Léa"] + now)
            #expect(cards.code == .ok, "round \(round): \(cards.stderr)")
            let dealt = try store.cards(childID: lea.id!)
            #expect(dealt.count == 3)
            #expect(Set(dealt.map { $0.moment.lowercased() }).count == 3, "never two cards for the same moment")
            let card = dealt[0]
            // The plan behind the card follows the last result (the first text: the middle of CE1's 20-40).
            if let previous {
                let sites = previous.sites.count
                let errors = previous.sites.filter { $0.missed == true }.count
                let rate = Double(errors) / Double(sites)
                let factor = rate < 0.10 ? 1.1 : rate > 0.30 ? 0.9 : 1.0
                #expect(abs(card.aimWords - min(max(previous.aimWords * factor, 20), 40)) < 1e-9, "round \(round) aim")
                #expect(abs(card.density - min(max(previous.density * factor, 0.5), 2.5)) < 1e-9, "round \(round) density")
            } else {
                #expect(card.aimWords == 30 && card.density == 1.0)
            }
            // Targets: fragile first (longest fragile first), then non_vu taught in CE1, then en_cours.
            let fragile = SkillID.allCases.filter { states[$0] == "fragile" }.sorted { (fragileSince[$0]!, $0) < (fragileSince[$1]!, $1) }
            if let first = fragile.first { #expect(card.targets.first == first, "round \(round): fragile \(first) first") }
            #expect(card.targets.count <= 3)
            if fragile.isEmpty, let first = SkillID.allCases.first(where: { states[$0] == "non_vu" && $0.isTaught(at: .ce1) }) {
                #expect(card.targets.first == first, "round \(round)")
            }

            let pick = runDictee(["--state", state, "pick", "--child", "Léa", "1"] + now)
            #expect(pick.code == .ok && pick.stdout == "\(card.id)\n")
            let missed: Set<Int>
            switch grading {
            case .all: missed = Set(card.sites.indices.map { $0 + 1 })
            case .none: missed = []
            case .mastered:
                let mastered = Set(card.sites.indices.map { $0 + 1 }.filter { n in states[card.sites[n - 1].skill] == "maitrise" })
                missed = mastered.isEmpty ? Set((0..<max(1, card.sites.count / 5)).map { $0 + 1 }.filter { $0 <= card.sites.count }) : mastered
            }
            let grade = runDictee(["--state", state, "grade", String(card.id), "--missed",
                                   missed.isEmpty ? "none" : missed.sorted().map(String.init).joined(separator: ",")] + now)
            #expect(grade.code == .ok, "round \(round): \(grade.stderr)")
            // The expected states, replayed here.
            for skill in Set(card.sites.map(\.skill)) {
                let clean = card.siteNumbers(of: skill).allSatisfy { !missed.contains($0) }
                let before = states[skill]!
                let after = Self.next(before, clean: clean, previousClean: lastClean[skill])
                if after == "fragile", before != "fragile" { fragileSince[skill] = round }
                states[skill] = after
                lastClean[skill] = clean
                sawFragile = sawFragile || after == "fragile"
            }
            let skills = runDictee(["--state", state, "skills", "--child", "Léa", "--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(skills.stdout.utf8)) as? [String: Any])
            let list = try #require(object["skills"] as? [[String: Any]])
            for entry in list {
                let id = try #require(SkillID(rawValue: entry["id"] as? String ?? ""))
                #expect(entry["state"] as? String == states[id], "round \(round): \(id.rawValue)")
            }
            // "skills moved" in the grading output names every exercised skill.
            for skill in Set(card.sites.map(\.skill)) { #expect(grade.stdout.contains(skill.label)) }
            #expect(DictationLoopTests.totalScore(in: grade.stdout + skills.stdout + cards.stdout) == nil)
            previous = try store.dictation(id: card.id)
            #expect(previous?.sites.allSatisfy { $0.missed != nil } == true, "errors stored per site")
        }
        #expect(sawFragile, "the sequence should reach a fragile skill")
    }

    @Test func interactiveGradingAsksForTheNumbersAndShowsWhatMoved() throws {
        let state = try freshState()
        defer { try? FileManager.default.removeItem(atPath: (state as NSString).deletingLastPathComponent) }
        #expect(runDictee(["--state", state, "cards", "--child", "Léa"] + Self.now).code == .ok)
        let id = runDictee(["--state", state, "pick", "--child", "Léa", "2"] + Self.now).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // A wrong answer is asked again; then "2 3".
        let r = runDictee(["--state", state, "grade", id] + Self.now, typed: ["deux", "2 3"])
        #expect(r.code == .ok, "\(r.stderr)")
        #expect(r.stdout.contains("[")  && r.stdout.contains("¹"), "the text with its numbered sites")
        #expect(r.stdout.components(separatedBy: "Numbers of the sites the child got wrong").count == 3, "asked twice")
        #expect(r.stdout.contains("type numbers from 1 to"))
        #expect(r.stdout.contains("graded dictation \(id):"))
        #expect(r.stdout.contains("missed 2") || r.stdout.contains("missed 3") || r.stdout.contains(", 3"))
        // Enter alone means none; end of input leaves it ungraded.
        #expect(runDictee(["--state", state, "cards", "--child", "Léa"] + Self.now).code == .ok)
        let second = runDictee(["--state", state, "pick", "--child", "Léa", "1"] + Self.now).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let quit = runDictee(["--state", state, "grade", second] + Self.now, typed: [])
        #expect(quit.code == .ok && quit.stdout.hasSuffix("not graded\n"))
        let none = runDictee(["--state", state, "grade", second] + Self.now, typed: [""])
        #expect(none.code == .ok && none.stdout.contains("no mistake") && !none.stdout.contains("missed"))
        #expect(runDictee(["--state", state, "grade", second] + Self.now, typed: [""]).code == .dataError, "a grade is final")
    }
}
