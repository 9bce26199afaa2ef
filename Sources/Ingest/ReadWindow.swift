import DicteeCore
import Foundation

/// The asymmetric read window: which occurrences `dictee` looks at.
///
/// - one-off events are kept when their start is in [now - 2 years, now + 14 days);
/// - occurrences of recurring series (RRULE or RDATE, their overrides, orphan overrides) are kept when
///   their start is in [now - 7 days, now + 14 days).
///
/// A child remembers a trip for years; a judo lesson from eighteen months ago is noise. Days and
/// years are counted on the wall clock of the user's zone (now - 7 days keeps the time of day, even
/// across a DST change; 29 February minus 2 years is 28 February). An all-day occurrence starts at
/// local midnight of its date. Bounds are instants in seconds since the epoch; intervals are
/// half-open.
public struct ReadWindow: Hashable, Sendable {
    /// Start instants kept for one-off events.
    public var oneOff: Range<Int64>
    /// Start instants kept for occurrences of recurring series.
    public var recurring: Range<Int64>

    /// Creates a window from explicit bounds (tests).
    public init(oneOff: Range<Int64>, recurring: Range<Int64>) {
        self.oneOff = oneOff
        self.recurring = recurring
    }

    /// Days kept before now for recurring occurrences.
    public static let recurringPastDays = 7
    /// Years kept before now for one-off events.
    public static let oneOffPastYears = 2
    /// Days kept after now for both.
    public static let futureDays = 14

    /// The window around `now` in `zone`.
    public static func around(now: Date, zone: CalendarZone) -> ReadWindow {
        around(nowSeconds: Int64(now.timeIntervalSince1970.rounded(.down)), zone: zone)
    }

    /// The window around `nowSeconds` (seconds since the epoch) in `zone`.
    public static func around(nowSeconds: Int64, zone: CalendarZone) -> ReadWindow {
        let z = zone.zone
        let local = z.local(at: nowSeconds)
        var yearsBack = local
        yearsBack.date.year -= oneOffPastYears
        yearsBack.date.day = min(
            yearsBack.date.day,
            CalendarDate.daysInMonth(yearsBack.date.month, year: yearsBack.date.year))
        let end = z.instant(of: local.adding(days: futureDays))
        return ReadWindow(
            oneOff: z.instant(of: yearsBack)..<end,
            recurring: z.instant(of: local.adding(days: -recurringPastDays))..<end)
    }

    /// The "now" (seconds since the epoch) at which an occurrence starting at `start` enters the
    /// window of `around(nowSeconds:zone:)` through its future end: `start` minus `futureDays`
    /// days on the wall clock of `zone`, so that the window of that now ends exactly at `start`
    /// (half-open: the occurrence is inside an instant later). Never later than that instant.
    static func now(whenEntering start: Int64, zone: Zone) -> Int64 {
        var now = zone.instant(of: zone.local(at: start).adding(days: -futureDays))
        // A DST gap futureDays before `start` reads the wall clock an hour off: step back until
        // the window of `now` ends at or before `start`.
        for _ in 0..<48 where zone.instant(of: zone.local(at: now).adding(days: futureDays)) > start {
            now -= 3600
        }
        return now
    }
}
