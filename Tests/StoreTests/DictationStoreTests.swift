import DicteeCore
import Foundation
import Testing

@testable import Store

/// The dictation part of the state store (`Sources/Store/Dictations.swift`) and schema v3.
/// Dictations need no stored moment: they only hold an event reference and a start.
@Suite("StateStore: dictations, cards, pick, grade (schema v3)")
struct DictationStoreTests {
    /// The child's first name: it must never appear in an error message.
    static let firstName = "Léa"
    /// "Léa est allée à la piscine. Elle a nagé et elle est contente."
    static let text = "Léa est allée à la piscine. Elle a nagé et elle est contente."
    /// Three numbered sites, two skills: `est` and `et` (homophones et/est), `allée` (pp with être).
    static let sites = [
        TrapSite(skill: .homophonesEtEst, start: 4, end: 7, word: "est", choice: "est",
                 alternatives: ["et", "ai"]),
        TrapSite(skill: .accordPPEtre, start: 8, end: 13, word: "allée"),
        TrapSite(skill: .homophonesEtEst, start: 40, end: 42, word: "et", choice: "et",
                 alternatives: ["est"]),
    ]
    static let created = Date(timeIntervalSince1970: 1_796_000_000.75)

    // MARK: Helpers

    func temporaryStore() throws -> (StateStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-dictations-\(UUID().uuidString)")
        return (try StateStore(path: dir.appendingPathComponent("dictee.sqlite").path), dir)
    }

    func addChild(_ store: StateStore, _ name: String = firstName) throws -> Int64 {
        try #require(try store.addChild(Child(firstName: name, gender: .feminine, grade: .ce2)).id)
    }

    /// `ev-` and `n` as 12 hexadecimal digits.
    func reference(_ n: Int) throws -> EventReference {
        let hex = String(n, radix: 16)
        return try #require(EventReference("ev-" + String(repeating: "0", count: 12 - hex.count) + hex))
    }

    func newDictation(child: Int64, event n: Int = 0x0123456789ab, start: EventTime = .instant(1_796_500_000),
                      sites: [TrapSite] = sites, aimWords: Double = 12, createdAt: Date = created) throws -> DictationRecord {
        DictationRecord(childID: child, eventReference: try reference(n), start: start, moment: "la sortie piscine",
                     title: "La sortie piscine", text: Self.text, origin: "library:ce2-piscine-01",
                     targets: [.homophonesEtEst, .accordPPEtre], aimWords: aimWords, density: 0.5,
                     plannedAfter: 0, sites: sites, createdAt: createdAt)
    }

    /// Deals `id` alone and picks it.
    @discardableResult
    func serve(_ store: StateStore, child: Int64, _ id: Int64, at seconds: TimeInterval = 1_796_050_000) throws -> DictationRecord {
        try store.deal(childID: child, [id])
        return try store.pick(childID: child, card: 1, at: Date(timeIntervalSince1970: seconds))
    }

    /// The dictation is in `status`, ungraded, with no site marked, and the child has no exposure.
    func expectNothingGraded(_ store: StateStore, _ id: Int64, child: Int64, status: DictationStatus,
                             sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let d = try #require(try store.dictation(id: id), sourceLocation: sourceLocation)
        #expect(d.status == status, sourceLocation: sourceLocation)
        #expect(d.gradedAt == nil, sourceLocation: sourceLocation)
        #expect(d.sites.allSatisfy { $0.missed == nil }, sourceLocation: sourceLocation)
        #expect(try store.exposures(childID: child).isEmpty, sourceLocation: sourceLocation)
        #expect(try store.lastGraded(childID: child) == nil, sourceLocation: sourceLocation)
    }

    /// Lower case first, names `id` when given, never the child's first name.
    func expectPrivateMessage(_ error: StateError?, naming id: Int64?, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard let error else {
            Issue.record("no error", sourceLocation: sourceLocation)
            return
        }
        let text = error.description
        #expect(text.first?.isLowercase == true, "\(text)", sourceLocation: sourceLocation)
        #expect(!text.contains(Self.firstName), "\(text)", sourceLocation: sourceLocation)
        if let id {
            #expect(text.contains("dictation \(id)"), "\(text)", sourceLocation: sourceLocation)
        }
        if case .dictation(let inner) = error {
            #expect(text == inner.description, sourceLocation: sourceLocation)
        }
    }

