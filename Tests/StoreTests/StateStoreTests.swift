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
        try store.label(suggestion: s.id, label: StoredLabel(text: "la sortie au parc"), moments: [m])
        #expect(try store.labels() == [s.eventReference: StoredLabel(text: "la sortie au parc")])
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
        try store.label(suggestion: s.id, label: StoredLabel(text: "le lundi"), moments: moments)
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

@Suite("StateStore: whose moment, and the parent's queue")
struct StateStoreQueueTests {
    let helper = StateStoreTests()

    func labelMoment(_ ref: EventReference, _ start: Int64, children: [Int64] = [], kind: String? = "fete") -> Moment {
        Moment(phrase: "le dîner chez Mamie", basePhrase: "le dîner chez Mamie",
               grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "dîner"),
               firstName: nil, rule: "label", eventReference: ref, start: .instant(start),
               end: .instant(start + 3600), isRecurring: false, children: children, kind: kind)
    }

    @Test("a moment keeps the children it belongs to and a label's kind; P rules are stored")
    func childrenAndKind() throws {
        let (store, dir) = try helper.temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let judo = Moment(phrase: "le cours de judo", basePhrase: "le cours de judo",
                          grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "cours"),
                          firstName: nil, rule: "M018", eventReference: EventReference(uid: "judo"),
                          start: .instant(1_000), end: .instant(4_600), isRecurring: true, children: [2, 1])
        try store.record([
            (.moment(judo), "f.ics"),
            (.moment(helper.moment("family", day: 3)), "f.ics"),
            (.disqualified(rule: "P04", event: EventReference(uid: "meeting"), start: .instant(9), end: .instant(10),
                           isRecurring: false), "f.ics"),
        ])
        let stored = try store.moments()
        #expect(stored.first { $0.rule == "M018" }?.children == [1, 2])
        #expect(stored.first { $0.rule == "M001" }?.children == [])
        #expect(stored.allSatisfy { $0.kind == nil })
        #expect(try store.dump().contains("P04"))
        // Storing the same decisions again changes nothing; a change of owners is a change.
        #expect(try store.record([(.moment(judo), "f.ics")]) == 0)
        let judoForOne = Moment(phrase: judo.phrase, basePhrase: judo.basePhrase, grammar: judo.grammar,
                                firstName: nil, rule: "M018", eventReference: judo.eventReference,
                                start: judo.start, end: judo.end, isRecurring: true, children: [2])
        #expect(try store.record([(.moment(judoForOne), "f.ics")]) == 1)
        #expect(try store.moments().first { $0.rule == "M018" }?.children == [2])
    }

    @Test("a label keeps its grammar, kind and children; unlabel withdraws the moments and unserved texts only")
    func unlabel() throws {
        let (store, dir) = try helper.temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lea = try store.addChild(Child(firstName: "Léa", gender: .feminine, grade: .ce1))
        let ref = EventReference(uid: "dinner")
        try store.record([(.unlabeled(event: ref, start: .instant(1_000), end: .instant(4_600), isRecurring: true), "f.ics"),
                          (.unlabeled(event: ref, start: .instant(605_800), end: .instant(609_400), isRecurring: true), "f.ics")])
        let s = try #require(try store.pendingSuggestions().first)
        let label = StoredLabel(text: "le dîner chez Mamie",
                                grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "dîner"),
                                kind: "fete", children: [lea.id!])
        try store.label(suggestion: s.id, label: label, moments: [labelMoment(ref, 1_000, children: [lea.id!]),
                                                                  labelMoment(ref, 605_800, children: [lea.id!])])
        #expect(try store.labels()[ref] == label)
        #expect(try store.moments().map(\.kind) == ["fete", "fete"])
        #expect(try store.allSuggestions().map(\.status) == [.labeled])
        #expect(try store.allSuggestions().first?.label == label)
        #expect(try store.allSuggestions().first?.occurrences.count == 2)

        // One text served (history), one ready behind a card (withdrawn with the label).
        func record(_ start: Int64) -> DictationRecord {
            DictationRecord(childID: lea.id!, eventReference: ref, start: .instant(start), moment: label.text,
                            title: "Le dîner", text: "Léa a dîné.", origin: "library:x", targets: [],
                            aimWords: 10, density: 1, plannedAfter: 0, sites: [], createdAt: Date(timeIntervalSince1970: 0))
        }
        let servedID = try store.addDictation(record(1_000))
        let readyID = try store.addDictation(record(605_800))
        try store.deal(childID: lea.id!, [servedID, readyID])
        _ = try store.pick(childID: lea.id!, card: 1, at: Date(timeIntervalSince1970: 2_000))

        #expect(throws: StateError.suggestionNot(s.id, expected: .rejected, status: "labeled")) {
            try store.unreject(suggestion: s.id)
        }
        let withdrawn = try store.unlabel(suggestion: s.id)
        #expect(withdrawn == StateStore.Withdrawal(moments: 2, dictations: 1))
        #expect(try store.moments().isEmpty)
        #expect(try store.labels().isEmpty)
        #expect(try store.pendingSuggestions().map(\.id) == [s.id])
        #expect(try store.pendingSuggestions().first?.occurrences.count == 2)
        #expect(try store.dictation(id: servedID)?.status == .served)
        #expect(try store.dictation(id: readyID)?.status == .retired)
        #expect(try store.cards(childID: lea.id!).isEmpty)
        #expect(throws: StateError.suggestionNot(s.id, expected: .labeled, status: "pending")) {
            try store.unlabel(suggestion: s.id)
        }
        #expect(throws: StateError.unknownSuggestion(42)) { try store.unlabel(suggestion: 42) }
    }

    @Test("unreject puts a rejected event back in the queue; --all lists every status")
    func unreject() throws {
        let (store, dir) = try helper.temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.record([(helper.unlabeled("a", seconds: 1_000), "f.ics"), (helper.unlabeled("b", seconds: 2_000), "f.ics")])
        let ids = try store.pendingSuggestions().map(\.id)
        try store.reject(suggestion: ids[0])
        #expect(try store.pendingSuggestions().map(\.id) == [ids[1]])
        #expect(try store.allSuggestions().map(\.status) == [.rejected, .pending])
        try store.unreject(suggestion: ids[0])
        #expect(try store.pendingSuggestions().map(\.id) == ids)
        #expect(try store.rejectedEvents().isEmpty)
        #expect(throws: StateError.suggestionNot(ids[0], expected: .rejected, status: "pending")) {
            try store.unreject(suggestion: ids[0])
        }
    }
}
