/// The top-level shape of a calendar file, so that a large file can be handed to libical in chunks.
///
/// libical builds a full tree for what it parses (about 5 kB per VEVENT): a 50,000-event export
/// would take 250 MB at once. When the file is regular enough (VCALENDARs at the top, VEVENTs in
/// them), each VCALENDAR is cut into chunks of at most `eventsPerChunk` VEVENTs, each repeating the
/// calendar's own properties and VTIMEZONEs, so that libical resolves TZIDs and X-WR-TIMEZONE
/// exactly as in the whole file. A component left open in the middle (a VEVENT or VALARM without
/// its END line) is closed by the next BEGIN:VEVENT: the broken VEVENT is reported and left out,
/// the rest is read. Anything less regular (a VCALENDAR inside another, content outside any
/// VCALENDAR) is parsed whole. Like `LineIndex`, this only finds BEGIN/END lines; libical reads the
/// values.
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

    /// Byte offsets of VEVENTs left open before the next VEVENT began: left out, to be reported.
    let unclosedEvents: [Int]

    /// Which block and which part of it each chunk is.
    private let plan: [(block: Int, part: Int)]

    init(bytes: [UInt8]) {
        var blocks: [Block] = []
        var current: Block?
        var depth = 0
        var childStart = 0
        var childKind: ChildKind = .other
        var regular = true
        var unclosed: [Int] = []
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
            let beginsEvent = isBegin && RawLines.isExactly(bytes, i + 6, end, "VEVENT")
            let beginsCalendar = isBegin && RawLines.isExactly(bytes, i + 6, end, "VCALENDAR")
            let endsCalendar = isEnd && RawLines.isExactly(bytes, i + 4, end, "VCALENDAR")
            if depth >= 2, beginsEvent || endsCalendar {
                // The open child never got its END line: close it here.
                if childKind == .event { unclosed.append(childStart) }
                depth = 1
            }
            switch depth {
            case 0:
                if isBegin {
                    guard beginsCalendar else { regular = false; break scan }
                    current = Block(header: [lineRange])
                    depth = 1
                } else if isEnd {
                    regular = false
                    break scan
                }
            case 1:
                if isBegin {
                    if beginsCalendar { regular = false; break scan }
                    childStart = i
                    childKind = beginsEvent ? .event
                        : RawLines.isExactly(bytes, i + 6, end, "VTIMEZONE") ? .timezone : .other
                    depth = 2
                } else if isEnd {
                    guard endsCalendar, let block = current else {
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
                    if beginsCalendar { regular = false; break scan }
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
        self.unclosedEvents = regular ? unclosed : []
        let cut = regular && depth == 0 && current == nil
        self.blocks = cut ? blocks : nil
        var plan: [(block: Int, part: Int)] = []
        if cut {
            for (b, block) in blocks.enumerated() {
                let parts = max(1, (block.events.count + Self.eventsPerChunk - 1) / Self.eventsPerChunk)
                for p in 0..<parts { plan.append((b, p)) }
            }
        }
        self.plan = plan
    }

    private enum ChildKind { case event, timezone, other }

    /// How many chunks `chunk(_:of:)` gives (at least 1).
    var chunkCount: Int { blocks == nil ? 1 : max(plan.count, 1) }

    /// The `index`-th chunk: a whole VCALENDAR text, or the whole file when it is irregular.
    func chunk(_ index: Int, of bytes: [UInt8]) -> [UInt8] {
        guard let blocks, index < plan.count else { return blocks == nil ? bytes : [] }
        return Self.chunk(blocks[plan[index].block], part: plan[index].part, of: bytes)
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

    /// Appends the VEVENT at `range` with only `readProperties`, without nested components, one
    /// unfolded content line each (so that a fold inside a property name cannot hide it). EXDATE
    /// and RDATE lists are written one value per line: libical keeps only the first 500 values of
    /// a comma-separated list.
    private static func appendEvent(_ b: [UInt8], _ range: Range<Int>, to chunk: inout [UInt8]) {
        var depth = 0
        forEachLogicalLine(b, range) { bytes, i, n in
            let line = bytes[i..<n]
            if RawLines.hasPrefix(bytes, i, n, "BEGIN:") {
                depth += 1
                if depth == 1 { emit(line, to: &chunk) }
            } else if RawLines.hasPrefix(bytes, i, n, "END:") {
                if depth == 1 { emit(line, to: &chunk) }
                depth -= 1
            } else if depth == 1, readProperties.contains(where: { isProperty(bytes, i, n, $0) }) {
                if isProperty(bytes, i, n, "EXDATE") || isProperty(bytes, i, n, "RDATE") {
                    emitList(line, to: &chunk)
                } else {
                    emit(line, to: &chunk)
                }
            }
        }
    }

    private static func emit(_ line: ArraySlice<UInt8>, to chunk: inout [UInt8]) {
        chunk.append(contentsOf: line)
        chunk.append(0x0D)
        chunk.append(0x0A)
    }

    /// `EXDATE;TZID=X:a,b,c` becomes three lines, each with the same name and parameters.
    private static func emitList(_ line: ArraySlice<UInt8>, to chunk: inout [UInt8]) {
        var inQuotes = false
        var colon: Int?
        for k in line.indices {
            if line[k] == 0x22 { inQuotes.toggle() }
            if line[k] == 0x3A, !inQuotes { colon = k; break }
        }
        guard let colon else { return emit(line, to: &chunk) }
        let head = line[line.startIndex...colon]
        for value in line[(colon + 1)...].split(separator: 0x2C, omittingEmptySubsequences: true) {
            chunk.append(contentsOf: head)
            chunk.append(contentsOf: value)
            chunk.append(0x0D)
            chunk.append(0x0A)
        }
    }

    /// Calls `body` with each content line of `range`, unfolded (CRLF or LF followed by a space
    /// or a tab is removed, RFC 5545 section 3.1), as (bytes, start, end): a range of `b` when the
    /// line is not folded, else an unfolded copy.
    private static func forEachLogicalLine(
        _ b: [UInt8], _ range: Range<Int>, _ body: ([UInt8], Int, Int) -> Void
    ) {
        var i = range.lowerBound
        let n = range.upperBound
        var pending: Range<Int>?  // the current line, while it has no continuation
        var unfolded: [UInt8]?  // the current line, once a continuation was seen
        func flush() {
            if let u = unfolded { body(u, 0, u.count) } else if let p = pending { body(b, p.lowerBound, p.upperBound) }
            pending = nil
            unfolded = nil
        }
        while i < n {
            var j = i
            while j < n, b[j] != 0x0A { j += 1 }
            var end = j
            if end > i, b[end - 1] == 0x0D { end -= 1 }
            if i < end, b[i] == 0x20 || b[i] == 0x09, pending != nil || unfolded != nil {
                if unfolded == nil, let p = pending { unfolded = Array(b[p]) }
                unfolded!.append(contentsOf: b[(i + 1)..<end])
            } else {
                flush()
                pending = i..<end
            }
            i = j + 1
        }
        flush()
    }

    /// Whether the content line at `i..<end` is property `name` (followed by `;` or `:`).
    private static func isProperty(_ b: [UInt8], _ i: Int, _ end: Int, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard end - i > count, RawLines.hasPrefix(b, i, end, name) else { return false }
        return b[i + count] == 0x3A || b[i + count] == 0x3B
    }
}