    // MARK: 1. Adding and reading back

    @Test("a dictation with three numbered sites reads back identical, ready, created_at in whole seconds")
    func roundTrip() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let other = try addChild(store, "Hugo")
        let new = try newDictation(child: child)
        let id = try store.addDictation(new)
        let dated = try store.addDictation(try newDictation(child: child, event: 0xabc,
                                                            start: .date(CalendarDate(year: 2026, month: 12, day: 2)),
                                                            sites: []))

        var expected = DictationRecord(
            childID: child, eventReference: try reference(0x0123456789ab), start: .instant(1_796_500_000),
            moment: "la sortie piscine", title: "La sortie piscine", text: Self.text, origin: "library:ce2-piscine-01",
            targets: [.homophonesEtEst, .accordPPEtre], aimWords: 12, density: 0.5, plannedAfter: 0,
            sites: Self.sites, createdAt: Date(timeIntervalSince1970: 1_796_000_000))
        expected.id = id
        let read = try #require(try store.dictation(id: id))
        #expect(read == expected)
        #expect(read.siteNumbers(of: .homophonesEtEst) == [1, 3] && read.siteNumbers(of: .accordPPEtre) == [2])
        #expect(read.sites.allSatisfy { $0.missed == nil })
        #expect(read.sites[1].choice == nil && read.sites[1].alternatives.isEmpty)
        #expect(read.occurrenceKey.description == "ev-0123456789ab|t:1796500000")
        #expect(OccurrenceKey("ev-0123456789ab|t:1796500000") == read.occurrenceKey)

        let second = try #require(try store.dictation(id: dated))
        #expect(second.start == .date(CalendarDate(year: 2026, month: 12, day: 2)))
        #expect(second.eventReference.description == "ev-000000000abc")
        #expect(second.sites.isEmpty)

