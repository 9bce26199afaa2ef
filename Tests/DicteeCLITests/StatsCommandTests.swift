import DicteeCore
import Foundation
import Store
import Testing

/// `dictee stats`: the failed steps line, then one line per failed validator rule.
@Suite struct StatsCommandTests {
    @Test func failedRulesAreCountedOneLineEach() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stats-cli-\(UUID().uuidString).sqlite").path
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let store = try StateStore(path: path)
        let child = try #require(try store.addChild(Child(firstName: "Léa", gender: .feminine, grade: .ce1)).id)
        let length = AttemptFailure.validation([FailedStep(step: .longueur, rules: ["longueur_mots"]),
                                                FailedStep(step: .orthographeGrammaire, rules: ["elision_consonne"])])
        var d = DictationRecord(childID: child, eventReference: EventReference("ev-0123456789ab")!, start: .instant(1_796_000_000),
                             moment: "la sortie piscine", title: "La sortie piscine", text: "Léa nage.", origin: "tiny.gguf",
                             targets: [.homophonesAA], aimWords: 30, density: 1, plannedAfter: 0, sites: [],
                             createdAt: Date(timeIntervalSince1970: 1_796_000_000))
        d.attempts = [length, .validation([FailedStep(step: .longueur, rules: ["longueur_mots"])]), .refusal, nil].enumerated().map {
            AttemptRecord(number: $0.offset + 1, failure: $0.element, promptTokens: 10, completionTokens: 5, seconds: 1, finishReason: "stop")
        }
        try store.addDictation(d)
        let text = runDictee(["--state", path, "stats"])
        #expect(text.code == .ok)
        #expect(text.stdout.contains("failed steps:                    longueur 2, orthographe_grammaire 1, refus 1\n"))
        #expect(text.stdout.contains("failed rule longueur_mots: 2\nfailed rule elision_consonne: 1\n"))
        let json = runDictee(["--state", path, "stats", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["failed_rules"] as? [String: Int] == ["longueur_mots": 2, "elision_consonne": 1])
        #expect(object["failed_steps"] as? [String: Int] == ["longueur": 2, "orthographe_grammaire": 1, "refus": 1])
    }
}
