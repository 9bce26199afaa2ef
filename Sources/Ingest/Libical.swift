// The only file that calls libical (Debian libical-dev 3.0.x). Everything else in Ingest works on
// the Swift values this file returns.
//
// Ownership rules of libical 3 (libical's own documentation, "memory" notes in icalmemory.h):
// - You free what `*_new`, `*_clone` and `*_r` functions return (`icalcomponent_free`,
//   `icaltimezone_free(zone, 1)`, `icalrecur_iterator_free`, `icalmemory_free_buffer`).
// - Strings returned by getters such as `icalproperty_get_summary` point into the property or into
//   libical's ring buffer, which is reused: copy them into a Swift `String` at once.
// - Built-in time zones (`icaltimezone_get_builtin_timezone`, read from the system's tzdata) belong
//   to libical for the life of the process; never free them.
// - Parse problems do not stop the parser: they arrive as `X-LIC-ERROR` properties on the component
//   that held the bad line (the bad property itself is removed). `LibicalEvent.problems` harvests them.
// No C pointer leaves this file: the classes below free what they own in `deinit`.

internal import CLibical
import DicteeCore
import Foundation

// MARK: - Documents

/// The children of `component` of one kind, collected first: libical keeps a single internal cursor
/// per component, so walking it while something else walks it too (a VTIMEZONE lookup during the
/// VEVENT loop) would silently skip components.
private func children(of component: OpaquePointer, _ kind: icalcomponent_kind) -> [OpaquePointer] {
    var result: [OpaquePointer] = []
    var child = icalcomponent_get_first_component(component, kind)
    while let c = child {
        result.append(c)
        child = icalcomponent_get_next_component(component, kind)
    }
    return result
}

/// A parsed .ics buffer: libical's component tree, freed on `deinit`.
final class LibicalDocument {
    private let root: OpaquePointer

    /// Parses `bytes` (UTF-8 calendar text, BOM already removed). Returns `nil` when libical finds
    /// no component at all. Time and memory are linear in the size of `bytes`, also for a line of
    /// megabytes (`dictee_parse_bytes` in the shim: libical's own string reader rescans a long
    /// line for every kilobyte it hands over).
    init?(bytes: UnsafeRawBufferPointer) {
        // A NUL inside the data ends it early, as in C (the shim stops there).
        guard let base = bytes.baseAddress,
              let parsed = dictee_parse_bytes(base.assumingMemoryBound(to: CChar.self), bytes.count)
        else { return nil }
        root = parsed
    }

    deinit { icalcomponent_free(root) }

    /// Calls `body` with each VCALENDAR in file order. A file holding a bare VEVENT (no VCALENDAR
    /// around it) is presented as one calendar holding that event.
    func forEachCalendar(_ body: (LibicalCalendar) -> Void) {
        switch icalcomponent_isa(root) {
        case ICAL_XROOT_COMPONENT:
            for c in children(of: root, ICAL_ANY_COMPONENT) {
                body(LibicalCalendar(component: c))
            }
        default:
            body(LibicalCalendar(component: root))
        }
    }
}

/// One VCALENDAR (or a bare component) inside a `LibicalDocument`. Valid while the document lives.
struct LibicalCalendar {
    fileprivate let component: OpaquePointer

    /// True when this is a VCALENDAR; false for a bare VEVENT or any other stray component.
    var isCalendar: Bool { icalcomponent_isa(component) == ICAL_VCALENDAR_COMPONENT }

    /// True when this is a bare VEVENT found outside any VCALENDAR.
    var isBareEvent: Bool { icalcomponent_isa(component) == ICAL_VEVENT_COMPONENT }

    /// The `X-WR-TIMEZONE` value (Google, Apple), used for floating times.
    var wrTimezone: String? {
        var property = icalcomponent_get_first_property(component, ICAL_X_PROPERTY)
        while let p = property {
            if let name = icalproperty_get_x_name(p),
                String(cString: name).uppercased() == "X-WR-TIMEZONE",
                let value = icalproperty_get_x(p)
            {
                let text = String(cString: value).trimmingCharacters(in: .whitespaces)
                return text.isEmpty ? nil : text
            }
            property = icalcomponent_get_next_property(component, ICAL_X_PROPERTY)
        }
        return nil
    }

