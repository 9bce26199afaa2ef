import DicteeCore
import Testing
@testable import Ingest

@Suite("ReadWindow: [now - 2 years, now + 14 days) and [now - 7 days, now + 14 days)")
struct ReadWindowTests {
    let paris = try! CalendarZone(identifier: "Europe/Paris")

    @Test("bounds keep the wall-clock time of day across a DST change")
    func acrossDST() throws {
        let now = try #require(paris.parseISO8601("2026-03-25T12:00:00+01:00"))
        let w = ReadWindow.around(nowSeconds: now, zone: paris)
        #expect(paris.iso8601(.instant(w.recurring.lowerBound)) == "2026-03-18T12:00:00+01:00")
        #expect(paris.iso8601(.instant(w.recurring.upperBound)) == "2026-04-08T12:00:00+02:00")
        #expect(paris.iso8601(.instant(w.oneOff.lowerBound)) == "2024-03-25T12:00:00+01:00")
        #expect(w.oneOff.upperBound == w.recurring.upperBound)
    }

    @Test("29 February minus two years is 28 February")
    func leapDay() throws {
        let now = try #require(paris.parseISO8601("2028-02-29T09:00:00+01:00"))
        let w = ReadWindow.around(nowSeconds: now, zone: paris)
        #expect(paris.iso8601(.instant(w.oneOff.lowerBound)) == "2026-02-28T09:00:00+01:00")
    }

    @Test("the window follows the user's zone: the same instant, other bounds in Auckland")
    func otherZone() throws {
        let auckland = try CalendarZone(identifier: "Pacific/Auckland")
        let now = try #require(paris.parseISO8601("2026-11-29T18:00:00+01:00"))
        let w = ReadWindow.around(nowSeconds: now, zone: auckland)
        #expect(auckland.iso8601(.instant(w.recurring.lowerBound)) == "2026-11-23T06:00:00+13:00")
        #expect(auckland.iso8601(.instant(w.recurring.upperBound)) == "2026-12-14T06:00:00+13:00")
    }

    @Test("the asymmetric window: recurring occurrences look back 7 days, one-off events 2 years")
    func asymmetric() {
        #expect(ReadWindow.recurringPastDays == 7)
        #expect(ReadWindow.oneOffPastYears == 2)
        #expect(ReadWindow.futureDays == 14)
    }
}
