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

@Suite("ReadWindow: the now at which a start enters the window")
struct ReadWindowEntryTests {
    let paris = try! CalendarZone(identifier: "Europe/Paris")

    @Test("14 days before on the wall clock, across a DST change: the window of that now ends at the start")
    func acrossDST() throws {
        let start = try #require(paris.parseISO8601("2026-04-01T10:00:00+02:00"))
        let now = ReadWindow.now(whenEntering: start, zone: paris.zone)
        #expect(paris.iso8601(.instant(now)) == "2026-03-18T10:00:00+01:00")
        #expect(ReadWindow.around(nowSeconds: now, zone: paris).recurring.upperBound == start)
        #expect(ReadWindow.around(nowSeconds: now + 1, zone: paris).recurring.contains(start))
    }

    @Test("14 days before falls in the spring gap: an hour earlier, never later")
    func inTheGap() throws {
        // 2026-03-29 02:30 does not exist in Paris.
        let start = try #require(paris.parseISO8601("2026-04-12T02:30:00+02:00"))
        let now = ReadWindow.now(whenEntering: start, zone: paris.zone)
        #expect(ReadWindow.around(nowSeconds: now, zone: paris).recurring.upperBound <= start)
        #expect(ReadWindow.around(nowSeconds: now + 3600, zone: paris).recurring.upperBound > start)
    }
}