    /// The VTIMEZONE of this calendar whose TZID is `tzid`, copied into a zone that outlives the
    /// document; `nil` when the calendar defines no such zone.
    func definedZone(tzid: String) -> Zone? {
        guard isCalendar else { return nil }
        for c in children(of: component, ICAL_VTIMEZONE_COMPONENT) {
            if let idProperty = icalcomponent_get_first_property(c, ICAL_TZID_PROPERTY),
                let id = icalproperty_get_tzid(idProperty), String(cString: id) == tzid
            {
                guard Self.isUsableTimezone(c) else { return nil }
                guard let copy = icalcomponent_new_clone(c), let zone = icaltimezone_new() else {
                    return nil
                }
                guard icaltimezone_set_component(zone, copy) != 0 else {
                    icaltimezone_free(zone, 1)
                    icalcomponent_free(copy)
                    return nil
                }
                return Zone(owning: zone, name: tzid)
            }
        }
        return nil
    }

    /// A VTIMEZONE libical can use safely: at least one STANDARD or DAYLIGHT part, each with a
    /// readable TZOFFSETTO under 18 hours and, when it recurs, a YEARLY or MONTHLY rule (libical
    /// expands a zone's rules eagerly: a MINUTELY one never ends).
    private static func isUsableTimezone(_ zone: OpaquePointer) -> Bool {
        let parts = children(of: zone, ICAL_XSTANDARD_COMPONENT) + children(of: zone, ICAL_XDAYLIGHT_COMPONENT)
        guard !parts.isEmpty else { return false }
        for part in parts {
            // A value libical could not read leaves an X-LIC-ERROR (and sometimes a zero offset).
            guard icalcomponent_get_first_property(part, ICAL_XLICERROR_PROPERTY) == nil,
                let offset = icalcomponent_get_first_property(part, ICAL_TZOFFSETTO_PROPERTY),
                abs(Int(icalproperty_get_tzoffsetto(offset))) < 18 * 3600,
                icalcomponent_get_first_property(part, ICAL_DTSTART_PROPERTY) != nil
            else { return false }
            var rule = icalcomponent_get_first_property(part, ICAL_RRULE_PROPERTY)
            while let r = rule {
                let freq = icalproperty_get_rrule(r).freq
                guard freq == ICAL_YEARLY_RECURRENCE || freq == ICAL_MONTHLY_RECURRENCE else { return false }
                rule = icalcomponent_get_next_property(part, ICAL_RRULE_PROPERTY)
            }
        }
        return true
    }

    /// Calls `body` with each VEVENT in file order.
    func forEachEvent(_ body: (LibicalEvent) -> Void) {
        if isBareEvent {
            body(LibicalEvent(component: component))
            return
        }
        for c in children(of: component, ICAL_VEVENT_COMPONENT) {
            body(LibicalEvent(component: c))
        }
    }
}

// MARK: - Events

/// A date or date-time property value as written: wall-clock fields plus how to read them.
struct PropertyTime: Hashable {
    /// The fields as written (time fields are zero for a DATE).
    var local: LocalDateTime
    /// `VALUE=DATE`.
    var isDate: Bool
    /// Written with a trailing `Z`.
    var isUTC: Bool
    /// The `TZID` parameter, if any (quotes removed).
    var tzid: String?
}

/// An RFC 5545 DURATION (section 3.3.6): weeks and days are nominal, the rest is exact.
struct DurationValue: Hashable {
    /// Nominal days (weeks counted as 7 days), signed.
    var days: Int
    /// Exact seconds (hours, minutes, seconds), signed.
    var seconds: Int
}

/// One RDATE value: a date, a date-time, or a period with its own end.
struct RDateValue: Hashable {
    var start: PropertyTime
    /// For `VALUE=PERIOD`: the explicit end, or the duration from the start.
    var periodEnd: PropertyTime?
    var periodDuration: DurationValue?
}

