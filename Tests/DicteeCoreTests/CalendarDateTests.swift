import DicteeCore
import Testing

@Suite("CalendarDate: Gregorian calendar dates")
struct CalendarDateTests {
    @Test("days since the epoch round-trip over 1900-2100")
    func roundTrip() {
        var d = CalendarDate(year: 1900, month: 1, day: 1)
        let first = d.daysSinceEpoch
        for n in 0..<(200 * 366) where d.year < 2100 {
            #expect(d.daysSinceEpoch == first + n)
            #expect(CalendarDate(daysSinceEpoch: d.daysSinceEpoch) == d)
            d = d.adding(days: 1)
        }
    }

    @Test("known dates", arguments: [
        (1970, 1, 1, 0), (2000, 3, 1, 11_017), (2026, 3, 29, 20_541), (1969, 12, 31, -1),
    ])
    func known(_ y: Int, _ m: Int, _ d: Int, _ days: Int) {
        #expect(CalendarDate(year: y, month: m, day: d).daysSinceEpoch == days)
    }

    @Test("validity: no 30 February, leap years by the Gregorian rule", arguments: [
        (2026, 2, 30, false), (2024, 2, 29, true), (2100, 2, 29, false), (2000, 2, 29, true),
        (2026, 4, 31, false), (2026, 13, 1, false), (2026, 0, 1, false), (2026, 12, 31, true),
        (2026, 1, 0, false),
    ])
    func validity(_ y: Int, _ m: Int, _ d: Int, _ valid: Bool) {
        #expect(CalendarDate(year: y, month: m, day: d).isValid == valid)
    }

    @Test("ISO 8601 text and order")
    func text() {
        let a = CalendarDate(year: 2026, month: 3, day: 5)
        #expect(a.description == "2026-03-05")
        #expect(a < CalendarDate(year: 2026, month: 3, day: 6))
        #expect(CalendarDate(year: 2025, month: 12, day: 31) < a)
    }
}
