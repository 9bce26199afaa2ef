import DicteeCore
import Foundation
import Testing
@testable import Store

/// Schema v4: the attempts of each dictation and the model's record (`dictee stats`); v5: the
/// failed rules of each attempt; v9: the prompt tokens the model kept from an earlier request.
@Suite struct GenerationStatsTests {
    static let lengthAndTense = AttemptFailure.validation([FailedStep(step: .longueur, rules: ["longueur_mots", "longueur_phrase"]),
                                                          FailedStep(step: .temps, rules: ["temps"])])
    static let length = AttemptFailure.validation([FailedStep(step: .longueur, rules: ["longueur_mots"])])
    static let grammar = AttemptFailure.validation([FailedStep(step: .orthographeGrammaire, rules: ["elision_consonne", "grammalecte:g2__conj_x"])])

    func dictation(_ child: Int64, origin: String, attempts: [AttemptFailure?], k: Int) -> DictationRecord {
        var d = DictationRecord(childID: child, eventReference: EventReference("ev-0123456789a\(k)")!, start: .instant(1_796_000_000 + Int64(k)),
                             moment: "la sortie piscine", title: "La sortie piscine", text: "Léa nage.", origin: origin,
                             targets: [.homophonesAA], aimWords: 30, density: 1, plannedAfter: 0, sites: [],
                             createdAt: Date(timeIntervalSince1970: 1_796_000_000))
        d.attempts = attempts.enumerated().map {
            AttemptRecord(number: $0.offset + 1, failure: $0.element, promptTokens: 100, completionTokens: 50,
                          cachedTokens: $0.offset == 0 ? 0 : 60, seconds: 0.5, finishReason: $0.element == .runaway ? "length" : "stop",
                          removed: $0.element == .refusal ? [.moment] : [])
        }
        d.diagnosis = attempts.contains(.refusal) ? "sans_moment" : nil
        return d
    }

    @Test func attemptsAreStoredWithTheirDictationAndTheStatsCountThem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString).sqlite").path
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let store = try StateStore(path: path)
        let child = try #require(try store.addChild(Child(firstName: "Léa", gender: .feminine, grade: .ce1)).id)
        let first = try store.addDictation(dictation(child, origin: "tiny.gguf", attempts: [nil], k: 1))
        let second = dictation(child, origin: "tiny.gguf", attempts: [Self.lengthAndTense, .refusal, nil], k: 2)
        let secondID = try store.addDictation(second)
        let fallback = try store.addDictation(dictation(child, origin: "library:ce1-fete-01",
                                                        attempts: [.format, .runaway, .runaway, Self.length, Self.grammar], k: 3))
        try store.addDictation(dictation(child, origin: "library:ce1-fete-02", attempts: [], k: 4))
        #expect(try store.attempts(dictationID: first).map(\.failure) == [nil])
        #expect(try store.attempts(dictationID: secondID) == second.attempts, "failures, rules and removals read back as written")
        #expect(second.attempts.map(\.storedSteps) == [["longueur", "temps"], ["refus"], []])
        let five = try store.attempts(dictationID: fallback)
        #expect(five.map(\.number) == [1, 2, 3, 4, 5])
        #expect(five[1].finishReason == "length" && five[1].promptTokens == 100 && five[1].completionTokens == 50)
        #expect(five.map(\.cachedTokens) == [0, 60, 60, 60, 60], "the prompt tokens the model kept read back as written")
        let s = try store.generationStats()
        #expect(s.asked == 3 && s.accepted == 2 && s.acceptedFirst == 1 && s.attemptsOfAccepted == 4)
        #expect(s.fallbacks == 1 && s.libraryOnly == 1)
        #expect(s.promptTokens == 9 * 100 && s.completionTokens == 9 * 50)
        #expect(s.cachedTokens == 6 * 60, "every attempt after the first of each text kept 60 prompt tokens")
        #expect(s.failedSteps.first == GenerationStats.StepCount(step: "longueur", count: 2))
        #expect(s.failedSteps.contains(GenerationStats.StepCount(step: "trop_long", count: 2)))
        #expect(s.failedRules == [
            GenerationStats.RuleCount(rule: "longueur_mots", count: 2), GenerationStats.RuleCount(rule: "elision_consonne", count: 1),
            GenerationStats.RuleCount(rule: "grammalecte:g2__conj_x", count: 1), GenerationStats.RuleCount(rule: "longueur_phrase", count: 1),
            GenerationStats.RuleCount(rule: "temps", count: 1),
        ])
        #expect(try store.dump().contains("attempts: "))
        // A sixth attempt is refused by the schema, and nothing of that dictation stays.
        var bad = dictation(child, origin: "tiny.gguf", attempts: Array(repeating: .format, count: 6), k: 5)
        bad.attempts[5].number = 6
        #expect(throws: StateError.self) { try store.addDictation(bad) }
        #expect(try store.dictations(childID: child).count == 4)
    }
}
