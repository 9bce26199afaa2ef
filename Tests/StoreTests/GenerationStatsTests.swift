import DicteeCore
import Foundation
import Testing
@testable import Store

/// Schema v4: the attempts of each dictation and the model's record (`dictee stats`).
@Suite struct GenerationStatsTests {
    func dictation(_ child: Int64, origin: String, attempts: [[String]], k: Int) -> DictationRecord {
        var d = DictationRecord(childID: child, eventReference: EventReference("ev-0123456789a\(k)")!, start: .instant(1_796_000_000 + Int64(k)),
                             moment: "la sortie piscine", title: "La sortie piscine", text: "Léa nage.", origin: origin,
                             targets: [.homophonesAA], aimWords: 30, density: 1, plannedAfter: 0, sites: [],
                             createdAt: Date(timeIntervalSince1970: 1_796_000_000))
        d.attempts = attempts.enumerated().map {
            StoredAttempt(number: $0.offset + 1, failedSteps: $0.element, promptTokens: 100, completionTokens: 50, seconds: 0.5,
                          finishReason: $0.element == ["trop_long"] ? "length" : "stop", removed: $0.element == ["refus"] ? ["sans_moment"] : [])
        }
        d.diagnosis = attempts.contains(["refus"]) ? "sans_moment" : nil
        return d
    }

    @Test func attemptsAreStoredWithTheirDictationAndTheStatsCountThem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString).sqlite").path
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let store = try StateStore(path: path)
        let child = try #require(try store.addChild(Child(firstName: "Léa", gender: .feminine, grade: .ce1)).id)
        let first = try store.addDictation(dictation(child, origin: "tiny.gguf", attempts: [[]], k: 1))
        try store.addDictation(dictation(child, origin: "tiny.gguf", attempts: [["longueur", "temps"], ["refus"], []], k: 2))
        let fallback = try store.addDictation(dictation(child, origin: "library:ce1-fete-01",
                                                        attempts: [["format"], ["trop_long"], ["trop_long"], ["longueur"], ["longueur"]], k: 3))
        try store.addDictation(dictation(child, origin: "library:ce1-fete-02", attempts: [], k: 4))
        #expect(try store.attempts(dictationID: first).map(\.failedSteps) == [[]])
        let five = try store.attempts(dictationID: fallback)
        #expect(five.map(\.number) == [1, 2, 3, 4, 5])
        #expect(five[1].finishReason == "length" && five[1].promptTokens == 100 && five[1].completionTokens == 50)
        let s = try store.generationStats()
        #expect(s.asked == 3 && s.accepted == 2 && s.acceptedFirst == 1 && s.attemptsOfAccepted == 4)
        #expect(s.fallbacks == 1 && s.libraryOnly == 1)
        #expect(s.promptTokens == 9 * 100 && s.completionTokens == 9 * 50)
        #expect(s.failedSteps.first == GenerationStats.StepCount(step: "longueur", count: 3))
        #expect(try store.dump().contains("attempts: "))
        // A sixth attempt is refused by the schema, and nothing of that dictation stays.
        var bad = dictation(child, origin: "tiny.gguf", attempts: Array(repeating: ["format"], count: 6), k: 5)
        bad.attempts[5].number = 6
        #expect(throws: StateError.self) { try store.addDictation(bad) }
        #expect(try store.dictations(childID: child).count == 4)
    }
}
