import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import Dictation
@testable import Generation
@testable import Household
import Ingest
import Store

/// What the desk hands `CardChoice` (Docs/domain.md §8) on the fixture family (Léa, CE1, and
/// Hugo, CM1, whose activities are named in titles: "piano Léa", "Judo Hugo"): each stored
/// moment's children, end and recurrence, and the child's history (served dictations, with when).
@Suite struct DeskCardsTests {
    func setUp() throws -> (store: StateStore, dir: URL, zone: CalendarZone, lea: Child, hugo: Child) {
        let (job, dir, paths) = try NightlyRunTests().family(model: FixedModel(NightlyRunTests.answer), checker: FixedChecker())
        _ = try job.run()
        let store = try StateStore(path: paths.state)
        let children = try store.children()
        return (store, dir, try CalendarZone(identifier: "Europe/Paris"),
                try #require(children.first { $0.firstName == "Léa" }), try #require(children.first { $0.firstName == "Hugo" }))
    }

    @Test("each child's own activities go to that child only, and each gets one of them as a card")
    func ownMoments() throws {
        let (store, dir, zone, lea, hugo) = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let now = try #require(zone.parseISO8601("2026-11-29T18:00:00+01:00"))
        let forLea = try Desk.situation(of: lea, store, now: now, zone: zone).candidates
        let forHugo = try Desk.situation(of: hugo, store, now: now, zone: zone).candidates
        #expect(forLea.allSatisfy { $0.children.isEmpty || $0.children == [lea.id!] })
        #expect(forHugo.allSatisfy { $0.children.isEmpty || $0.children == [hugo.id!] })
        #expect(forLea.contains { $0.moment.phrase == "le cours de piano" && $0.children == [lea.id!] })
        #expect(!forLea.contains { $0.moment.phrase == "le cours de judo" })
        #expect(forHugo.contains { $0.moment.phrase == "le cours de judo" && $0.children == [hugo.id!] })
        #expect(!forHugo.contains { $0.moment.phrase == "le cours de piano" })
        // Her Saturday, not her brother's: each deal holds one of the child's own moments.
        let leaCards = forLea.prefix(CardChoice.count), hugoCards = forHugo.prefix(CardChoice.count)
        #expect(leaCards.contains { $0.children == [lea.id!] })
        #expect(hugoCards.contains { $0.children == [hugo.id!] })
        #expect(Set(leaCards.map(\.moment.phrase)) != Set(hugoCards.map(\.moment.phrase)))
    }

    @Test("a holiday going on has a card; once the child had it, it is not offered again, and her brother keeps it")
    func multiDayAndHistory() throws {
        let (store, dir, zone, lea, hugo) = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The Toussaint holidays (all day, 17 October to 2 November) are going on.
        let now = try #require(zone.parseISO8601("2026-10-25T18:00:00+02:00"))
        let before = try Desk.situation(of: lea, store, now: now, zone: zone)
        let holidays = try #require(before.candidates.first { $0.moment.phrase == "les vacances" && $0.isMultiDay })
        #expect(holidays.startSeconds < now && holidays.endSeconds > now && !holidays.isRecurring)
        #expect(before.candidates.prefix(CardChoice.count).contains(holidays), "a multi-day moment going on has a card")

        let session = GenerationSession(model: nil, checker: FixedChecker(), library: try Library.bundled())
        let cards = try Desk.cards(for: lea, store, now: now, zone: zone, createdAt: Date(timeIntervalSince1970: TimeInterval(now)),
                                   makeSession: { session })
        let card = try #require(cards.first { $0.occurrenceKey == holidays.key }?.card)
        guard case .served = try Desk.pick(lea, card: card, store, at: Date(timeIntervalSince1970: TimeInterval(now))) else {
            Issue.record("the holidays' card was not served")
            return
        }
        let after = try Desk.situation(of: lea, store, now: now + 3_600, zone: zone)
        #expect(!after.candidates.contains { $0.key == holidays.key })
        #expect(try Desk.situation(of: hugo, store, now: now + 3_600, zone: zone).candidates.contains(holidays))
    }

    @Test("a weekly activity the child had is held back for 14 days (the series, not only the occurrence)")
    func seriesGap() throws {
        let (store, dir, zone, lea, _) = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let now = try #require(zone.parseISO8601("2026-11-29T18:00:00+01:00"))
        let session = GenerationSession(model: nil, checker: FixedChecker(), library: try Library.bundled())
        let cards = try Desk.cards(for: lea, store, now: now, zone: zone, createdAt: Date(timeIntervalSince1970: TimeInterval(now)),
                                   makeSession: { session })
        let piano = try #require(cards.first { $0.moment == "le cours de piano" })
        guard case .served = try Desk.pick(lea, card: try #require(piano.card), store, at: Date(timeIntervalSince1970: TimeInterval(now))) else {
            Issue.record("the piano card was not served")
            return
        }
        // A week later the next lesson is stored (ingest on the 6th December), yet not offered.
        let later = try #require(zone.parseISO8601("2026-12-06T18:00:00+01:00"))
        let after = try Desk.situation(of: lea, store, now: later, zone: zone)
        #expect(!after.candidates.contains { $0.key.event == piano.occurrenceKey.event })
    }
}

/// A card's text is written for a day: picked after its moment's day is told otherwise, it is
/// set aside and the cards are dealt again, with a text told from the new day.
@Suite struct DayChangedTests {
    @Test func aComingCardPickedAfterItsMomentIsSetAsideAndWrittenAgainInThePast() throws {
        let (store, dir, zone, lea, _) = try DeskCardsTests().setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let thursday = try #require(zone.parseISO8601("2026-11-26T18:00:00+01:00"))
        let library = try Library.bundled()
        let session = GenerationSession(model: nil, checker: FixedChecker(), library: library)
        let cards = try Desk.cards(for: lea, store, now: thursday, zone: zone, createdAt: Date(timeIntervalSince1970: TimeInterval(thursday)),
                                   makeSession: { session })
        let moments = Dictionary(try Desk.cardMoments(store, zone: zone).map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        guard let coming = cards.first(where: { (moments[$0.occurrenceKey]?.startSeconds ?? 0) > thursday }),
              let moment = moments[coming.occurrenceKey] else {
            Issue.record("the fixture has no coming card on Thursday 26 November")
            return
        }
        let later = moment.startSeconds + 2 * 86_400
        let outcome = try Desk.pick(lea, card: try #require(coming.card), store, at: Date(timeIntervalSince1970: TimeInterval(later)), zone: zone)
        guard case .dayChanged = outcome else {
            Issue.record("a card written before its moment was served after it: \(outcome)")
            return
        }
        #expect(try store.dictations(childID: lea.id!, statuses: [.retired]).contains { $0.id == coming.id })
        // Dealt again on that day: a text about the same moment, if offered, is told in the past.
        let again = try Desk.cards(for: lea, store, now: later, zone: zone, createdAt: Date(timeIntervalSince1970: TimeInterval(later)),
                                   makeSession: { session })
        if let card = again.first(where: { $0.occurrenceKey == coming.occurrenceKey }), let id = Desk.libraryTextID(card) {
            #expect(library.texts.first { $0.id == id }?.time.suits(.past) == true)
        }
    }
}