/// A problem libical reported on an event (an `X-LIC-ERROR` property).
struct LibicalProblem: Hashable {
    /// The property the problem is about (upper case), when the message names an RFC 5545 VEVENT
    /// property. Other names (X- properties, anything the file made up) are dropped: this value
    /// is printed in warnings, and a made-up name could carry calendar text.
    var property: String?
    /// The bad value, when the message quotes it.
    var value: String?
    /// libical's message (English).
    var message: String
}

/// A parsed RRULE (RFC 5545 section 3.3.10), copied out of the document.
struct RecurrenceRule {
    fileprivate var raw: icalrecurrencetype
    /// `RSCALE` (RFC 7529), upper case, copied out of the property; `nil` when absent.
    var rscale: String?

    /// `FREQ`, upper case (`WEEKLY`...).
    var frequency: Frequency {
        switch raw.freq {
        case ICAL_SECONDLY_RECURRENCE: return .secondly
        case ICAL_MINUTELY_RECURRENCE: return .minutely
        case ICAL_HOURLY_RECURRENCE: return .hourly
        case ICAL_DAILY_RECURRENCE: return .daily
        case ICAL_WEEKLY_RECURRENCE: return .weekly
        case ICAL_MONTHLY_RECURRENCE: return .monthly
        case ICAL_YEARLY_RECURRENCE: return .yearly
        default: return .none
        }
    }

    enum Frequency: Int, Comparable {
        case none = 0, secondly, minutely, hourly, daily, weekly, monthly, yearly
        static func < (a: Frequency, b: Frequency) -> Bool { a.rawValue < b.rawValue }
    }

    /// `COUNT`, or 0 when absent.
    var count: Int { Int(raw.count) }

    /// `INTERVAL` (at least 1 when valid).
    var interval: Int { Int(raw.interval) }

    /// `UNTIL`, or `nil` when absent.
    var until: PropertyTime? {
        if icaltime_is_null_time(raw.until) != 0 { return nil }
        return PropertyTime(raw.until, tzid: nil)
    }

    /// The same rule without its UNTIL part (the caller applies UNTIL itself, inclusively, by
    /// instant: libical 3.0 compares a DATE UNTIL against a DATE-TIME start by UTC fields).
    var withoutUntil: RecurrenceRule {
        var copy = self
        copy.raw.until = icaltime_null_time()
        return copy
    }

    /// Whether the rule uses BYDAY or a coarser BY* part (month day, year day, week number, month).
    var usesByDayOrCoarser: Bool {
        let parts = Int(withUnsafePointer(to: raw) { dictee_rrule_by_parts($0) })
        let coarse = Int(DICTEE_BY_DAY | DICTEE_BY_MONTH_DAY
            | DICTEE_BY_YEAR_DAY | DICTEE_BY_WEEK_NO | DICTEE_BY_MONTH)
        return parts & coarse != 0
    }

    /// Whether any BY* part is used.
    var usesAnyByPart: Bool {
        withUnsafePointer(to: raw) { dictee_rrule_by_parts($0) } != 0
    }

    /// BYWEEKNO without BYDAY: valid RFC 5545, but libical 3.0's iterator crashes or loops on it.
    var usesWeekNumberWithoutDay: Bool {
        let parts = Int(withUnsafePointer(to: raw) { dictee_rrule_by_parts($0) })
        return parts & Int(DICTEE_BY_WEEK_NO) != 0 && parts & Int(DICTEE_BY_DAY) == 0
    }

    /// Whether a BYDAY value carries an ordinal (`1MO`, `-1TH`): RFC 5545 allows it only with
    /// FREQ=MONTHLY or YEARLY.
    var usesOrdinalDay: Bool {
        withUnsafePointer(to: raw) { dictee_rrule_has_ordinal_day($0) } != 0
    }

