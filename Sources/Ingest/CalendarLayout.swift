/// The top-level shape of a calendar file, so that a large file can be handed to libical in chunks.
///
/// libical builds a full tree for what it parses (about 5 kB per VEVENT): a 50,000-event export
/// would take 250 MB at once. When the file is well formed (every VEVENT directly inside a
/// VCALENDAR, every component closed), each VCALENDAR is cut into chunks of at most
/// `eventsPerChunk` VEVENTs, each repeating the calendar's own properties and VTIMEZONEs, so that
/// libical resolves TZIDs and X-WR-TIMEZONE exactly as in the whole file. Anything less regular
/// is parsed whole. Like `LineIndex`, this only finds BEGIN/END lines; libical reads the values.
struct CalendarLayout {
    struct Block {
        /// `BEGIN:VCALENDAR`, the calendar's property lines and its VTIMEZONE components.
        var header: [Range<Int>] = []
        /// Each VEVENT, in file order.
        var events: [Range<Int>] = []
    }

    static let eventsPerChunk = 2000

    /// The VCALENDARs, or `nil` when the file is not regular enough to be cut.
    let blocks: [Block]?

    /// Where the file ends too early (a truncated download or export), when it does.
    enum Truncation: Equatable {
        /// The last VCALENDAR has no END:VCALENDAR; everything in it is complete.
        case calendarNotClosed
        /// The file ends inside the VEVENT starting at this byte offset: that event is left out.
        case eventNotClosed(byteOffset: Int)
    }

    /// Set when the file ends inside a component; the complete events before are still read.
    let truncation: Truncation?

    init(bytes: [UInt8]) {
        var blocks: [Block] = []
        var current: Block?
        var depth = 0
        var childStart = 0
        var childKind: ChildKind = .other
        var regular = true
        var i = 0
        let n = bytes.count
        scan: while i < n {
            var j = i
            while j < n, bytes[j] != 0x0A { j += 1 }
            var end = j
            if end > i, bytes[end - 1] == 0x0D { end -= 1 }
            let lineRange = i..<min(j + 1, n)
            let isBegin = RawLines.hasPrefix(bytes, i, end, "BEGIN:")
            let isEnd = !isBegin && RawLines.hasPrefix(bytes, i, end, "END:")
            switch depth {
            case 0:
                if isBegin {
                    guard RawLines.isExactly(bytes, i + 6, end, "VCALENDAR") else { regular = false; break scan }
                    current = Block(header: [lineRange])
                    depth = 1
                } else if isEnd {
                    regular = false
                    break scan
                }
            case 1:
                if isBegin {
                    childStart = i
                    childKind = RawLines.isExactly(bytes, i + 6, end, "VEVENT") ? .event
                        : RawLines.isExactly(bytes, i + 6, end, "VTIMEZONE") ? .timezone : .other
                    if RawLines.isExactly(bytes, i + 6, end, "VCALENDAR") { regular = false; break scan }
                    depth = 2
                } else if isEnd {
                    guard RawLines.isExactly(bytes, i + 4, end, "VCALENDAR"), let block = current else {
                        regular = false
                        break scan
                    }
                    blocks.append(block)
                    current = nil
                    depth = 0
                } else {
                    current?.header.append(lineRange)
                }
            default:
                if isBegin {
                    if RawLines.isExactly(bytes, i + 6, end, "VEVENT") || RawLines.isExactly(bytes, i + 6, end, "VCALENDAR") {
                        regular = false  // a VEVENT nested in another component
                        break scan
                    }
                    depth += 1
                } else if isEnd {
                    depth -= 1
                    if depth == 1 {
                        let range = childStart..<min(j + 1, n)
                        switch childKind {
                        case .event: current?.events.append(range)
                        case .timezone: current?.header.append(range)
                        case .other: break  // VTODO, VJOURNAL...: not read
                        }
                    }
                }
            }
            i = j + 1
        }
        var truncation: Truncation?
        if regular, depth > 0, let block = current {
            // The file stops inside the last VCALENDAR: keep what is complete.
            blocks.append(block)
            truncation = depth >= 2 && childKind == .event
                ? .eventNotClosed(byteOffset: childStart) : .calendarNotClosed
            depth = 0
            current = nil
        }
        self.truncation = regular ? truncation : nil
        self.blocks = regular && depth == 0 && current == nil ? blocks : nil
    }

