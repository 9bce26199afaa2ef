import DicteeCore
import Foundation

/// The user's time zone (`--tz`, configuration): where floating times are read, where "now - 7 days"
/// is counted, and in which offsets instants are printed.
///
/// Backed by libical's built-in zones, which are read from the system's tzdata (Debian `tzdata`).
public struct CalendarZone: Sendable {
    let zone: Zone

    /// The IANA zone `identifier`, e.g. `Europe/Paris`.
    /// - Throws: `IngestError.unknownZone` when tzdata has no such zone.
    public init(identifier: String) throws(IngestError) {
        guard let z = Zone.builtin(identifier) else { throw .unknownZone(identifier) }
        zone = z
    }

    init(zone: Zone) { self.zone = zone }

    /// The zone's IANA name.
    public var identifier: String { zone.name }

    /// UTC offset in force at `instant` (seconds since the epoch), in seconds east of Greenwich.
    public func utcOffset(at instant: Int64) -> Int { zone.utcOffset(at: instant) }

    /// ISO 8601 text for an event time: `2026-03-20` for a date, and for an instant the local time
    /// in this zone with the offset then in force, seconds always present and `+00:00` for UTC:
    /// `2026-03-29T10:00:00+02:00`.
    public func iso8601(_ time: EventTime) -> String {
        switch time {
        case .date(let d):
            guard (0...9999).contains(d.year) else { return d.description }
            return Self.ascii(count: 10) { Self.write(d, into: $0) }
        case .instant(let s):
            let local = zone.local(at: s)
            let offset = Int(local.secondsIfUTC - s)
            let sign = offset < 0 ? "-" : "+"
            let magnitude = abs(offset)
            guard (0...9999).contains(local.date.year), magnitude < 100 * 3600 else {
                let hh = String(magnitude / 3600).leftPadded(2)
                let mm = String(magnitude % 3600 / 60).leftPadded(2)
                return "\(local)\(sign)\(hh):\(mm)"
            }
            // The same text, written byte by byte: `dictee events --json` prints two per occurrence.
            return Self.ascii(count: 25) { p in
                Self.write(local.date, into: p)
                p[10] = 0x54  // T
                Self.write(local.hour, 2, into: p + 11)
                p[13] = 0x3A
                Self.write(local.minute, 2, into: p + 14)
                p[16] = 0x3A
                Self.write(local.second, 2, into: p + 17)
                p[19] = offset < 0 ? 0x2D : 0x2B
                Self.write(magnitude / 3600, 2, into: p + 20)
                p[22] = 0x3A
                Self.write(magnitude % 3600 / 60, 2, into: p + 23)
            }
        }
    }

    /// A string of `count` ASCII bytes written by `body`.
    private static func ascii(count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            body(buffer.baseAddress!)
            return count
        }
    }

    /// `YYYY-MM-DD` (a year from 0 to 9999).
    private static func write(_ d: CalendarDate, into p: UnsafeMutablePointer<UInt8>) {
        write(d.year, 4, into: p)
        p[4] = 0x2D
        write(d.month, 2, into: p + 5)
        p[7] = 0x2D
        write(d.day, 2, into: p + 8)
    }

    /// `value` (0 to 10^width - 1) in `width` decimal digits, zeros first.
    private static func write(_ value: Int, _ width: Int, into p: UnsafeMutablePointer<UInt8>) {
        var v = value
        for k in stride(from: width - 1, through: 0, by: -1) {
            p[k] = UInt8(0x30 + v % 10)
            v /= 10
        }
    }

    /// The instant at which this zone's wall clock shows the given fields (a skipped DST time is read
    /// with the offset before the change).
    public func instant(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0
    ) -> Int64 {
        zone.instant(of: LocalDateTime(
            date: CalendarDate(year: year, month: month, day: day), hour: hour, minute: minute,
            second: second))
    }

    /// The calendar date this zone's wall clock shows at `instant`.
    public func date(at instant: Int64) -> CalendarDate { zone.local(at: instant).date }

    /// The local calendar date of an occurrence boundary: the date itself for an all-day one
    /// (never shifted through UTC), the wall-clock date here for an instant. The one conversion
    /// of `EventTime` to a date.
    public func date(of time: EventTime) -> CalendarDate {
        switch time {
        case .date(let d): d
        case .instant(let s): date(at: s)
        }
    }

    /// An occurrence boundary as seconds since the epoch: the instant itself, or local midnight
    /// here for an all-day date (how a date compares with "now"). The one conversion of
    /// `EventTime` to an instant.
    public func seconds(of time: EventTime) -> Int64 {
        switch time {
        case .instant(let s): s
        case .date(let d): instant(year: d.year, month: d.month, day: d.day)
        }
    }

    /// The local calendar date of a `Date` (e.g. when a dictation was graded), whole seconds.
    public func date(of date: Date) -> CalendarDate {
        self.date(at: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Parses an ISO 8601 date-time for `--now`: `2026-11-29T18:00:00+01:00`, `...Z`, a local
    /// `2026-11-29T18:00:00` (read in this zone), seconds optional, fractional seconds ignored, or a
    /// date `2026-11-29` (midnight in this zone). Returns seconds since the epoch, or `nil` when the text is not one of
    /// these forms.
    public func parseISO8601(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func num(_ from: Int, _ len: Int) -> Int? {
            guard from + len <= b.count else { return nil }
            var v = 0
            for k in from..<(from + len) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            return v
        }
        guard let y = num(0, 4), b.count >= 10, b[4] == 0x2D, let mo = num(5, 2), b[7] == 0x2D,
            let d = num(8, 2)
        else { return nil }
        let date = CalendarDate(year: y, month: mo, day: d)
        guard date.isValid else { return nil }
        if b.count == 10 { return zone.instant(of: LocalDateTime(date: date)) }
        guard b.count >= 16, b[10] == 0x54 || b[10] == 0x20, let h = num(11, 2), b[13] == 0x3A,
            let mi = num(14, 2)
        else { return nil }
        var s = 0
        var k = 16
        if b.count >= 19, b[16] == 0x3A {
            guard let seconds = num(17, 2) else { return nil }
            s = seconds
            k = 19
        }
        let local = LocalDateTime(date: date, hour: h, minute: mi, second: s)
        guard local.isValid else { return nil }
        if k < b.count, b[k] == 0x2E || b[k] == 0x2C {
            k += 1
            while k < b.count, b[k] >= 0x30, b[k] <= 0x39 { k += 1 }
        }
        if k == b.count { return zone.instant(of: local) }
        if b[k] == 0x5A, k + 1 == b.count { return local.secondsIfUTC }
        guard b[k] == 0x2B || b[k] == 0x2D, let oh = num(k + 1, 2), oh <= 18 else { return nil }
        var om = 0
        if k + 3 == b.count {
            om = 0
        } else if k + 6 == b.count, b[k + 3] == 0x3A, let m = num(k + 4, 2) {
            om = m
        } else if k + 5 == b.count, let m = num(k + 3, 2) {
            om = m
        } else {
            return nil
        }
        guard om < 60 else { return nil }
        let offset = (oh * 3600 + om * 60) * (b[k] == 0x2D ? -1 : 1)
        return local.secondsIfUTC - Int64(offset)
    }
}