    /// For a rule with COUNT: at most how many days after DTSTART (`start`, a date as written)
    /// its last instance falls, when every FREQ period after DTSTART's own surely holds an
    /// instance, so that COUNT periods more hold COUNT instances (RFC 5545 3.3.10: COUNT counts
    /// from DTSTART). Known for the shapes family calendars use: DAILY and YEARLY alone (not from
    /// 29 February), WEEKLY with or without plain BYDAY days, MONTHLY alone (from day 1 to 28),
    /// with BYMONTHDAY days 1 to 28 or with BYDAY days (every, 1st to 4th, or last); `nil` for
    /// anything else. Lets a series that ended years ago be passed over without walking it.
    func countSpanDays(from start: CalendarDate) -> Int? {
        guard count > 0, interval >= 1 else { return nil }
        let parts = Int(withUnsafePointer(to: raw) { dictee_rrule_by_parts($0) })
        let periods = (count + 1) * interval + 1
        switch frequency {
        case .daily:
            return parts == 0 ? periods : nil
        case .weekly:
            return parts & ~Int(DICTEE_BY_DAY) == 0 && !usesOrdinalDay ? periods * 7 : nil
        case .monthly:
            switch parts {
            case 0:
                guard start.day <= 28 else { return nil }
            case Int(DICTEE_BY_MONTH_DAY):
                guard Self.values(raw.by_month_day).allSatisfy({ (1...28).contains($0) }) else { return nil }
            case Int(DICTEE_BY_DAY):
                guard Self.values(raw.by_day).allSatisfy({
                    (-1...4).contains(icalrecurrencetype_day_position($0))
                }) else { return nil }
            default:
                return nil
            }
            return periods * 31
        case .yearly:
            return parts == 0 && !(start.month == 2 && start.day == 29) ? periods * 366 : nil
        default:
            return nil
        }
    }

    /// The values of one of libical's BY arrays, up to its end marker.
    private static func values<T>(_ array: T) -> [Int16] {
        withUnsafeBytes(of: array) { raw in
            var found: [Int16] = []
            for value in raw.bindMemory(to: Int16.self) {
                if value == Int16(ICAL_RECURRENCE_ARRAY_MAX.rawValue) { break }
                found.append(value)
            }
            return found
        }
    }
}

/// One VEVENT inside a `LibicalDocument`. Valid while the document lives; every getter copies.
struct LibicalEvent {
    fileprivate let component: OpaquePointer

    private func text(_ kind: icalproperty_kind) -> String? {
        guard let p = icalcomponent_get_first_property(component, kind),
            let value = icalproperty_get_value(p)
        else { return nil }
        // TEXT values come back unescaped (\, \; \n \N \\) by libical's value parser.
        guard let s = icalvalue_get_text(value) else { return nil }
        return String(cString: s)
    }

    /// `UID`, or `nil` when missing.
    var uid: String? { text(ICAL_UID_PROPERTY) }
    /// `SUMMARY`, unescaped, or `nil` when missing.
    var summary: String? { text(ICAL_SUMMARY_PROPERTY) }
    /// `LOCATION`, unescaped, or `nil` when missing.
    var location: String? { text(ICAL_LOCATION_PROPERTY) }
    /// `DESCRIPTION`, unescaped, or `nil` when missing.
    var eventDescription: String? { text(ICAL_DESCRIPTION_PROPERTY) }

    /// `STATUS:CANCELLED`.
    var isCancelled: Bool {
        guard let p = icalcomponent_get_first_property(component, ICAL_STATUS_PROPERTY) else {
            return false
        }
        return icalproperty_get_status(p) == ICAL_STATUS_CANCELLED
    }

    /// `SEQUENCE`, 0 when missing.
    var sequence: Int {
        guard let p = icalcomponent_get_first_property(component, ICAL_SEQUENCE_PROPERTY) else {
            return 0
        }
        return Int(icalproperty_get_sequence(p))
    }

    private func time(_ kind: icalproperty_kind) -> PropertyTime? {
        guard let p = icalcomponent_get_first_property(component, kind),
            let value = icalproperty_get_value(p)
        else { return nil }
        let kindOfValue = icalvalue_isa(value)
        guard kindOfValue == ICAL_DATE_VALUE || kindOfValue == ICAL_DATETIME_VALUE else {
            return nil
        }
        return PropertyTime(icalvalue_get_datetime(value), tzid: tzid(of: p))
    }

    /// `DTSTART`.
    var dtstart: PropertyTime? { time(ICAL_DTSTART_PROPERTY) }
    /// `DTEND`.
    var dtend: PropertyTime? { time(ICAL_DTEND_PROPERTY) }
    /// `RECURRENCE-ID`.
    var recurrenceID: PropertyTime? { time(ICAL_RECURRENCEID_PROPERTY) }

