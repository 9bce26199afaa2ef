import Foundation

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
/// values. Given a `SkipRule`, it also reads a few properties of each VEVENT (`EventFacts`) and
/// leaves the one-off events far outside the window out of the chunks (`skipped`).
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

    /// The VEVENTs `SkipRule` leaves out of the chunks, in file order (none without a rule, or
    /// when the file is parsed whole).
    let skipped: [SkippedEvent]

    /// Which block and which part of it each chunk is.
    private let plan: [(block: Int, part: Int)]

    init(bytes: [UInt8], skipping rule: SkipRule? = nil) {
        var blocks: [Block] = []
        var current: Block?
        // With a rule: what each VEVENT says about itself, per block, beside `Block.events`.
        var facts: [[EventFacts]] = []
        var currentFacts: [EventFacts] = []
        var eventFacts = EventFacts()
        var depth = 0
        var childStart = 0
        var childKind: ChildKind = .other
        var regular = true
        var unclosed: [Int] = []
        var i = 0
        let n = bytes.count
        bytes.withUnsafeBufferPointer { buffer in
        scan: while i < n {
            let j = memchr(buffer.baseAddress! + i, 0x0A, n - i)
                .map { buffer.baseAddress!.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? n
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
                    currentFacts = []
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
                    if beginsEvent, rule != nil { eventFacts = EventFacts() }
                    depth = 2
                } else if isEnd {
                    guard endsCalendar, let block = current else {
                        regular = false
                        break scan
                    }
                    blocks.append(block)
                    facts.append(currentFacts)
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
                        case .event:
                            current?.events.append(range)
                            if rule != nil { currentFacts.append(eventFacts) }
                        case .timezone: current?.header.append(range)
                        case .other: break  // VTODO, VJOURNAL...: not read
                        }
                    }
                } else if depth == 2, childKind == .event, rule != nil {
                    eventFacts.read(bytes, i, end)
                }
            }
            i = j + 1
        }
        }
        var truncation: Truncation?
        if regular, depth > 0, let block = current {
            // The file stops inside the last VCALENDAR: keep what is complete.
            blocks.append(block)
            facts.append(currentFacts)
            truncation = depth >= 2 && childKind == .event
                ? .eventNotClosed(byteOffset: childStart) : .calendarNotClosed
            depth = 0
            current = nil
        }
        self.truncation = regular ? truncation : nil
        self.unclosedEvents = regular ? unclosed : []
        let cut = regular && depth == 0 && current == nil
        var skipped: [SkippedEvent] = []
        if cut, let rule {
            skipped = Self.leaveOut(&blocks, facts: facts, rule: rule)
        }
        self.skipped = skipped
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

    /// Moves the VEVENTs `rule` leaves out from `blocks` to the result: one-off events starting
    /// outside the window in every zone, whose UID no other VEVENT of the file has.
    private static func leaveOut(_ blocks: inout [Block], facts: [[EventFacts]], rule: SkipRule) -> [SkippedEvent] {
        var keys: [[Int?]] = []
        var all: [Int] = []
        for blockFacts in facts {
            keys.append(blockFacts.map { f in
                guard let raw = f.uidValue else { return nil }
                let key = UIDKey.of(raw: raw)
                all.append(key)
                return key
            })
        }
        // The UIDs used more than once: sorted, equal keys are neighbours.
        all.sort()
        var shared = Set<Int>()
        for k in all.indices.dropFirst() where all[k] == all[k - 1] { shared.insert(all[k]) }
        var skipped: [SkippedEvent] = []
        for b in blocks.indices {
            var kept: [Range<Int>] = []
            kept.reserveCapacity(blocks[b].events.count)
            for (k, range) in blocks[b].events.enumerated() {
                let f = facts[b][k]
                if !f.recurs, !f.unusual, let fields = f.startFields, rule.isOutside(fields: fields),
                   f.uidValue.map({ UIDKey.isPlain($0) && !shared.contains(keys[b][k]!) }) ?? true
                {
                    skipped.append(SkippedEvent(range: range, block: b, uid: keys[b][k], startFields: fields))
                } else {
                    kept.append(range)
                }
            }
            blocks[b].events = kept
        }
        return skipped
    }

    /// How many chunks `chunk(_:of:)` gives (at least 1).
    var chunkCount: Int { blocks == nil ? 1 : max(plan.count, 1) }

    /// The VCALENDAR (index in `blocks`) the `index`-th chunk comes from; `nil` when the file is
    /// parsed whole. Chunks of one VCALENDAR carry the same header: the same VTIMEZONEs.
    func block(ofChunk index: Int) -> Int? {
        blocks != nil && index < plan.count ? plan[index].block : nil
    }

    /// The `index`-th chunk: a whole VCALENDAR text, or the whole file when it is irregular.
    func chunk(_ index: Int, of bytes: [UInt8]) -> [UInt8] {
        guard let blocks, index < plan.count else { return blocks == nil ? bytes : [] }
        return Self.chunk(blocks[plan[index].block], part: plan[index].part, of: bytes)
    }

    private static func chunk(_ block: Block, part: Int, of bytes: [UInt8]) -> [UInt8] {
        let start = part * eventsPerChunk
        let slice = block.events[min(start, block.events.count)..<min(start + eventsPerChunk, block.events.count)]
        var chunk: [UInt8] = []
        appendCalendar(header: block.header, events: slice, of: bytes, to: &chunk)
        return chunk
    }

    /// One VCALENDAR text holding the skipped VEVENTs `events` (in file order), each with its own
    /// calendar's header: what libical is given when one of them must be read after all.
    func text(of events: [SkippedEvent], in bytes: [UInt8]) -> [UInt8] {
        guard let blocks else { return [] }
        var text: [UInt8] = []
        var k = 0
        while k < events.count {
            let block = events[k].block
            var ranges: [Range<Int>] = []
            while k < events.count, events[k].block == block {
                ranges.append(events[k].range)
                k += 1
            }
            Self.appendCalendar(header: blocks[block].header, events: ranges[...], of: bytes, to: &text)
        }
        return text
    }

    /// Appends `BEGIN:VCALENDAR`, the header lines, the VEVENTs at `events` (read properties
    /// only) and `END:VCALENDAR`.
    private static func appendCalendar(
        header: [Range<Int>], events: ArraySlice<Range<Int>>, of bytes: [UInt8], to chunk: inout [UInt8]
    ) {
        let end: [UInt8] = Array("END:VCALENDAR\r\n".utf8)
        chunk.reserveCapacity(chunk.count + header.reduce(0) { $0 + $1.count + 1 }
            + events.reduce(0) { $0 + $1.count } + end.count)
        for r in header {
            chunk.append(contentsOf: bytes[r])
            if bytes[r.upperBound - 1] != 0x0A { chunk.append(0x0A) }
        }
        for r in events {
            appendEvent(bytes, r, to: &chunk)
        }
        chunk.append(contentsOf: end)
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
    /// a comma-separated list. A line is classified on its first physical line when its name ends
    /// there, so that a long folded line left out (an ATTENDEE, a VALARM's text) is never copied.
    private static func appendEvent(_ b: [UInt8], _ range: Range<Int>, to chunk: inout [UInt8]) {
        var depth = 0
        // A first STATUS or SEQUENCE line that says what its absence says is held back, and
        // written only if another line of that property follows (libical reads the first one).
        var held: [ArraySlice<UInt8>?] = [nil, nil]  // per `defaults` entry
        var written: [Bool] = [false, false]
        forEachLogicalLine(b, range) { first, continuations in
            var unfolded: [UInt8]?
            var lineKind = kind(b, first.lowerBound, first.upperBound)
            if lineKind == nil {
                // The name goes on in the next physical line: classify the whole line.
                let u = unfold(b, first, continuations)
                unfolded = u
                lineKind = kind(u, 0, u.count) ?? .other
            }
            func line() -> ArraySlice<UInt8> {
                if let unfolded { return unfolded[...] }
                if continuations.isEmpty { return b[first] }
                return unfold(b, first, continuations)[...]
            }
            switch lineKind! {
            case .begin:
                depth += 1
                if depth == 1 { emit(line(), to: &chunk) }
            case .end:
                if depth == 1 { emit(line(), to: &chunk) }
                depth -= 1
            case .read where depth == 1:
                let text = line()
                guard let property = defaultable(text) else {
                    emit(text, to: &chunk)
                    break
                }
                if let earlier = held[property] {
                    held[property] = nil
                    emit(earlier, to: &chunk)
                    emit(text, to: &chunk)
                    written[property] = true
                } else if !written[property], isDefault(text, property) {
                    held[property] = text
                } else {
                    emit(text, to: &chunk)
                    written[property] = true
                }
            case .list where depth == 1:
                emitList(line(), to: &chunk)
            default:
                break
            }
        }
    }

    private enum LineKind { case begin, end, read, list, other }

    /// `STATUS:CONFIRMED`, `STATUS:TENTATIVE` and `SEQUENCE:0` (values as written, upper case, no
    /// parameter) tell dictee what a VEVENT without them does (not cancelled, sequence 0), and
    /// libical spends more on reading an enumerated STATUS than on any other property: such a line
    /// is left out when it is its property's only one.
    private static let defaults: [(name: StaticString, values: [[UInt8]])] = [
        ("STATUS", [Array("CONFIRMED".utf8), Array("TENTATIVE".utf8)]),
        ("SEQUENCE", [Array("0".utf8)]),
    ]

    /// The index in `defaults` of the property of `line`, a `readProperties` line.
    private static func defaultable(_ line: ArraySlice<UInt8>) -> Int? {
        guard let c = line.first, c | 0x20 == 0x73 else { return nil }  // s
        for (k, d) in defaults.enumerated() {
            let n = d.name.utf8CodeUnitCount
            guard line.count > n else { continue }
            let separator = line[line.startIndex + n]
            guard separator == 0x3A || separator == 0x3B else { continue }
            let name = UnsafeBufferPointer(start: d.name.utf8Start, count: n)
            if zip(line.prefix(n), name).allSatisfy({ $0 & 0xDF == $1 & 0xDF }) { return k }
        }
        return nil
    }

    /// Whether `line` is `NAME:VALUE` with one of the default values of `defaults[property]`.
    private static func isDefault(_ line: ArraySlice<UInt8>, _ property: Int) -> Bool {
        let n = defaults[property].name.utf8CodeUnitCount
        guard line.count > n, line[line.startIndex + n] == 0x3A else { return false }
        return defaults[property].values.contains { $0[...].elementsEqual(line.dropFirst(n + 1)) }
    }

    /// What the content line `b[i..<end]` is: `BEGIN:`, `END:`, one of `readProperties` (EXDATE and
    /// RDATE are lists), or anything else; `nil` when the name runs to the end of `end` (it may go
    /// on in a continuation line).
    private static func kind(_ b: [UInt8], _ i: Int, _ end: Int) -> LineKind? {
        var k = i
        while k < end, isNameByte(b[k]) { k += 1 }
        guard k < end else { return nil }
        let separator = b[k]
        let length = k - i
        if separator == 0x3A {
            if length == 5, RawLines.hasPrefix(b, i, k, "BEGIN") { return .begin }
            if length == 3, RawLines.hasPrefix(b, i, k, "END") { return .end }
        }
        guard separator == 0x3A || separator == 0x3B, length >= 3 else { return .other }
        switch b[i] | 0x20 {
        case 0x65, 0x72:  // e, r
            if (length == 6 && RawLines.hasPrefix(b, i, k, "EXDATE")) || (length == 5 && RawLines.hasPrefix(b, i, k, "RDATE")) {
                return .list
            }
        case 0x75, 0x73, 0x6C, 0x64:  // u, s, l, d
            break
        default:
            return .other
        }
        for name in readProperties where name.utf8CodeUnitCount == length && RawLines.hasPrefix(b, i, k, name) {
            return .read
        }
        return .other
    }

    /// Letters, digits and `-`.
    private static func isNameByte(_ c: UInt8) -> Bool {
        (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D
    }

    /// A content line unfolded: its first physical line, then each continuation without its
    /// leading space or tab.
    private static func unfold(_ b: [UInt8], _ first: Range<Int>, _ continuations: [Range<Int>]) -> [UInt8] {
        var line = Array(b[first])
        for c in continuations { line.append(contentsOf: b[(c.lowerBound + 1)..<c.upperBound]) }
        return line
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

    /// Calls `body` with each content line of `range` (RFC 5545 section 3.1: CRLF or LF followed
    /// by a space or a tab continues a line), as its first physical line and its continuation
    /// lines (CR and LF excluded; each continuation still has its leading space or tab).
    private static func forEachLogicalLine(
        _ b: [UInt8], _ range: Range<Int>, _ body: (Range<Int>, [Range<Int>]) -> Void
    ) {
        var i = range.lowerBound
        let n = range.upperBound
        var pending: Range<Int>?  // the current line's first physical line
        var continuations: [Range<Int>] = []
        b.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            while i < n {
                let j = memchr(base + i, 0x0A, n - i).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? n
                var end = j
                if end > i, base[end - 1] == 0x0D { end -= 1 }
                if i < end, base[i] == 0x20 || base[i] == 0x09, pending != nil {
                    continuations.append(i..<end)
                } else {
                    if let p = pending { body(p, continuations) }
                    continuations.removeAll(keepingCapacity: true)
                    pending = i..<end
                }
                i = j + 1
            }
        }
        if let p = pending { body(p, continuations) }
    }
}