    private enum ChildKind { case event, timezone, other }

    /// How many chunks `chunk(_:of:)` gives (at least 1).
    var chunkCount: Int {
        guard let blocks else { return 1 }
        return blocks.reduce(0) { $0 + max(1, ($1.events.count + Self.eventsPerChunk - 1) / Self.eventsPerChunk) }
    }

    /// All chunks to parse, in order.
    func chunks(of bytes: [UInt8]) -> [[UInt8]] {
        (0..<chunkCount).map { chunk($0, of: bytes) }
    }

    /// The `index`-th chunk: a whole VCALENDAR text, or the whole file when it is irregular.
    func chunk(_ index: Int, of bytes: [UInt8]) -> [UInt8] {
        guard let blocks else { return bytes }
        var remaining = index
        for block in blocks {
            let count = max(1, (block.events.count + Self.eventsPerChunk - 1) / Self.eventsPerChunk)
            if remaining >= count {
                remaining -= count
                continue
            }
            return Self.chunk(block, part: remaining, of: bytes)
        }
        return []
    }

    private static func chunk(_ block: Block, part: Int, of bytes: [UInt8]) -> [UInt8] {
        let end: [UInt8] = Array("END:VCALENDAR\r\n".utf8)
        var header: [UInt8] = []
        for r in block.header {
            header.append(contentsOf: bytes[r])
            if bytes[r.upperBound - 1] != 0x0A { header.append(0x0A) }
        }
        let start = part * eventsPerChunk
        let slice = block.events[min(start, block.events.count)..<min(start + eventsPerChunk, block.events.count)]
        var chunk = header
        chunk.reserveCapacity(header.count + slice.reduce(0) { $0 + $1.count } + end.count)
        for r in slice {
            appendEvent(bytes, r, to: &chunk)
        }
        chunk.append(contentsOf: end)
        return chunk
    }

    /// The VEVENT properties dictee reads (RFC 5545 section 3.6.1). libical spends most of its
    /// time looking up property names and parsing values, so the others (DTSTAMP, CREATED,
    /// ATTENDEE, VALARM components...) are left out of the chunks: the same events, parsed in about
    /// half the time. Line numbers are unaffected: they come from the original bytes.
    static let readProperties: [StaticString] = [
        "UID", "SUMMARY", "LOCATION", "DESCRIPTION", "DTSTART", "DTEND", "DURATION", "RRULE",
        "RDATE", "EXDATE", "RECURRENCE-ID", "STATUS", "SEQUENCE",
    ]

    /// Appends the VEVENT at `range` with only `readProperties` (and their folded continuations),
    /// without nested components.
    private static func appendEvent(_ b: [UInt8], _ range: Range<Int>, to chunk: inout [UInt8]) {
        var i = range.lowerBound
        let n = range.upperBound
        var depth = 0
        var keeping = false
        while i < n {
            var j = i
            while j < n, b[j] != 0x0A { j += 1 }
            var end = j
            if end > i, b[end - 1] == 0x0D { end -= 1 }
            let first = i < end ? b[i] : 0
            if first == 0x20 || first == 0x09 {
                // A folded continuation belongs to the line before it.
            } else if RawLines.hasPrefix(b, i, end, "BEGIN:") {
                depth += 1
                keeping = depth == 1
            } else if RawLines.hasPrefix(b, i, end, "END:") {
                keeping = depth == 1
                depth -= 1
            } else {
                keeping = depth == 1 && readProperties.contains { isProperty(b, i, end, $0) }
            }
            if keeping {
                chunk.append(contentsOf: b[i..<end])
                chunk.append(0x0D)
                chunk.append(0x0A)
            }
            i = j + 1
        }
    }

    /// Whether the content line at `i..<end` is property `name` (followed by `;` or `:`).
    private static func isProperty(_ b: [UInt8], _ i: Int, _ end: Int, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard end - i > count, RawLines.hasPrefix(b, i, end, name) else { return false }
        return b[i + count] == 0x3A || b[i + count] == 0x3B
    }
}