    /// Whether the event has a `DURATION` property at all (readable or not).
    var hasDuration: Bool { icalcomponent_get_first_property(component, ICAL_DURATION_PROPERTY) != nil }

    /// The `DURATION` value as written, copied out of libical's ring buffer (only checked, never
    /// printed: it comes from the file).
    var durationText: String? {
        guard let p = icalcomponent_get_first_property(component, ICAL_DURATION_PROPERTY),
              let s = icalproperty_get_value_as_string(p) else { return nil }
        return String(cString: s)
    }

    /// `DURATION`, or `nil` when missing or unreadable.
    var duration: DurationValue? {
        guard let p = icalcomponent_get_first_property(component, ICAL_DURATION_PROPERTY) else {
            return nil
        }
        let d = icalproperty_get_duration(p)
        if icaldurationtype_is_bad_duration(d) != 0 { return nil }
        return DurationValue(d)
    }

    /// Every `RRULE` that libical could read (a series normally has one).
    var rrules: [RecurrenceRule] {
        var rules: [RecurrenceRule] = []
        var p = icalcomponent_get_first_property(component, ICAL_RRULE_PROPERTY)
        while let property = p {
            var raw = icalproperty_get_rrule(property)
            // RSCALE points into the property: copied, then cleared (the reader refuses a
            // non-Gregorian scale rather than expanding it as Gregorian).
            let rscale = raw.rscale.map { String(cString: $0).uppercased() }
            raw.rscale = nil
            rules.append(RecurrenceRule(raw: raw, rscale: rscale))
            p = icalcomponent_get_next_property(component, ICAL_RRULE_PROPERTY)
        }
        return rules
    }

    /// Every `RDATE` value (libical splits comma-separated lists into one property per value).
    var rdates: [RDateValue] {
        var values: [RDateValue] = []
        var p = icalcomponent_get_first_property(component, ICAL_RDATE_PROPERTY)
        while let property = p {
            let zoneID = tzid(of: property)
            let v = icalproperty_get_rdate(property)
            if icalperiodtype_is_null_period(v.period) == 0 {
                let start = PropertyTime(v.period.start, tzid: zoneID)
                if icaltime_is_null_time(v.period.end) == 0 {
                    values.append(RDateValue(
                        start: start, periodEnd: PropertyTime(v.period.end, tzid: zoneID),
                        periodDuration: nil))
                } else {
                    values.append(RDateValue(
                        start: start, periodEnd: nil, periodDuration: DurationValue(v.period.duration)))
                }
            } else if icaltime_is_null_time(v.time) == 0 {
                values.append(RDateValue(
                    start: PropertyTime(v.time, tzid: zoneID), periodEnd: nil, periodDuration: nil))
            }
            p = icalcomponent_get_next_property(component, ICAL_RDATE_PROPERTY)
        }
        return values
    }

    /// Every `EXDATE` value.
    var exdates: [PropertyTime] {
        var values: [PropertyTime] = []
        var p = icalcomponent_get_first_property(component, ICAL_EXDATE_PROPERTY)
        while let property = p {
            let t = icalproperty_get_exdate(property)
            if icaltime_is_null_time(t) == 0 {
                values.append(PropertyTime(t, tzid: tzid(of: property)))
            }
            p = icalcomponent_get_next_property(component, ICAL_EXDATE_PROPERTY)
        }
        return values
    }

    /// The problems libical attached to this event (`X-LIC-ERROR`), in order.
    var problems: [LibicalProblem] {
        var found: [LibicalProblem] = []
        var p = icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY)
        while let property = p {
            let message = icalproperty_get_xlicerror(property).map { String(cString: $0) } ?? ""
            found.append(LibicalProblem(parsing: message))
            p = icalcomponent_get_next_property(component, ICAL_XLICERROR_PROPERTY)
        }
        return found
    }

    private func tzid(of property: OpaquePointer) -> String? {
        guard let param = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER),
            let raw = icalparameter_get_tzid(param)
        else { return nil }
        var id = String(cString: raw)
        if id.count >= 2, id.hasPrefix("\""), id.hasSuffix("\"") {
            id = String(id.dropFirst().dropLast())
        }
        return id
    }
}

