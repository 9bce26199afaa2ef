import DicteeCore

/// Which VEVENTs need not reach libical at all: one-off events whose start lies far outside the
/// one-off window, seen from their raw text (issue 14, item 6).
///
/// A 50,000-event export holds ten years of one-off events, and the window keeps two of them:
/// libical would build, and the reader resolve, a tree for each of the other eight. A VEVENT is left
/// out when everything that could bring it into the output is known from its lines:
///
/// - no RRULE, RDATE, EXRULE or RECURRENCE-ID (a one-off, not an override);
/// - no other VEVENT of the file shares its UID (a master, another version with a higher SEQUENCE
///   or a duplicate changes what is kept; a UID met in another file is handled by the reader,
///   which then parses the event after all: `ReadSession.finish`), and its UID, if any, reads the
///   same in libical and byte for byte (`UIDKey.isPlain`);
/// - no property name of its own folded over two lines (it could hide an RRULE);
/// - exactly one DTSTART, written `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ` on one
///   physical line, a real date, whose fields read as UTC lie more than `margin` before the one-off
///   window's lower bound or at least `margin` after its upper bound. Whatever the zone (a TZID,
///   X-WR-TIMEZONE, the reader's zone for floating and all-day starts), the start instant is the
///   written fields minus an offset of less than 18 hours (the most a VTIMEZONE the reader accepts
///   may say; tzdata's widest is under 16), and a one-off is kept on its start alone
///   (`EventRecord.instances`): DTEND and DURATION never bring it into the window.
///
/// Nothing else about such an event is checked: an unknown TZID or an unreadable DTEND outside the
/// window is no longer reported (README, "How calendars are read"). Every event that may start
/// inside the window is read and checked as before.
struct SkipRule: Sendable {
    /// The one-off window (start instants, half-open).
    var oneOff: Range<Int64>

    /// Two days: more than the 18-hour zone offset bound, a DST shift and a leap second together.
    static let margin: Int64 = 2 * 86_400

    /// Whether a one-off whose DTSTART fields, read as UTC, are `fields` starts outside the window
    /// in every zone.
    func isOutside(fields: Int64) -> Bool {
        fields + Self.margin < oneOff.lowerBound || fields - Self.margin >= oneOff.upperBound
    }
}

/// A VEVENT left out of libical's input by `SkipRule`.
struct SkippedEvent: Sendable {
    /// Byte range of the component, `BEGIN:VEVENT` to the end of `END:VEVENT`.
    var range: Range<Int>
    /// Index of its VCALENDAR in `CalendarLayout.blocks`.
    var block: Int
    /// `UIDKey` of its UID; `nil` without a UID (never grouped with another VEVENT).
    var uid: Int?
    /// DTSTART's wall-clock fields read as UTC (seconds since the epoch).
    var startFields: Int64
}

/// A hash of a UID for telling apart VEVENTs that may share one. Equal UIDs (as libical reads
/// them) always get equal keys; a collision only makes the reader parse an event it could have
/// left out.
enum UIDKey {
    /// The key of a UID as libical returns it.
    static func of(_ uid: String) -> Int {
        var copy = uid
        return copy.withUTF8 { of(bytes: $0) }
    }

    /// The key of the UTF-8 bytes `bytes`: 64-bit FNV-1a (a file's UIDs are counted before any
    /// event is parsed, 50,000 of them for a large export; no adversary gains from a collision).
    static func of(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return Int(bitPattern: UInt(hash))
    }

    /// The key of a raw UID value as written in the file: TEXT escapes undone and white space
    /// trimmed first, so that every spelling libical reads as the same UID gets the same key.
    static func of(raw: ArraySlice<UInt8>) -> Int {
        raw.withUnsafeBufferPointer { buffer in
            var from = 0
            var to = buffer.count
            while from < to, buffer[from] == 0x20 || buffer[from] == 0x09 { from += 1 }
            while to > from, buffer[to - 1] == 0x20 || buffer[to - 1] == 0x09 { to -= 1 }
            let value = UnsafeBufferPointer(rebasing: buffer[from..<to])
            return value.contains(0x5C) ? unescaped(value) : of(bytes: value)
        }
    }

    /// The key of a UID whose TEXT escapes are undone first.
    private static func unescaped(_ value: UnsafeBufferPointer<UInt8>) -> Int {
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(value.count)
        var escaped = false
        for byte in value {
            if escaped {
                unescaped.append(byte == 0x6E || byte == 0x4E ? 0x0A : byte)  // \n, \N
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else {
                unescaped.append(byte)
            }
        }
        if escaped { unescaped.append(0x5C) }
        return unescaped.withUnsafeBufferPointer { of(bytes: $0) }
    }

    /// Whether a raw UID value reads the same in libical and byte for byte: no white space, control
    /// byte, backslash, comma, semicolon or double quote.
    static func isPlain(_ raw: ArraySlice<UInt8>) -> Bool {
        !raw.isEmpty && !raw.contains { byte in
            byte <= 0x20 || byte == 0x7F || byte == 0x5C || byte == 0x2C || byte == 0x3B || byte == 0x22
        }
    }
}

/// What `CalendarLayout` learns about one VEVENT from its own content lines (not those of a nested
/// VALARM), for `SkipRule`. Fed one physical line at a time.
struct EventFacts {
    /// RRULE, RDATE, EXRULE or RECURRENCE-ID seen.
    private(set) var recurs = false
    /// Something the raw reading cannot vouch for: a property name or a DTSTART folded over two
    /// lines, a DTSTART value of another shape, a second DTSTART.
    private(set) var unusual = false
    /// DTSTART's fields read as UTC, once one DTSTART was read.
    private(set) var startFields: Int64?
    /// The UID value: a range of the file's bytes, or its unfolded copy when it is folded.
    private(set) var uid: ArraySlice<UInt8>?
    private var continuing: Watched = .none

