import DicteeCore
import Foundation
import Store
import Testing

/// `dictee stats`: the failed steps line, then one line per failed validator rule; the prompt
/// tokens the model kept from an earlier request, when it says so.
@Suite struct StatsCommandTests {
    /// A state at a temporary path with one dictation of Léa's from the model: four attempts of
    /// 10 prompt tokens (`cached` of them kept from the request before, from the second attempt
    /// on) and 5 answer tokens, the last accepted.
    static func state(cached: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stats-cli-\(UUID().uuidString).sqlite").path
        let store = try StateStore(path: path)
        let child = try #require(try store.addChild(Child(firstName: "Léa", gender: .feminine, grade: .ce1)).id)
        let length = AttemptFailure.validation([FailedStep(step: .longueur, rules: ["longueur_mots"]),
                                                FailedStep(step: .orthographeGrammaire, rules: ["elision_consonne"])])
        var d = DictationRecord(childID: child, eventReference: EventReference("ev-0123456789ab")!, start: .instant(1_796_000_000),
                             moment: "la sortie piscine", title: "La sortie piscine", text: "Léa nage.", origin: "tiny.gguf",
                             targets: [.homophonesAA], aimWords: 30, density: 1, plannedAfter: 0, sites: [],
                             createdAt: Date(timeIntervalSince1970: 1_796_000_000))
        d.attempts = [length, .validation([FailedStep(step: .longueur, rules: ["longueur_mots"])]), .refusal, nil].enumerated().map {
            AttemptRecord(number: $0.offset + 1, failure: $0.element, promptTokens: 10, completionTokens: 5,
                          cachedTokens: $0.offset == 0 ? 0 : cached, seconds: 1, finishReason: "stop")
        }
        try store.addDictation(d)
        return path
    }

    static func remove(_ path: String) {
        for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) }
    }

    @Test func failedRulesAreCountedOneLineEach() throws {
        let path = try Self.state(cached: 0)
        defer { Self.remove(path) }
        let text = runDictee(["--state", path, "stats"])
        #expect(text.code == .ok)
        #expect(text.stdout.contains("failed steps:                    longueur 2, orthographe_grammaire 1, refus 1\n"))
        #expect(text.stdout.contains("failed rule longueur_mots: 2\nfailed rule elision_consonne: 1\n"))
        #expect(text.stdout.contains("tokens per accepted text:        60.0 (40 prompt + 20 answer in all)\n"),
                "a model that cannot say what it kept (an HTTP server): the kept tokens are not mentioned")
        let json = runDictee(["--state", path, "stats", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["failed_rules"] as? [String: Int] == ["longueur_mots": 2, "elision_consonne": 1])
        #expect(object["failed_steps"] as? [String: Int] == ["longueur": 2, "orthographe_grammaire": 1, "refus": 1])
        #expect(object["prompt_tokens"] as? Int == 40 && object["completion_tokens"] as? Int == 5 * 4)
        #expect(object["cached_prompt_tokens"] as? Int == 0)
    }

    @Test func thePromptTokensKeptFromAnEarlierRequestAreSaidInTextAndJSON() throws {
        let path = try Self.state(cached: 8)
        defer { Self.remove(path) }
        let text = runDictee(["--state", path, "stats"])
        #expect(text.code == .ok)
        #expect(text.stdout.contains(
            "tokens per accepted text:        60.0 (40 prompt, of which 24 kept from an earlier request, + 20 answer in all)\n"),
            "\(text.stdout)")
        let french = runDictee(["--state", path, "stats"], environment: ["TZ": "Europe/Paris", "LANG": "fr_FR.UTF-8"])
        #expect(french.stdout.contains(
            "jetons par texte accepté :             60,0 (40 de question, dont 24 repris d'une demande précédente, + 20 de réponse en tout)\n"),
            "\(french.stdout)")
        let json = runDictee(["--state", path, "stats", "--json"])
        #expect(json.stdout.contains(#""prompt_tokens":40,"cached_prompt_tokens":24,"completion_tokens":20,"#), "\(json.stdout)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["cached_prompt_tokens"] as? Int == 24)
        #expect(runDictee(["--state", path, "stats", "--json"], environment: ["TZ": "Europe/Paris", "LANG": "fr_FR.UTF-8"]).stdout == json.stdout,
                "the JSON keys never change with the language")
    }
}
