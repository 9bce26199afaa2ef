import Foundation

/// A calendar date without a time or a zone: the value of an RFC 5545 `DATE` (section 3.3.4).
///
/// All-day events are kept as calendar dates end to end, never as midnights shifted through UTC, so
/// "the 20th" stays the 20th on every machine whatever its zone.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Proleptic Gregorian year, e.g. 2026.
    public var year: Int
    /// Month, 1 (January) to 12.
    public var month: Int
    /// Day of the month, 1 to 31.
    public var day: Int

    /// Creates a date from its parts; no validation (see ``isValid``).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the parts name a real day of the Gregorian calendar (no 30 February).
    public var isValid: Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        return day <= CalendarDate.daysInMonth(month, year: year)
    }

    /// Number of days in `month` (1-12) of `year`, Gregorian leap rules.
    public static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before), by the civil-from-days algorithm.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` days since 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// This date moved by `days` calendar days (negative goes back).
    public func adding(days: Int) -> CalendarDate {
        CalendarDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// ISO 8601 calendar date, `YYYY-MM-DD`.
    public var description: String {
        let y = String(year).leftPadded(to: 4)
        return "\(y)-\(String(month).leftPadded(to: 2))-\(String(day).leftPadded(to: 2))"
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

extension String {
    /// Left-pads with zeros to `width` characters (numbers only; used by date formatting).
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
