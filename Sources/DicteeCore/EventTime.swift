import Foundation

/// When an occurrence starts or ends: a calendar date (all-day, RFC 5545 `VALUE=DATE`) or an
/// exact instant (a `DATE-TIME` already resolved through its time zone).
public enum EventTime: Hashable, Sendable {
    /// An all-day boundary. For an end, the date is exclusive (RFC 5545 section 3.6.1).
    case date(CalendarDate)
    /// An instant, in whole seconds since 1970-01-01T00:00:00Z.
    case instant(Int64)

    /// The instant in seconds since the epoch, or `nil` for a date.
    public var instant: Int64? {
        if case .instant(let s) = self { return s }
        return nil
    }

    /// The calendar date, or `nil` for an instant.
    public var date: CalendarDate? {
        if case .date(let d) = self { return d }
        return nil
    }
}