extension LibicalProblem {
    /// VEVENT properties of RFC 5545 section 3.6.1 (and their common companions).
    static let knownProperties: Set<String> = [
        "DTSTAMP", "UID", "DTSTART", "CLASS", "CREATED", "DESCRIPTION", "GEO", "LAST-MODIFIED",
        "LOCATION", "ORGANIZER", "PRIORITY", "SEQUENCE", "STATUS", "SUMMARY", "TRANSP", "URL",
        "RECURRENCE-ID", "RRULE", "DTEND", "DURATION", "ATTACH", "ATTENDEE", "CATEGORIES", "COMMENT",
        "CONTACT", "EXDATE", "REQUEST-STATUS", "RELATED-TO", "RESOURCES", "RDATE",
    ]

    /// Reads libical's messages, e.g. `Can't parse as DATE-TIME value in DTEND property. Removing
    /// entire property: tomorrow` or `No value for DTSTART property. Removing entire property:`.
    init(parsing message: String) {
        self.message = message
        var property: String?
        for marker in [" in ", " for "] {
            if let r = message.range(of: marker),
                let end = message.range(of: " property", range: r.upperBound..<message.endIndex)
            {
                let name = message[r.upperBound..<end.lowerBound]
                if !name.isEmpty, !name.contains(" ") {
                    property = name.uppercased()
                    break
                }
            }
        }
        self.property = property.flatMap { Self.knownProperties.contains($0) ? $0 : nil }
        if let r = message.range(of: "property: ") {
            let v = message[r.upperBound...].trimmingCharacters(in: .whitespaces)
            value = v.isEmpty ? nil : v
        } else {
            value = nil
        }
    }
}

extension PropertyTime {
    fileprivate init(_ t: icaltimetype, tzid: String?) {
        local = LocalDateTime(
            date: CalendarDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)),
            hour: t.is_date != 0 ? 0 : Int(t.hour), minute: t.is_date != 0 ? 0 : Int(t.minute),
            second: t.is_date != 0 ? 0 : Int(t.second))
        isDate = t.is_date != 0
        isUTC = icaltime_is_utc(t) != 0
        self.tzid = isUTC ? nil : tzid
    }
}

extension DurationValue {
    /// The longest DURATION read, in days: ten years. libical keeps each field in 32 bits and
    /// wraps silently (`P999999999999999999W` came out as an end in year 3507977), so a longer or
    /// overflowed value is an error, not a date.
    static let maximumDays = 3_653

    /// Whether `text` (as written) and the parsed value are a length dictee can use: no number of
    /// more than 9 digits (libical would have wrapped it), and at most `maximumDays` in all.
    static func isPlausible(_ value: DurationValue, written text: String) -> Bool {
        var digits = 0
        for c in text.unicodeScalars {
            if ("0"..."9").contains(c) {
                digits += 1
                if digits > 9 { return false }
            } else {
                digits = 0
            }
        }
        return abs(value.days) + abs(value.seconds) / 86_400 <= maximumDays
    }

    fileprivate init(_ d: icaldurationtype) {
        let sign = d.is_neg != 0 ? -1 : 1
        days = sign * (Int(d.weeks) * 7 + Int(d.days))
        seconds = sign * (Int(d.hours) * 3600 + Int(d.minutes) * 60 + Int(d.seconds))
    }
}

// MARK: - Time zones

/// A libical time zone: a built-in one (system tzdata), or a copy of a file's VTIMEZONE.
final class Zone: @unchecked Sendable {
    // Immutable after creation; libical's conversion functions only read it (they may extend the
    // zone's cached table of changes, which is why the reader is single-threaded).
    private let pointer: OpaquePointer
    private let owned: Bool
    /// Local dates (days since the epoch) known to be at least a day away from any offset change,
    /// with the offset (seconds east of Greenwich) in force on them.
    private var quietDays: [Int64: Int] = [:]
    /// UTC days (days since the epoch) with one offset in force from a day before them to a day
    /// after: `local(at:)` adds it without asking libical (a calendar's instants fall on a few
    /// hundred days; printing them asked libical twice per occurrence).
    private var quietUTCDays: [Int64: Int] = [:]
    private let cacheLock = NSLock()
    /// The name it was found under (IANA location, Windows name mapped, or the file's TZID).
    let name: String

