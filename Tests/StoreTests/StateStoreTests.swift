@_spi(PrivacyFilter) import DicteeCore
import Foundation
import Testing
@testable import Store

@Suite("StateStore: the family's state")
struct StateStoreTests {
    func temporaryStore() throws -> (StateStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-state-\(UUID().uuidString)")
        return (try StateStore(path: dir.appendingPathComponent("dictee.sqlite").path), dir)
    }

    func moment(_ uid: String, day: Int, phrase: String = "la sortie piscine", rule: String = "M001") -> Moment {
        Moment(phrase: phrase, basePhrase: phrase,
               grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"),
               firstName: nil, rule: rule, eventReference: EventReference(uid: uid),
               start: .date(CalendarDate(year: 2026, month: 12, day: day)),
               end: .date(CalendarDate(year: 2026, month: 12, day: day + 1)), isRecurring: false)
    }

    func unlabeled(_ uid: String, seconds: Int64, recurring: Bool = true) -> OccurrenceDecision {
        .unlabeled(event: EventReference(uid: uid), start: .instant(seconds), end: .instant(seconds + 3600),
                   isRecurring: recurring)
    }

    @Test("children: add, list, a first name only once")
    func children() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.addChild(Child(firstName: "Léa", gender: .feminine, grade: .ce1))
        try store.addChild(Child(firstName: "Hugo", gender: .masculine, grade: .cm1))
        #expect(try store.children().map(\.firstName) == ["Hugo", "Léa"])
        #expect(throws: StateError.childExists) {
            try store.addChild(Child(firstName: "Léa", gender: .feminine, grade: .cp))
        }
    }

    @Test("recording the same decisions again changes nothing")
    func idempotent() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let decisions: [(decision: OccurrenceDecision, source: String)] = [
            (.moment(moment("a", day: 1)), "f.ics"),
            (.disqualified(rule: "D01", event: EventReference(uid: "b"), start: .instant(10), end: .instant(20),
                           isRecurring: false), "f.ics"),
            (unlabeled("c", seconds: 1_000), "f.ics"), (unlabeled("c", seconds: 605_800), "f.ics"),
        ]
        #expect(try store.record(decisions) == 4)
        let before = try store.dump()
        #expect(try store.record(decisions) == 0)
        #expect(try store.dump() == before)
        #expect(try store.pendingSuggestions().count == 1)
        #expect(try store.pendingSuggestions().first?.occurrences.count == 2)
    }

    @Test("a rejected event is never suggested again, for every occurrence, after re-ingesting")
    func rejection() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.record([(unlabeled("series", seconds: 1_000), "f.ics")])
        let id = try #require(try store.pendingSuggestions().first?.id)
        try store.reject(suggestion: id)
        try store.record([(unlabeled("series", seconds: 1_000), "f.ics"),
                          (unlabeled("series", seconds: 605_800), "f.ics")])
        #expect(try store.pendingSuggestions().isEmpty)
        #expect(try store.rejectedEvents() == [EventReference(uid: "series")])
        #expect(throws: StateError.suggestionNotPending(id, status: "rejected")) {
            try store.reject(suggestion: id)
        }
        #expect(throws: StateError.unknownSuggestion(999)) { try store.reject(suggestion: 999) }
    }

    @Test("a label turns the event's occurrences into moments and is remembered")
    func label() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.record([(unlabeled("x", seconds: 1_000, recurring: false), "f.ics")])
        let s = try #require(try store.pendingSuggestions().first)
        let m = Moment(phrase: "la sortie au parc", basePhrase: "la sortie au parc",
                       grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "parc"),
                       firstName: nil, rule: "label", eventReference: s.eventReference,
                       start: s.occurrences[0].start, end: s.occurrences[0].end, isRecurring: false)
        try store.label(suggestion: s.id, label: "la sortie au parc", moments: [m])
        #expect(try store.labels() == [s.eventReference: "la sortie au parc"])
        #expect(try store.moments().map(\.phrase) == ["la sortie au parc"])
        #expect(try store.pendingSuggestions().isEmpty)
    }

    @Test("a rule id that is not M.., D.. or label is refused (no free text through the rule)")
    func ruleShape() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: StateError.invalidRule) {
            try store.record([(.disqualified(rule: "Dentiste Léa", event: EventReference(uid: "q"),
                                             start: .instant(1), end: .instant(2), isRecurring: false), "f.ics")])
        }
        #expect(try store.dump().isEmpty)
    }
}

@Suite("StateStore: labels and vanished occurrences")
struct StateStoreLifecycleTests {
    let helper = StateStoreTests()

    @Test("a label never overwrites a disqualified or named occurrence of the same series")
    func labelOnlyUnlabeled() throws {
        let (store, dir) = try helper.temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ref = EventReference(uid: "series")
        try store.record([
            (.unlabeled(event: ref, start: .instant(1_000), end: .instant(2_000), isRecurring: true), "f.ics"),
            (.disqualified(rule: "D15", event: ref, start: .instant(605_800), end: .instant(606_800), isRecurring: true), "f.ics"),
        ])
        let s = try #require(try store.pendingSuggestions().first)
        #expect(s.occurrences.count == 1)
        let moments = [Int64(1_000), 605_800].map { start in
            Moment(phrase: "le lundi", basePhrase: "le lundi",
                   grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "lundi"),
                   firstName: nil, rule: "label", eventReference: ref, start: .instant(start),
                   end: .instant(start + 1000), isRecurring: true)
        }
        try store.label(suggestion: s.id, label: "le lundi", moments: moments)
        #expect(try store.moments().count == 1)
        #expect(try store.dump().contains("D15"))
    }

    @Test("an occurrence that vanished from a re-read file, or moved, is forgotten inside the window")
    func vanished() throws {
        let (store, dir) = try helper.temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let window = StateStore.Window(oneOff: 0..<1_000_000, recurring: 500_000..<1_000_000,
                                       oneOffDates: "1970-01-01"..<"1970-01-13", recurringDates: "1970-01-06"..<"1970-01-13")
        let a = EventReference(uid: "a"), b = EventReference(uid: "b")
        try store.record([
            (.unlabeled(event: a, start: .instant(100), end: .instant(200), isRecurring: false), "f.ics"),
            (.unlabeled(event: b, start: .instant(300), end: .instant(400), isRecurring: false), "f.ics"),
        ], window: window, readSources: ["f.ics"])
        // b moved to 350 in a newer export under another name; a was deleted from f.ics.
        try store.record([(.unlabeled(event: b, start: .instant(350), end: .instant(450), isRecurring: false), "g.ics")],
                         window: window, readSources: ["g.ics"])
        #expect(try store.dump().components(separatedBy: "occurrences:").count - 1 == 2)
        try store.record([], window: window, readSources: ["f.ics"])
        let rows = try store.dump().components(separatedBy: "\n").filter { $0.hasPrefix("occurrences:") }
        #expect(rows.count == 1)
        #expect(rows.first?.contains("t:350") == true)
    }
}