        #expect(try store.dictations(childID: child) == [expected, second])
        #expect(try store.dictations(childID: child, statuses: [.ready]).map(\.id) == [id, dated])
        #expect(try store.dictations(childID: child, statuses: [.served, .graded, .retired]).isEmpty)
        #expect(try store.dictations(childID: other).isEmpty)
        #expect(try store.dictation(id: 999) == nil)
        #expect(try store.cards(childID: child).isEmpty)
    }

    // MARK: 2. Dealing

    @Test("deal: cards in the given order, a new deal replaces the last, only the child's ready dictations")
    func deal() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let other = try addChild(store, "Hugo")
        let served = try store.addDictation(try newDictation(child: child, event: 1))
        try serve(store, child: child, served)
        var ready: [Int64] = []
        for n in 2...5 { ready.append(try store.addDictation(try newDictation(child: child, event: n))) }
        let theirs = try store.addDictation(try newDictation(child: other, event: 9))

        try store.deal(childID: child, [ready[2], ready[0], ready[1]])
        var cards = try store.cards(childID: child)
        #expect(cards.map(\.id) == [ready[2], ready[0], ready[1]])
        #expect(cards.map(\.card) == [1, 2, 3])
        #expect(try store.dictation(id: ready[3])?.card == nil)

        // A second deal replaces the first.
        try store.deal(childID: child, [ready[3]])
        cards = try store.cards(childID: child)
        #expect(cards.map(\.id) == [ready[3]])
        #expect(cards.map(\.card) == [1])
        for id in ready.prefix(3) { #expect(try store.dictation(id: id)?.card == nil) }

        // Another child's dictation and a served one are not dealt. (The contract is that `ids`
        // are the child's ready dictations; the others are put last here, as the deal counts them
        // against the three places and leaves their numbers empty.)
        try store.deal(childID: child, [ready[0], theirs])
        #expect(try store.cards(childID: child).map(\.id) == [ready[0]])
        #expect(try store.dictation(id: theirs)?.card == nil)
        #expect(try store.cards(childID: other).isEmpty)
        try store.deal(childID: child, [ready[1], served])
        cards = try store.cards(childID: child)
        #expect(cards.map(\.id) == [ready[1]])
        #expect(cards.map(\.card) == [1])
        let stillServed = try #require(try store.dictation(id: served))
        #expect(stillServed.status == .served && stillServed.card == nil)
        #expect(try store.dictation(id: ready[0])?.card == nil)

        // At most three cards.
        try store.deal(childID: child, ready)
        #expect(try store.cards(childID: child).map(\.id) == Array(ready.prefix(3)))

        // Dealing the other child leaves this child's cards alone.
        try store.deal(childID: other, [theirs])
        #expect(try store.cards(childID: child).map(\.id) == Array(ready.prefix(3)))
        #expect(try store.cards(childID: other).map(\.id) == [theirs])

        // An empty deal clears the cards.
        try store.deal(childID: child, [])
        #expect(try store.cards(childID: child).isEmpty)
        #expect(try store.dictations(childID: child, statuses: [.ready]).count == 4)
    }

    // MARK: 3. Picking

    @Test("pick: served at the given second, the deal cleared, the others stay ready")
    func pick() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let other = try addChild(store, "Hugo")
        let ids = try (1...3).map { try store.addDictation(try newDictation(child: child, event: $0)) }
        try store.deal(childID: child, ids)

        // The other child has no card: this child's cards are not theirs to pick.
        #expect(throws: StateError.dictation(.noCard(1, dealt: 0))) {
            try store.pick(childID: other, card: 1, at: Date(timeIntervalSince1970: 1_796_000_100))
        }
        #expect(try store.cards(childID: child).count == 3)

        let picked = try store.pick(childID: child, card: 2, at: Date(timeIntervalSince1970: 1_796_000_123.9))
        #expect(picked.id == ids[1])
        #expect(picked.status == .served)
        #expect(picked.servedAt == Date(timeIntervalSince1970: 1_796_000_123))
        #expect(picked.gradedAt == nil)
        #expect(picked.card == nil)
        #expect(try store.dictation(id: ids[1]) == picked)
        #expect(try store.cards(childID: child).isEmpty)
        for id in [ids[0], ids[2]] {
            let d = try #require(try store.dictation(id: id))
            #expect(d.status == .ready && d.card == nil && d.servedAt == nil)
        }

        // Nothing dealt: dealt 0.
        let none = #expect(throws: StateError.dictation(.noCard(1, dealt: 0))) {
            try store.pick(childID: child, card: 1, at: Date(timeIntervalSince1970: 1_796_000_200))
        }
        #expect(none?.description == "no card to pick from; run 'dictee cards --child NAME' first")

        // Two dealt: card 3 and card 0 do not exist, and a refused pick changes nothing.
        try store.deal(childID: child, [ids[2], ids[0]])
        let three = #expect(throws: StateError.dictation(.noCard(3, dealt: 2))) {
            try store.pick(childID: child, card: 3, at: Date(timeIntervalSince1970: 1_796_000_300))
        }
        #expect(three?.description == "no card 3: the cards are numbered 1 to 2")
        #expect(throws: StateError.dictation(.noCard(0, dealt: 2))) {
            try store.pick(childID: child, card: 0, at: Date(timeIntervalSince1970: 1_796_000_300))
        }
        #expect(try store.cards(childID: child).map(\.id) == [ids[2], ids[0]])
        #expect(try store.dictations(childID: child, statuses: [.ready]).map(\.id) == [ids[0], ids[2]])
        expectPrivateMessage(three, naming: nil)
        expectPrivateMessage(none, naming: nil)
    }

    // MARK: 4. Grading

    @Test("grade: every site marked, one exposure per skill, graded, lastGraded, exposures oldest first")
    func grade() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let other = try addChild(store, "Hugo")
        let first = try store.addDictation(try newDictation(child: child, event: 1))
        let second = try store.addDictation(try newDictation(child: child, event: 2))
        try serve(store, child: child, first, at: 1_796_010_000)
        try serve(store, child: child, second, at: 1_796_020_000)

        // The second dictation is graded first (earlier), the first one later.
        let early = Date(timeIntervalSince1970: 1_796_100_000.5)
        let late = Date(timeIntervalSince1970: 1_796_200_000)
        let secondExposures = try store.grade(dictation: second, missed: [], at: early)
        #expect(try store.lastGraded(childID: child)?.id == second)
        let firstExposures = try store.grade(dictation: first, missed: [3], at: late)

        let earlyWhole = Date(timeIntervalSince1970: 1_796_100_000)
        #expect(secondExposures == [
            SkillExposure(dictationID: second, skill: .homophonesEtEst, gradedAt: earlyWhole, sites: 2, errors: 0),
            SkillExposure(dictationID: second, skill: .accordPPEtre, gradedAt: earlyWhole, sites: 1, errors: 0),
        ])
        #expect(firstExposures == [
            SkillExposure(dictationID: first, skill: .homophonesEtEst, gradedAt: late, sites: 2, errors: 1),
            SkillExposure(dictationID: first, skill: .accordPPEtre, gradedAt: late, sites: 1, errors: 0),
        ])

        let graded = try #require(try store.dictation(id: first))
        #expect(graded.status == .graded)
        #expect(graded.gradedAt == late)
        #expect(graded.servedAt == Date(timeIntervalSince1970: 1_796_010_000))
        #expect(graded.sites.map(\.missed) == [false, false, true])
        #expect(try store.dictation(id: second)?.sites.map(\.missed) == [false, false, false])
        #expect(try store.dictation(id: second)?.gradedAt == earlyWhole)

        // The latest grading, not the highest id.
        #expect(try store.lastGraded(childID: child)?.id == first)
        #expect(try store.lastGraded(childID: other) == nil)

        // Oldest grading first: the second dictation's exposures, then the first's (the order of
        // skills inside one grading is not promised).
        let history = try store.exposures(childID: child)
        #expect(history.map(\.dictationID) == [second, second, first, first])
        #expect(Set(history.prefix(2)) == Set(secondExposures))
        #expect(Set(history.suffix(2)) == Set(firstExposures))
        #expect(try store.exposures(childID: other).isEmpty)
        #expect(try store.dictations(childID: child, statuses: [.graded]).map(\.id) == [first, second])
    }

    @Test("grade: a dictation without trap site is graded with no exposure; missed sites are refused")
    func gradeWithoutSites() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let bare = try store.addDictation(try newDictation(child: child, event: 1, sites: []))
        try serve(store, child: child, bare)
        let error = #expect(throws: StateError.dictation(.siteOutOfRange(1, count: 0))) {
            try store.grade(dictation: bare, missed: [1], at: Date(timeIntervalSince1970: 1_796_100_000))
        }
        #expect(error?.description == "this dictation has no trap site; grade it with --missed none")
        try expectNothingGraded(store, bare, child: child, status: .served)
        #expect(try store.grade(dictation: bare, missed: [], at: Date(timeIntervalSince1970: 1_796_100_000)).isEmpty)
        #expect(try store.dictation(id: bare)?.status == .graded)
        #expect(try store.exposures(childID: child).isEmpty)
        #expect(try store.lastGraded(childID: child)?.id == bare)
    }

    // MARK: 5. Refusals

    @Test("grading twice is refused with the first grading's day, and the first grade stays")
    func alreadyGraded() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let id = try store.addDictation(try newDictation(child: child))
        try serve(store, child: child, id)
        let first = try store.grade(dictation: id, missed: [1], at: Date(timeIntervalSince1970: 1_796_000_000))
        let before = try store.dump()
        let error = #expect(throws: StateError.dictation(.alreadyGraded(id, on: "2026-11-30"))) {
            try store.grade(dictation: id, missed: [2, 3], at: Date(timeIntervalSince1970: 1_796_300_000))
        }
        #expect(error?.description == "dictation \(id) was already graded on 2026-11-30; a grade is final")
        expectPrivateMessage(error, naming: id)
        #expect(try store.dump() == before)
        #expect(try store.dictation(id: id)?.sites.map(\.missed) == [true, false, false])
        #expect(Set(try store.exposures(childID: child)) == Set(first))
        #expect(try store.exposures(childID: child).count == 2)
    }

    @Test("a ready dictation (not picked) cannot be graded; nothing is stored")
    func notServed() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let id = try store.addDictation(try newDictation(child: child))
        try store.deal(childID: child, [id])
        let error = #expect(throws: StateError.dictation(.notServed(id))) {
            try store.grade(dictation: id, missed: [1], at: Date(timeIntervalSince1970: 1_796_100_000))
        }
        expectPrivateMessage(error, naming: id)
        try expectNothingGraded(store, id, child: child, status: .ready)
        #expect(try store.cards(childID: child).map(\.id) == [id])
    }

    @Test("a retired dictation cannot be graded; nothing is stored")
    func retiredRefused() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let id = try store.addDictation(try newDictation(child: child))
        try store.retireDictations([id])
        let error = #expect(throws: StateError.dictation(.retired(id))) {
            try store.grade(dictation: id, missed: [], at: Date(timeIntervalSince1970: 1_796_100_000))
        }
        expectPrivateMessage(error, naming: id)
        try expectNothingGraded(store, id, child: child, status: .retired)
    }

    @Test("an unknown dictation cannot be graded")
    func unknown() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let error = #expect(throws: StateError.dictation(.unknownDictation(42))) {
            try store.grade(dictation: 42, missed: [1], at: Date(timeIntervalSince1970: 1_796_100_000))
        }
        #expect(error?.description == "no dictation 42")
        expectPrivateMessage(error, naming: nil)
        #expect(try store.exposures(childID: child).isEmpty)
        #expect(try store.dump().contains("dictations: ") == false)
    }

    @Test("a site number out of 1...count is refused, even beside valid ones; nothing is stored",
          arguments: [([0], 0), ([4], 4), ([2, 4], 4), ([0, 4], 0), ([1, 2, 3, 99], 99), ([-1], -1)])
    func siteOutOfRange(missed: [Int], bad: Int) throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let id = try store.addDictation(try newDictation(child: child))
        try serve(store, child: child, id)
        let error = #expect(throws: StateError.dictation(.siteOutOfRange(bad, count: 3))) {
            try store.grade(dictation: id, missed: Set(missed), at: Date(timeIntervalSince1970: 1_796_100_000))
        }
        #expect(error?.description == "no trap site \(bad): the sites are numbered 1 to 3")
        expectPrivateMessage(error, naming: nil)
        try expectNothingGraded(store, id, child: child, status: .served)
        // Still gradable afterwards.
        #expect(try store.grade(dictation: id, missed: [3], at: Date(timeIntervalSince1970: 1_796_100_000)).count == 2)
    }

    @Test("no dictation error names the child, whatever the case")
    func messagesArePrivate() {
        let errors: [DictationError] = [
            .unknownDictation(7), .noCard(4, dealt: 3), .noCard(1, dealt: 0), .notServed(7),
            .alreadyGraded(7, on: "2026-11-30"), .retired(7), .siteOutOfRange(9, count: 3), .siteOutOfRange(1, count: 0),
        ]
        for error in errors {
            let text = StateError.dictation(error).description
            #expect(text == error.description)
            #expect(text.first?.isLowercase == true, "\(text)")
            #expect(!text.contains(Self.firstName), "\(text)")
            if case .noCard = error {} else if case .siteOutOfRange = error {} else {
                #expect(text.contains(" 7"), "\(text)")
            }
        }
    }

    // MARK: 6. Retiring

    @Test("retireDictations changes only ready ones and takes them off the cards")
    func retire() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let dealt = try store.addDictation(try newDictation(child: child, event: 1))
        let waiting = try store.addDictation(try newDictation(child: child, event: 2))
        let served = try store.addDictation(try newDictation(child: child, event: 3))
        let graded = try store.addDictation(try newDictation(child: child, event: 4))
        let kept = try store.addDictation(try newDictation(child: child, event: 5))
        try serve(store, child: child, served, at: 1_796_010_000)
        try serve(store, child: child, graded, at: 1_796_020_000)
        try store.grade(dictation: graded, missed: [2], at: Date(timeIntervalSince1970: 1_796_030_000))
        try store.deal(childID: child, [dealt, kept])

        try store.retireDictations([])
        #expect(try store.cards(childID: child).map(\.id) == [dealt, kept])

        try store.retireDictations([dealt, waiting, served, graded, 999])
        for id in [dealt, waiting] {
            let d = try #require(try store.dictation(id: id))
            #expect(d.status == .retired && d.card == nil && d.servedAt == nil && d.gradedAt == nil)
        }
        let s = try #require(try store.dictation(id: served))
        #expect(s.status == .served && s.servedAt == Date(timeIntervalSince1970: 1_796_010_000))
        let g = try #require(try store.dictation(id: graded))
        #expect(g.status == .graded && g.sites.map(\.missed) == [false, true, false])
        #expect(try store.exposures(childID: child).count == 2)
        // The card of the one not retired stays as dealt.
        #expect(try store.cards(childID: child).map(\.id) == [kept])
        #expect(try store.cards(childID: child).map(\.card) == [2])
        #expect(try store.dictations(childID: child, statuses: [.retired]).map(\.id) == [dealt, waiting])
    }

    // MARK: 7. Tables and constraints

    @Test("dump lists the three new tables")
    func dump() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let id = try store.addDictation(try newDictation(child: child))
        var lines = try store.dump().split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("dictations: ") }.count == 1)
        #expect(lines.filter { $0.hasPrefix("trap_sites: ") }.count == 3)
        #expect(lines.filter { $0.hasPrefix("exposures: ") }.isEmpty)
        try serve(store, child: child, id)
        try store.grade(dictation: id, missed: [1], at: Date(timeIntervalSince1970: 1_796_100_000))
        lines = try store.dump().split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("exposures: ") }.count == 2)
        let head = [SQLValue.integer(id), .integer(child), .text("ev-0123456789ab"), .text("t:1796500000")]
            .map { "\($0)" }.joined(separator: " | ")
        #expect(lines.contains { $0.hasPrefix("dictations: " + head + " | ") })
    }

    @Test("the schema's CHECK and foreign keys refuse inconsistent rows")
    func constraints() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let id = try store.addDictation(try newDictation(child: child))
        let before = try store.dump()
        let bad: [(String, [SQLValue])] = [
            ("UPDATE dictations SET status = 'served' WHERE id = ?", [.integer(id)]),            // no served_at
            ("UPDATE dictations SET status = 'graded', served_at = 1 WHERE id = ?", [.integer(id)]),  // no graded_at
            ("UPDATE dictations SET graded_at = 1 WHERE id = ?", [.integer(id)]),                // ready, graded_at
            ("UPDATE dictations SET status = 'lost' WHERE id = ?", [.integer(id)]),
            ("UPDATE dictations SET card = 4 WHERE id = ?", [.integer(id)]),
            ("UPDATE dictations SET status = 'retired', card = 1 WHERE id = ?", [.integer(id)]),
            ("UPDATE dictations SET event_ref = 'Piscine' WHERE id = ?", [.integer(id)]),
            ("UPDATE dictations SET start_key = '1796500000' WHERE id = ?", [.integer(id)]),
            ("UPDATE dictations SET density = 0 WHERE id = ?", [.integer(id)]),
            ("UPDATE trap_sites SET number = 0 WHERE dictation_id = ? AND number = 1", [.integer(id)]),
            ("UPDATE trap_sites SET missed = 2 WHERE dictation_id = ?", [.integer(id)]),
            ("INSERT INTO trap_sites (dictation_id, number, skill, start_offset, end_offset, word) VALUES (999, 1, 'x', 0, 1, 'a')", []),
            ("INSERT INTO exposures (dictation_id, skill, child_id, graded_at, sites, errors) VALUES (?, 'x', ?, 1, 2, 3)",
             [.integer(id), .integer(child)]),
            ("INSERT INTO exposures (dictation_id, skill, child_id, graded_at, sites, errors) VALUES (?, 'x', ?, 1, 0, 0)",
             [.integer(id), .integer(child)]),
        ]
        for (sql, arguments) in bad {
            #expect(throws: StoreError.self, "\(sql)") { try store.db.execute(sql, arguments) }
        }
        // A second card 1 for the same child.
        let other = try store.addDictation(try newDictation(child: child, event: 2))
        try store.deal(childID: child, [id])
        #expect(throws: StoreError.self) {
            try store.db.execute("UPDATE dictations SET card = 1 WHERE id = ?", [.integer(other)])
        }
        try store.deal(childID: child, [])
        try store.db.execute("DELETE FROM dictations WHERE id = ?", [.integer(other)])
        #expect(try store.dump() == before)
    }

    @Test("addDictation: an unknown child or a zero word count is refused, and nothing is stored")
    func addRefused() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        let foreign = #expect(throws: StateError.self) { try store.addDictation(try newDictation(child: 999)) }
        guard case .store(.sqlite(_, let code, _, _))? = foreign else {
            Issue.record("expected .store(.sqlite), got \(String(describing: foreign))")
            return
        }
        #expect(code == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
        #expect(throws: StateError.self) { try store.addDictation(try newDictation(child: child, aimWords: 0)) }
        #expect(try store.dictations(childID: child).isEmpty)
        #expect(try store.dictations(childID: 999).isEmpty)
        let text = try store.dump()
        #expect(!text.contains("dictations: ") && !text.contains("trap_sites: ") && !text.contains("attempts: "))
    }

    // MARK: 8. Migration

    @Test("a version-2 database upgrades to version 3 on open, keeping its rows")
    func migrationFromVersion2() throws {
        try withTemporaryDatabasePath { path in
            do {
                let db = try Database(path: path)
                #expect(try migrate(db, Array(Schema.migrations.prefix(2))) == [1, 2])
                try db.execute("INSERT INTO children (first_name, gender, grade) VALUES (?, ?, ?)", ["Léa", "f", "CE1"])
                try db.execute("INSERT INTO settings (key, value) VALUES ('tz', ?)", ["Europe/Paris"])
                #expect(try db.schemaVersion() == 2)
                #expect(try db.query("SELECT name FROM sqlite_schema WHERE name = 'dictations'").isEmpty)
            }
            let store = try StateStore(path: path)
            #expect(try store.db.schemaVersion() == Schema.migrations.count)
            #expect(Schema.migrations.map(\.version).contains(3))
            let tables = Set(try store.db.query("SELECT name FROM sqlite_schema WHERE type = 'table'").map { try $0.string("name") })
            #expect(tables.isSuperset(of: ["children", "settings", "dictations", "trap_sites", "exposures", "attempts"]))
            let indexes = Set(try store.db.query("SELECT name FROM sqlite_schema WHERE type = 'index'").map { try $0.string("name") })
            #expect(indexes.isSuperset(of: ["dictations_by_card", "dictations_by_child", "exposures_by_child"]))
            let child = try #require(try store.children().first)
            #expect(child.firstName == "Léa")
            #expect(try store.db.query("SELECT value FROM settings").first?.string("value") == "Europe/Paris")
            let id = try store.addDictation(try newDictation(child: try #require(child.id)))
            #expect(try store.dictation(id: id)?.status == .ready)
            // Opening again applies nothing more.
            #expect(try migrate(store.db, Schema.migrations) == [])
        }
    }

    // MARK: 9. One transaction

    @Test("two attempts with the same number fail with StateError.store and leave no dictation behind")
    func duplicateAttemptNumber() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try addChild(store)
        var d = try newDictation(child: child)
        let attempt = AttemptRecord(number: 1, failure: .format, promptTokens: 1, completionTokens: 1, seconds: 0.1,
                                    finishReason: "stop", removed: [])
        d.attempts = [attempt, attempt]
        let error = #expect(throws: StateError.self) { try store.addDictation(d) }
        guard case .store(.sqlite(_, let code, _, _))? = error else {
            Issue.record("expected .store(.sqlite), got \(String(describing: error))")
            return
        }
        #expect(code == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
        #expect(error?.description.contains(Self.firstName) == false)  // values are never quoted
        #expect(try store.dictations(childID: child).isEmpty)
        let text = try store.dump()
        #expect(!text.contains("dictations: ") && !text.contains("trap_sites: ") && !text.contains("attempts: "))
        #expect(!store.db.isInTransaction)
        // The store is usable afterwards.
        let id = try store.addDictation(try newDictation(child: child))
        #expect(try store.dictation(id: id)?.sites.count == 3)
    }
}