    fileprivate init(owning pointer: OpaquePointer, name: String) {
        self.pointer = pointer
        self.owned = true
        self.name = name
    }

    private init(builtin pointer: OpaquePointer, name: String) {
        self.pointer = pointer
        self.owned = false
        self.name = name
    }

    deinit {
        if owned { icaltimezone_free(pointer, 1) }
    }

    /// UTC.
    static let utc = Zone(builtin: icaltimezone_get_utc_timezone(), name: "UTC")

    /// The IANA zone `location` (e.g. `Europe/Paris`) from the system's tzdata, or `nil`.
    static func builtin(_ location: String) -> Zone? {
        if location == "UTC" || location == "Etc/UTC" || location == "GMT" { return .utc }
        // libical opens zoneinfo/<name>: only plain IANA names reach it (no "..", no absolute
        // path, a few short components), so a TZID can never make it open a FIFO or a device.
        guard isPlainZoneName(location) else { return nil }
        guard let z = icaltimezone_get_builtin_timezone(location) else { return nil }
        return Zone(builtin: z, name: location)
    }

    /// `Area/Location` names: ASCII letters, digits, `_`, `-`, `+`; 1 to 3 components; 64 bytes.
    static func isPlainZoneName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64, !name.hasPrefix("/"), !name.hasSuffix("/") else {
            return false
        }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        // tzdata's "right/" zones count leap seconds: civil time is never read that way.
        guard components.count <= 3, components.first != "right" else { return false }
        return components.allSatisfy { c in
            !c.isEmpty && c != "." && c != ".."
                && c.unicodeScalars.allSatisfy { s in
                    s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "_" || s == "-" || s == "+")
                }
        }
    }

    /// The instant at which the wall clock of this zone shows `local` (RFC 5545 section 3.3.5): a
    /// time repeated by a DST change (the fold) is its first occurrence, and a time skipped by one
    /// (the gap) is read with the offset in force before the change. libical alone does the
    /// opposite for both, so its answer is checked against the offsets a day before and after.
    func instant(of local: LocalDateTime) -> Int64 {
        let fields = local.secondsIfUTC
        let day = fields >= 0 ? fields / 86_400 : (fields - 86_399) / 86_400
        cacheLock.lock()
        let quiet = quietDays[day]
        cacheLock.unlock()
        // No offset change within a day of this date: libical's answer, without asking it.
        if let offset = quiet { return fields - Int64(offset) }
        let guess = libicalInstant(of: local)
        // Asked of libical directly: caching these days for local(at:) would cost two more calls
        // each, for days an occurrence rarely starts on.
        let before = libicalOffset(at: guess - 86_400)
        let after = libicalOffset(at: guess + 86_400)
        if before == after {
            cacheLock.lock()
            if quietDays.count > 100_000 { quietDays.removeAll() }
            quietDays[day] = Int(fields - guess)
            cacheLock.unlock()
            return guess
        }
        let early = fields - Int64(before)  // read with the offset before the change
        let late = fields - Int64(after)
        let earlyFits = self.local(at: early) == local
        let lateFits = self.local(at: late) == local
        switch (earlyFits, lateFits) {
        case (true, true): return min(early, late)  // the fold: first occurrence
        case (true, false): return early
        case (false, true): return late
        case (false, false): return early  // the gap: offset before the change
        }
    }

    private func libicalInstant(of local: LocalDateTime) -> Int64 {
        var t = icaltime_null_time()
        t.year = Int32(local.date.year)
        t.month = Int32(local.date.month)
        t.day = Int32(local.date.day)
        t.hour = Int32(local.hour)
        t.minute = Int32(local.minute)
        t.second = Int32(local.second)
        t.is_date = 0
        return Int64(icaltime_as_timet_with_zone(t, pointer))
    }

    /// The wall-clock fields of this zone at `instant`.
    func local(at instant: Int64) -> LocalDateTime {
        let day = instant >= 0 ? instant / 86_400 : (instant - 86_399) / 86_400
        cacheLock.lock()
        let quiet = quietUTCDays[day]
        cacheLock.unlock()
        if let offset = quiet { return LocalDateTime(utcSeconds: instant + Int64(offset)) }
        let result = libicalLocal(at: instant)
        let offset = result.secondsIfUTC - instant
        let dayStart = day * 86_400
        if libicalLocal(at: dayStart - 86_400).secondsIfUTC - (dayStart - 86_400) == offset,
           libicalLocal(at: dayStart + 2 * 86_400).secondsIfUTC - (dayStart + 2 * 86_400) == offset
        {
            cacheLock.lock()
            if quietUTCDays.count > 100_000 { quietUTCDays.removeAll() }
            quietUTCDays[day] = Int(offset)
            cacheLock.unlock()
        }
        return result
    }

    /// The UTC offset at `instant` as libical gives it, without the cache of `local(at:)`.
    private func libicalOffset(at instant: Int64) -> Int {
        Int(libicalLocal(at: instant).secondsIfUTC - instant)
    }

    private func libicalLocal(at instant: Int64) -> LocalDateTime {
        let t = icaltime_from_timet_with_zone(time_t(instant), 0, pointer)
        return LocalDateTime(
            date: CalendarDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)),
            hour: Int(t.hour), minute: Int(t.minute), second: Int(t.second))
    }

    /// The UTC offset in force at `instant`, in seconds east of Greenwich.
    func utcOffset(at instant: Int64) -> Int {
        Int(local(at: instant).secondsIfUTC - instant)
    }
}