    private enum Watched { case none, start, uid }

    /// Reads the content line `b[i..<end]` (CR and LF excluded) of the VEVENT itself.
    @inline(__always)
    mutating func read(_ b: [UInt8], _ i: Int, _ end: Int) {
        guard i < end else { return }
        switch b[i] {
        case 0x44, 0x64, 0x52, 0x72, 0x45, 0x65, 0x55, 0x75:  // D, R, E, U: a name read below may start so
            readLine(b, i, end)
        case 0x20, 0x09:
            if continuing != .none { readLine(b, i, end) }
        default:
            // Any other property: even folded inside its name, it is none of those read here.
            continuing = .none
        }
    }

    private mutating func readLine(_ b: [UInt8], _ i: Int, _ end: Int) {
        let first = b[i]
        if first == 0x20 || first == 0x09 {
            // A continuation line: it belongs to the previous property.
            switch continuing {
            case .none: break
            case .start: unusual = true
            case .uid:
                var unfolded = Array(uid ?? [])
                unfolded.append(contentsOf: b[(i + 1)..<end])
                uid = unfolded[...]
            }
            return
        }
        continuing = .none
        var k = i
        while k < end, Self.isNameByte(b[k]) { k += 1 }
        guard k < end, b[k] == 0x3A || b[k] == 0x3B else {
            unusual = true  // a name folded over two lines, or no name at all
            return
        }
        let length = k - i
        switch first | 0x20 {
        case 0x64:  // d
            guard length == 7, RawLines.hasPrefix(b, i, k, "DTSTART") else { return }
            continuing = .start
            if startFields != nil { unusual = true; return }
            guard let colon = Self.valueStart(b, from: k, end), let fields = Self.fields(b, colon, end) else {
                unusual = true
                return
            }
            startFields = fields
        case 0x72:  // r
            if (length == 5 && RawLines.hasPrefix(b, i, k, "RRULE"))
                || (length == 5 && RawLines.hasPrefix(b, i, k, "RDATE"))
                || (length == 13 && RawLines.hasPrefix(b, i, k, "RECURRENCE-ID"))
            {
                recurs = true
            }
        case 0x65:  // e
            if length == 6, RawLines.hasPrefix(b, i, k, "EXRULE") { recurs = true }
        case 0x75:  // u
            guard length == 3, RawLines.hasPrefix(b, i, k, "UID"), uid == nil else { return }
            guard let colon = Self.valueStart(b, from: k, end) else {
                unusual = true
                return
            }
            uid = b[colon..<end]
            continuing = .uid
        default:
            break
        }
    }

    /// The raw UID value, when it is not empty.
    var uidValue: ArraySlice<UInt8>? { uid.flatMap { $0.isEmpty ? nil : $0 } }

    /// Letters, digits and `-` (RFC 5545 section 3.1: iana-token, x-name).
    private static func isNameByte(_ c: UInt8) -> Bool {
        (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D
    }

    /// The index after the first `:` outside double quotes at or after `k`.
    private static func valueStart(_ b: [UInt8], from k: Int, _ end: Int) -> Int? {
        var inQuotes = false
        var p = k
        while p < end {
            let c = b[p]
            if c == 0x22 { inQuotes.toggle() } else if c == 0x3A, !inQuotes { return p + 1 }
            p += 1
        }
        return nil
    }

    /// `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ` at `b[from..<end]`, a real date and time,
    /// as seconds since the epoch if the fields were UTC.
    private static func fields(_ b: [UInt8], _ from: Int, _ end: Int) -> Int64? {
        let count = end - from
        guard count == 8 || count == 15 || count == 16 else { return nil }
        func number(_ at: Int, _ digits: Int) -> Int? {
            var n = 0
            for p in at..<(at + digits) {
                let c = b[p]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                n = n * 10 + Int(c - 0x30)
            }
            return n
        }
        guard let year = number(from, 4), let month = number(from + 4, 2), let day = number(from + 6, 2),
              year >= 1
        else { return nil }
        var local = LocalDateTime(date: CalendarDate(year: year, month: month, day: day))
        if count > 8 {
            guard b[from + 8] == 0x54, count == 15 || b[from + 15] == 0x5A,  // T, Z
                  let hour = number(from + 9, 2), let minute = number(from + 11, 2),
                  let second = number(from + 13, 2)
            else { return nil }
            local.hour = hour
            local.minute = minute
            local.second = second
        }
        guard local.isValid else { return nil }
        return local.secondsIfUTC
    }
}
