import DicteeCore

/// A date or date-time resolved through its zone: the wall-clock fields, the zone they are read in,
/// and the instant (for a date: local midnight in the zone).
struct ResolvedTime {
    var local: LocalDateTime
    var isDate: Bool
    var zone: Zone
    var instant: Int64
}

/// How an event's end is given (RFC 5545 section 3.6.1).
enum EndSpec {
    /// `DTEND`.
    case time(ResolvedTime)
    /// `DURATION`.
    case duration(DurationValue)
    /// Neither: a DATE start lasts one day, a DATE-TIME start lasts zero seconds.
    case none
}

/// One VEVENT with everything resolved, independent of the libical document it came from.
/// Sanitize stage: missing DTEND, bad TZID, impossible dates are fixed or reported here.
struct EventRecord {
    var uid: String
    var summary: String
    var location: String
    var eventDescription: String
    var source: SourceLocation
    var sequence: Int
    var isCancelled: Bool
    var start: ResolvedTime
    var end: EndSpec
    var rules: [RecurrenceRule]
    var rdates: [(start: ResolvedTime, end: EndSpec?)]
    var exdates: [ResolvedTime]
    var recurrenceID: ResolvedTime?

    /// A series: it has an RRULE or an RDATE (RFC 5545 section 3.8.5).
    var isSeries: Bool { !rules.isEmpty || !rdates.isEmpty }

    /// The end of an instance starting at `start` (an instance of this event, or the event itself).
    ///
    /// With `period` (an RDATE `VALUE=PERIOD`), the period's own end or duration applies to that
    /// instance. Otherwise the event's DTEND gives every instance the exact duration
    /// DTEND - DTSTART (RFC 5545 section 3.8.5.3), and a DURATION is applied per instance with weeks
    /// and days nominal (same wall-clock time) and the rest exact (section 3.3.6). All-day instances
    /// last at least one day; a timed end is never before its start.
    func end(ofInstanceAt start: ResolvedTime, period: EndSpec? = nil) -> EventTime {
        if start.isDate {
            var days = 1
            switch period ?? end {
            case .time(let e):
                let from = period == nil ? self.start.local.date : start.local.date
                days = e.local.date.daysSinceEpoch - from.daysSinceEpoch
            case .duration(let d):
                days = d.days
            case .none:
                days = 1
            }
            return .date(start.local.date.adding(days: max(days, 1)))
        }
        var endInstant = start.instant
        switch period ?? end {
        case .time(let e):
            endInstant = period == nil ? start.instant + (e.instant - self.start.instant) : e.instant
        case .duration(let d):
            let shifted = d.days == 0
                ? start.instant : start.zone.instant(of: start.local.adding(days: d.days))
            endInstant = shifted + Int64(d.seconds)
        case .none:
            endInstant = start.instant
        }
        return .instant(max(endInstant, start.instant))
    }
}