// MARK: - Recurrence

/// libical's RRULE iterator (RFC 5545 section 3.3.10 and 3.8.5.3) over wall-clock fields.
///
/// The iterator is given floating fields: the caller applies the series' zone to each result, so
/// that a weekly 10:00 stays at 10:00 across DST changes, as the RFC requires.
final class RecurrenceIterator {
    private let pointer: OpaquePointer
    private let isDate: Bool

    /// `nil` when libical refuses the rule (for example `FREQ` missing or `INTERVAL=0`).
    init?(rule: RecurrenceRule, start: LocalDateTime, isDate: Bool) {
        var t = icaltime_null_time()
        t.year = Int32(start.date.year)
        t.month = Int32(start.date.month)
        t.day = Int32(start.date.day)
        t.hour = Int32(start.hour)
        t.minute = Int32(start.minute)
        t.second = Int32(start.second)
        t.is_date = isDate ? 1 : 0
        guard rule.frequency != .none, let it = icalrecur_iterator_new(rule.raw, t) else {
            dictee_icalerror_clear()
            return nil
        }
        pointer = it
        self.isDate = isDate
    }

    deinit { icalrecur_iterator_free(pointer) }

    /// Skips ahead to the first occurrence at or after `local`. libical refuses (returns false)
    /// for rules with COUNT, which must be walked from their start.
    func skip(to local: LocalDateTime) -> Bool {
        var t = icaltime_null_time()
        t.year = Int32(local.date.year)
        t.month = Int32(local.date.month)
        t.day = Int32(local.date.day)
        t.hour = Int32(isDate ? 0 : local.hour)
        t.minute = Int32(isDate ? 0 : local.minute)
        t.second = Int32(isDate ? 0 : local.second)
        t.is_date = isDate ? 1 : 0
        let ok = icalrecur_iterator_set_start(pointer, t) != 0
        if !ok { dictee_icalerror_clear() }
        return ok
    }

    /// The next occurrence's wall-clock fields, or `nil` at the end of the series.
    func next() -> LocalDateTime? {
        let t = icalrecur_iterator_next(pointer)
        if icaltime_is_null_time(t) != 0 { return nil }
        return LocalDateTime(
            date: CalendarDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)),
            hour: isDate ? 0 : Int(t.hour), minute: isDate ? 0 : Int(t.minute),
            second: isDate ? 0 : Int(t.second))
    }
}
