import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import Dictation
@testable import Generation
@testable import Household
import Ingest
import Store

/// What the desk hands `CardChoice` (Docs/domain.md §8): each stored moment's end, recurrence and
/// children, and the child's history (served dictations, with when), on the fixture family.
@Suite struct DeskCardsTests {
    @Test func theDeskPassesEndsRecurrenceAndTheChildsHistory() throws {
        let (job, dir, paths) = try NightlyRunTests().family(model: FixedModel(NightlyRunTests.answer), checker: FixedChecker())
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try job.run()
        let store = try StateStore(path: paths.state)
        let zone = try CalendarZone(identifier: "Europe/Paris")
        let now = try #require(zone.parseISO8601("2026-11-29T18:00:00+01:00"))
        let lea = try #require(try store.children().first { $0.firstName == "Léa" })

        // The fortnightly week-end (all-day, Friday to Monday) is going on: multi-day, recurring.
        let before = try Desk.situation(of: lea, store, now: now, zone: zone)
        let weekEnd = try #require(before.candidates.first { $0.moment.phrase == "le week-end" })
        #expect(weekEnd.isRecurring && weekEnd.isMultiDay && weekEnd.endSeconds > now && weekEnd.startSeconds < now)
        #expect(before.candidates.prefix(CardChoice.count).contains(weekEnd), "a multi-day moment going on has a card")

        // Léa picks it: neither that occurrence nor its series comes back within 14 days.
        let session = GenerationSession(model: nil, checker: FixedChecker(), library: try Library.bundled())
        let cards = try Desk.cards(for: lea, store, now: now, zone: zone, createdAt: Date(timeIntervalSince1970: TimeInterval(now)),
                                   makeSession: { session })
        let card = try #require(cards.first { $0.occurrenceKey == weekEnd.key }?.card)
        guard case .served = try Desk.pick(lea, card: card, store, at: Date(timeIntervalSince1970: TimeInterval(now))) else {
            Issue.record("the week-end's card was not served")
            return
        }
        let after = try Desk.situation(of: lea, store, now: now + 3_600, zone: zone)
        #expect(!after.candidates.contains { $0.key.event == weekEnd.key.event })
        // Hugo did not have it: still his.
        let hugo = try #require(try store.children().first { $0.firstName == "Hugo" })
        #expect(try Desk.situation(of: hugo, store, now: now + 3_600, zone: zone).candidates.contains(weekEnd))
    }
}
