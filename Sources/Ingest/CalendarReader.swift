import DicteeCore
import Foundation

/// What reading calendars produced: the in-window occurrences, sorted, and every problem met.
public struct IngestResult: Sendable {
    /// In-window occurrences sorted by start instant (an all-day occurrence starts at local
    /// midnight of the reader's zone), then UID, then end.
    public var occurrences: [Occurrence]
    /// One error per VEVENT that could not be read (it contributes nothing; every other event is
    /// kept), and warnings for what was repaired.
    public var diagnostics: [Diagnostic]
    /// Files that could not be read at all, or hold no calendar.
    public var fileErrors: [IngestError]
    /// How many VEVENT components were read, good or bad.
    public var eventCount: Int
    /// Files read only in part (cut short, or a VEVENT left open): what is missing from them is
    /// unknown, so nothing stored from them should be forgotten.
    public var incompleteFiles: Set<String> = []
    /// Per document name: the earliest instant (seconds since the epoch) at which one of its events
    /// has an occurrence that starts after the window's end (`window.oneOff.upperBound` /
    /// recurring upperBound), minus the window's forward span, i.e. the "now" at which that occurrence
    /// would enter the window; absent when no occurrence exists after the window (a series that ended,
    /// a one-off in the past). Conservative: may be earlier than exact, never later.
    ///
    /// The forward span is that of `ReadWindow.around`: `ReadWindow.futureDays` days on the wall
    /// clock of the reader's zone. A series is walked one step past the window (within the usual
    /// caps), with its EXDATEs and overrides not applied; a one-off event left out unread
    /// (outside the window, README "How calendars are read") counts from its DTSTART's date text
    /// minus one day. An event that is an error, a cancelled event, and the events of a file past
    /// its occurrence cap (see `incompleteFiles`) contribute nothing.
    public var nextEntry: [String: Int64] = [:]

    /// The per-event errors only.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}

/// Reads .ics files (RFC 5545) with libical and returns the occurrences inside a read window.
///
/// Pipeline stages: parse (libical), sanitize (impossible dates, unreadable values, unknown TZID:
/// the event becomes an error diagnostic), expand (inside the window only, with caps), filter (the
/// window, EXDATE, RECURRENCE-ID overrides, STATUS:CANCELLED). Time zones: a VTIMEZONE of the same
/// VCALENDAR, else an IANA name from tzdata, else a Windows name through CLDR's windowsZones;
/// floating times use X-WR-TIMEZONE, else the reader's zone.
///
/// - Warning: occurrences carry raw calendar text; see `Occurrence`.
public struct CalendarReader: Sendable {
    /// The user's zone: floating times, window arithmetic, all-day midnights.
    public var zone: CalendarZone
    /// Which occurrences to keep.
    public var window: ReadWindow

    /// The largest file read, in bytes (256 MB: about 600,000 events, decades of a busy family).
    public static let maximumFileSize = 256_000_000

    /// Tests only: walk every RRULE from DTSTART instead of skipping ahead to the window.
    var walksFromStart = false
    /// Tests only: hand every VEVENT to libical, also one-off events far outside the window.
    var readsEveryEvent = false

    /// Creates a reader.
    public init(zone: CalendarZone, window: ReadWindow) {
        self.zone = zone
        self.window = window
    }

    /// Reads the files at `paths` (as given by the user; diagnostics repeat them verbatim).
    /// A file that cannot be read becomes a `fileErrors` entry; the other files are still read.
    public func read(paths: [String]) -> IngestResult {
        let session = ReadSession(zone: zone.zone, window: window)
        session.skipAhead = !walksFromStart
        session.skipsOutsideWindow = !readsEveryEvent
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                session.fileErrors.append(.unreadableFile(path: path, reason: tr("no such file")))
                continue
            }
            if isDirectory.boolValue {
                session.fileErrors.append(.unreadableFile(path: path, reason: tr("is a directory")))
                continue
            }
            // A FIFO, a device (/dev/zero) or a socket would be read forever: regular files only.
            let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let attributes = try? FileManager.default.attributesOfItem(atPath: target)
            guard attributes?[.type] as? FileAttributeType == .typeRegular else {
                session.fileErrors.append(.unreadableFile(path: path, reason: tr("not a regular file")))
                continue
            }
            if let size = attributes?[.size] as? Int, size > Self.maximumFileSize {
                session.fileErrors.append(.unreadableFile(
                    path: path,
                    reason: tr("%ld MB is more than the %ld MB dictee reads; export a shorter period",
                               size / 1_000_000, Self.maximumFileSize / 1_000_000)))
                continue
            }
            guard let bytes = Self.contents(of: path) else {
                session.fileErrors.append(
                    .unreadableFile(path: path, reason: tr("permission denied or i/o error")))
                continue
            }
            session.read(bytes: bytes, name: path)
        }
        return session.finish()
    }

    /// The bytes of the regular file at `path`, read straight into one array (a 20 MB export is
    /// not copied through `Data` first), or `nil` when it cannot be opened or read.
    private static func contents(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        // The size is a hint: a file that grows while it is read is read to its end.
        var failed = false
        var bytes: [UInt8] = []
        var capacity = max(Int(status.st_size), 0) + 1
        while !failed {
            var chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = readAll(fd, buffer)
                if count < 0 { failed = true; count = 0 }
            }
            let full = chunk.count == capacity
            if bytes.isEmpty { swap(&bytes, &chunk) } else { bytes += chunk }
            if !full { break }
            capacity = 1 << 16
        }
        return failed ? nil : bytes
    }

    /// Reads calendar text already in memory; `name` stands for the file in diagnostics.
    public func read(bytes: [UInt8], name: String) -> IngestResult {
        let session = ReadSession(zone: zone.zone, window: window)
        session.skipAhead = !walksFromStart
        session.skipsOutsideWindow = !readsEveryEvent
        session.read(bytes: bytes, name: name)
        return session.finish()
    }

    /// Reads several calendar documents already in memory as ONE source (a vdir folder: one .ics per
    /// event; a CalDAV collection: one calendar object resource per href). Overrides and masters
    /// sharing a UID across documents are grouped as within one file. `name` of each document is what
    /// diagnostics say (a file path, or a URL without credentials).
    ///
    /// - Parameter documents: the documents in the order they are read (diagnostics follow it);
    ///   each is RFC 5545 text (a VCALENDAR, or a bare VEVENT), at most `maximumFileSize` bytes.
    ///   Names should be distinct: `incompleteFiles` and `nextEntry` are keyed by them.
    /// - Returns: one result for all of them, as `read(paths:)` gives for several files: a document
    ///   too large, or holding no calendar, is a `fileErrors` entry and the others are still read.
    /// - Warning: `name` is printed in diagnostics and may be stored; never put a password or a
    ///   token in it.
    public func read(documents: [(name: String, bytes: [UInt8])]) -> IngestResult {
        let session = ReadSession(zone: zone.zone, window: window)
        session.skipAhead = !walksFromStart
        session.skipsOutsideWindow = !readsEveryEvent
        for document in documents {
            if document.bytes.count > Self.maximumFileSize {
                session.fileErrors.append(.unreadableFile(
                    path: document.name,
                    reason: tr("%ld MB is more than the %ld MB dictee reads; export a shorter period",
                               document.bytes.count / 1_000_000, Self.maximumFileSize / 1_000_000)))
                continue
            }
            session.read(bytes: document.bytes, name: document.name)
        }
        return session.finish()
    }
}

/// Reads from `fd` until `buffer` is full or the file ends: how many bytes, or -1 on an error.
private func readAll(_ fd: Int32, _ buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
    var count = 0
    while count < buffer.count {
        let got = read(fd, buffer.baseAddress! + count, buffer.count - count)
        if got < 0 {
            if errno == EINTR { continue }
            return -1
        }
        if got == 0 { break }
        count += got
    }
    return count
}

/// One run of the reader: accumulates records from every file, then groups them by UID.
final class ReadSession {
    let configured: Zone
    let window: ReadWindow
    var fileErrors: [IngestError] = []
    var diagnostics: [Diagnostic] = []
    var records: [(record: EventRecord, instances: [Instance])] = []
    /// Per UID: the highest SEQUENCE of its masters (no RECURRENCE-ID) read so far, and the
    /// indices in `records` of the masters with it.
    private var newestMasters: [String: (sequence: Int, indices: [Int])] = [:]
    var eventCount = 0
    var skipAhead = true
    /// Leave one-off events far outside the window out of libical's input (`SkipRule`).
    var skipsOutsideWindow = true
    var incompleteFiles = Set<String>()
    /// Per document: the starts after the window that are less than a day after the earliest one
    /// met so far (`IngestResult.nextEntry` is computed from them in `finish`).
    private var nextStarts: [String: [Int64]] = [:]
    /// Per document: the earliest start bound of the events left out unread that start after
    /// the window.
    private var leftOutStart: [String: Int64] = [:]
    /// The events `SkipRule` left out, per file, until `finish` knows every UID of the session.
    private var leftOut: [LeftOut] = []
    /// IANA and Windows-name lookups, shared by all files (`nil`: known to fail).
    private var zoneCache: [String: Zone?] = [:]

    init(zone: Zone, window: ReadWindow) {
        self.configured = zone
        self.window = window
    }

    // MARK: Parse and sanitize

    func read(bytes input: [UInt8], name: String) {
        var bytes = input.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(input[3...]) : input
        sanitize(&bytes, name: name)
        let parser = ParseAhead(
            bytes: bytes, skipping: skipsOutsideWindow ? SkipRule(oneOff: window.oneOff) : nil)
        defer { parser.close() }
        let fullIndex = LineIndex(bytes: bytes)
        let layout = parser.layout
        let unclosed = layout.unclosedEvents
        // Left out events are counted (they are VEVENTs read) and never reach libical, so the
        // index that matches libical's events in order has neither them nor the unclosed ones.
        eventCount += layout.skipped.count
        var file = FileState(
            name: name,
            index: fullIndex.excluding(Set(unclosed).union(layout.skipped.lazy.map(\.range.lowerBound))))
        if !unclosed.isEmpty { incompleteFiles.insert(name) }
        defer {
            if !layout.skipped.isEmpty {
                let needsText = layout.skipped.contains { $0.uid != nil }
                leftOut.append(LeftOut(
                    name: name, bytes: needsText ? bytes : [], layout: layout, events: layout.skipped,
                    cappedAt: file.cappedAt))
            }
        }
        for offset in unclosed {
            let entry = fullIndex.entries.first { $0.byteRange.lowerBound == offset }
            eventCount += 1
            diagnostics.append(Diagnostic(
                severity: .error, location: SourceLocation(file: name, line: entry?.beginLine),
                uid: entry?.uid ?? "", code: "unclosed-event",
                message: "this VEVENT has no END:VEVENT before the next one begins; it is left out"))
        }
        var chunk = 0
        while let document = parser.take() {
            file.block = layout.block(ofChunk: chunk)
            chunk += 1
            document?.forEachCalendar { calendar in
                guard calendar.isCalendar || calendar.isBareEvent else { return }
                file.sawCalendar = true
                read(calendar, &file)
            }
            parser.recycle(document)
        }
        if parser.truncation != nil { incompleteFiles.insert(name) }
        switch parser.truncation {
        case .eventNotClosed(let offset):
            let entry = file.index.entries.first { $0.byteRange.lowerBound == offset }
            eventCount += 1
            diagnostics.append(Diagnostic(
                severity: .error, location: SourceLocation(file: name, line: entry?.beginLine),
                uid: entry?.uid ?? "", code: "truncated-event",
                message: "the file ends inside this VEVENT (a truncated export?); it is left out"))
        case .calendarNotClosed:
            diagnostics.append(Diagnostic(
                severity: .warning, location: SourceLocation(file: name, line: nil), uid: nil,
                code: "truncated-calendar",
                message: "the file ends without END:VCALENDAR (a truncated export?); its complete events are read"))
        case nil:
            break
        }
        if !file.sawCalendar {
            fileErrors.append(.notACalendar(path: name))
        } else if !file.capped {
            // A VEVENT libical did not return sits inside another component (a VCALENDAR pasted
            // into another when two exports are merged by hand, a VEVENT inside a VEVENT): never
            // lost in silence.
            let truncatedAt: Int? = if case .eventNotClosed(let offset) = parser.truncation { offset } else { nil }
            for entry in file.index.entries where !file.read.contains(entry.beginLine) && entry.byteRange.lowerBound != truncatedAt {
                eventCount += 1
                incompleteFiles.insert(name)
                diagnostics.append(Diagnostic(
                    severity: .error, location: SourceLocation(file: name, line: entry.beginLine),
                    uid: entry.uid ?? "", code: "nested-event",
                    message: "this VEVENT sits inside another component (two exports merged by hand?) and is not read; it is left out"))
            }
        }
    }

    /// Byte-level repairs libical needs: text that is not UTF-8 is read as Windows-1252
    /// (`Windows1252`), a NUL byte would end its input (every event after it lost), and lone CR
    /// line endings (old Mac exports) are read as line feeds.
    private func sanitize(_ bytes: inout [UInt8], name: String) {
        if Windows1252.repair(&bytes) {
            diagnostics.append(Diagnostic(
                severity: .warning, location: SourceLocation(file: name, line: nil), uid: nil,
                code: "not-utf8",
                message: "the file is not UTF-8 (RFC 5545 asks for UTF-8); its other bytes were read as Windows-1252 (Latin-1)"))
        }
        var nul = false
        let count = bytes.count
        // Looked for first without writing: the array is shared with the caller, and most
        // calendars have neither (no copy of a 20 MB file for nothing).
        let clean = bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            if memchr(base, 0, count) != nil { return false }
            var from = 0
            while from < count, let hit = memchr(base + from, 0x0D, count - from) {
                let k = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if k + 1 == count || base[k + 1] != 0x0A { return false }
                from = k + 2
            }
            return true
        }
        if clean { return }
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // memchr finds the rare bytes quickly; a calendar has no NUL and CRs before LFs.
            var from = 0
            while from < count, let hit = memchr(base + from, 0, count - from) {
                let k = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                base[k] = 0x20
                nul = true
                from = k + 1
            }
            from = 0
            while from < count, let hit = memchr(base + from, 0x0D, count - from) {
                let k = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if k + 1 == count || base[k + 1] != 0x0A { base[k] = 0x0A }
                from = k + 1
            }
        }
        if nul {
            diagnostics.append(Diagnostic(
                severity: .warning, location: SourceLocation(file: name, line: nil), uid: nil,
                code: "nul-byte", message: "the file contains NUL bytes; they were read as spaces"))
        }
    }

    /// What is known about the file being read, across its chunks.
    private struct FileState {
        var name: String
        var index: LineIndex
        var sawCalendar = false
        /// Ordinal of the next VEVENT in the file (libical keeps file order).
        var ordinal = 0
        var warnedAboutWRTimezone = false
        /// Occurrences found in the window so far, and whether the file passed the cap.
        var occurrences = 0
        /// Recurrence iterator steps taken so far (`ExpansionLimits.iterationsPerFile`).
        var steps = 0
        var capped = false
        /// The byte offset of the event at which the file passed the cap (0: unknown).
        var cappedAt: Int?
        /// The `BEGIN:VEVENT` lines libical gave an event for (the others were nested).
        var read = Set<Int>()
        /// The VCALENDAR of the file the chunk being read comes from (`nil`: the file is read
        /// whole), and the zones its TZIDs name: the chunks of one VCALENDAR repeat its
        /// VTIMEZONEs, which libical would otherwise expand again for each chunk.
        var block: Int?
        var blockZones: [Int: [String: Zone?]] = [:]
    }

    private func read(_ calendar: LibicalCalendar, _ file: inout FileState) {
        var calendarZones: [String: Zone?] = file.block.flatMap { file.blockZones[$0] } ?? [:]
        defer { if let block = file.block { file.blockZones[block] = calendarZones } }
        var floating = configured
        if let wr = calendar.wrTimezone {
            if let z = lookUpZone(wr) {
                floating = z
            } else if !file.warnedAboutWRTimezone {
                file.warnedAboutWRTimezone = true
                diagnostics.append(Diagnostic(
                    severity: .warning, location: SourceLocation(file: file.name, line: nil),
                    uid: nil, code: "unknown-tzid",
                    message: "X-WR-TIMEZONE names an unknown zone; floating times use \(configured.name)"))
            }
        }
        let index = file.index
        let name = file.name
        calendar.forEachEvent { event in
            defer { file.ordinal += 1 }
            eventCount += 1
            let uid = event.uid
            let entry = index.entry(ordinal: file.ordinal, uid: uid)
            if let entry { file.read.insert(entry.beginLine) }
            let context = EventContext(
                calendar: calendar, floating: floating, file: name, entry: entry, index: index)
            // Past the file's cap, the remaining events are not expanded (said once, above).
            if file.capped { return }
            // The file stops at this event, with one error naming it; what was read before stays.
            func cap(code: String, message: String) {
                file.capped = true
                file.cappedAt = entry?.byteRange.lowerBound ?? 0
                incompleteFiles.insert(name)
                diagnostics.append(Diagnostic(
                    severity: .error, location: SourceLocation(file: name, line: entry?.beginLine),
                    uid: uid ?? "", code: code, message: message + ": this event and the ones after it are left out"))
            }
            let stepsCap = "the file's recurrence rules need more than \(ExpansionLimits.iterationsPerFile) iterator "
                + "steps to walk the read window (a family's need thousands)"
            do throws(EventProblem) {
                var record = try makeRecord(event, uid: uid, context, &calendarZones)
                let expansion: Expansion
                do throws(EventProblem) {
                    expansion = try record.expansion(
                        in: record.isSeries || record.recurrenceID != nil
                            ? window.recurring : window.oneOff, skipAhead: skipAhead, steps: &file.steps)
                } catch {
                    if file.steps > ExpansionLimits.iterationsPerFile {
                        return cap(code: "too-many-steps", message: stepsCap)
                    }
                    throw error
                }
                if file.steps > ExpansionLimits.iterationsPerFile {
                    return cap(code: "too-many-steps", message: stepsCap)
                }
                var instances = expansion.instances
                // Versions of one event (a UID's masters) that a higher SEQUENCE supersedes give
                // nothing (`emit`): their instances are dropped as soon as a newer version is read
                // and do not count towards the file's cap, so 10,000 versions of a daily series
                // keep the newest.
                var superseded: [Int] = []
                let isMaster = record.recurrenceID == nil && !record.uid.isEmpty
                if isMaster, let newest = newestMasters[record.uid] {
                    if record.sequence < newest.sequence {
                        instances = []
                    } else if record.sequence > newest.sequence {
                        superseded = newest.indices
                        for k in superseded where records[k].record.source.file == name {
                            file.occurrences -= records[k].instances.count
                        }
                    }
                }
                file.occurrences += instances.count
                if file.occurrences > ExpansionLimits.occurrencesPerFile {
                    return cap(
                        code: "too-many-occurrences",
                        message: "the file has more than \(ExpansionLimits.occurrencesPerFile) occurrences in the read window "
                            + "(a family has hundreds)")
                }
                if instances.isEmpty {
                    // Kept for grouping by UID (it may be the master of an override), but its text
                    // is never shown: drop it now rather than hold 50,000 descriptions.
                    record.summary = ""
                    record.location = ""
                    record.eventDescription = ""
                }
                if !record.isCancelled {
                    // An override stands in for a series' or a one-off's instance: either window.
                    let next = record.recurrenceID != nil && !record.isSeries
                        ? (record.start.instant >= min(window.oneOff.upperBound, window.recurring.upperBound)
                            ? record.start.instant : nil)
                        : expansion.nextStart
                    if let next { noteEntry(name, start: next) }
                }
                for k in superseded {
                    records[k].instances = []
                    records[k].record.summary = ""
                    records[k].record.location = ""
                    records[k].record.eventDescription = ""
                }
                if isMaster {
                    if !superseded.isEmpty { newestMasters[record.uid] = nil }
                    if record.sequence >= newestMasters[record.uid]?.sequence ?? record.sequence {
                        newestMasters[record.uid, default: (record.sequence, [])].indices.append(records.count)
                    }
                }
                records.append((record, instances))
            } catch {
                var line = entry.map { index.line(of: error.property, value: error.value, in: $0) }
                if error.code == "unknown-tzid", let entry {
                    // Point at the first property, in file order, whose TZID does not resolve.
                    let first = index.contentLines(of: entry).first { content in
                        guard let tzid = LineIndex.tzid(of: content) else { return false }
                        if let known = calendarZones[tzid] { return known == nil }
                        return calendar.definedZone(tzid: tzid) == nil && lookUpZone(tzid) == nil
                    }
                    line = first?.line ?? line
                }
                diagnostics.append(Diagnostic(
                    severity: .error, location: SourceLocation(file: name, line: line),
                    uid: uid ?? "", code: error.code, message: error.message))
            }
        }
    }

    private struct EventContext {
        var calendar: LibicalCalendar
        var floating: Zone
        var file: String
        var entry: LineIndex.Entry?
        var index: LineIndex
    }

    /// Properties whose problems make the event unreadable; problems elsewhere are warnings.
    private static let timingProperties: Set<String> = [
        "DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID", "STATUS",
    ]

    private func makeRecord(
        _ event: LibicalEvent, uid: String?, _ context: EventContext,
        _ calendarZones: inout [String: Zone?]
    ) throws(EventProblem) -> EventRecord {
        for problem in event.problems {
            if let property = problem.property, Self.timingProperties.contains(property) {
                throw EventProblem(
                    code: property == "RRULE" ? "broken-rrule" : "unreadable-value",
                    message: property == "RRULE"
                        ? "recurrence rule cannot be read (RFC 5545 3.3.10)"
                        : "\(property) value cannot be read",
                    property: property, value: problem.value)
            }
            // An empty value ("SUMMARY:", "DESCRIPTION:") is legal and common; libical drops the
            // property with a "No value" note, which reads as the empty string here.
            if problem.message.hasPrefix("No value for") { continue }
            let line = context.entry.map {
                context.index.line(of: problem.property, value: problem.value, in: $0)
            }
            diagnostics.append(Diagnostic(
                severity: .warning, location: SourceLocation(file: context.file, line: line),
                uid: uid ?? "", code: "ignored-value",
                message: "\(problem.property ?? "a property") could not be read and was ignored"))
        }

        guard let rawStart = event.dtstart else {
            throw EventProblem(
                code: "missing-dtstart", message: "VEVENT has no DTSTART", property: nil, value: nil)
        }
        let start = try resolve(rawStart, "DTSTART", context, &calendarZones)
        var end = EndSpec.none
        if let rawEnd = event.dtend {
            var e = try resolve(rawEnd, "DTEND", context, &calendarZones, dateZone: start.zone)
            if e.isDate, !start.isDate {
                // A DATE end on a timed start: local midnight in the start's zone.
                e.zone = start.zone
                e.instant = start.zone.instant(of: e.local)
            }
            end = .time(e)
        } else if event.hasDuration {
            guard let duration = event.duration, let text = event.durationText,
                  DurationValue.isPlausible(duration, written: text) else {
                throw EventProblem(
                    code: "unreadable-value",
                    message: "DURATION is unreadable or longer than ten years; the event is left out",
                    property: "DURATION", value: nil)
            }
            end = .duration(duration)
        }

        var rules: [RecurrenceRule] = []
        for rule in event.rrules {
            if let scale = rule.rscale, scale != "GREGORIAN" {
                // RFC 7529 calendars (CHINESE, HEBREW...): libical 3.0 expands them as Gregorian
                // (wrong dates) or not at all; an error is better than a wrong day.
                throw EventProblem(
                    code: "broken-rrule",
                    message: "recurrence rule uses a non-Gregorian calendar (RSCALE, RFC 7529) that cannot be expanded here; the event is left out",
                    property: "RRULE", value: nil)
            }
            guard rule.frequency != .none, rule.interval >= 1 else {
                throw EventProblem(
                    code: "broken-rrule", message: "recurrence rule has no valid FREQ or INTERVAL",
                    property: "RRULE", value: nil)
            }
            if let until = rule.until, !until.local.isValid {
                throw EventProblem(
                    code: "invalid-date", message: "UNTIL is not a real date",
                    property: "RRULE", value: nil)
            }
            rules.append(rule)
        }
        var rdates: [(start: ResolvedTime, end: EndSpec?)] = []
        for r in event.rdates {
            let s = try resolve(r.start, "RDATE", context, &calendarZones, dateZone: start.zone)
            var periodEnd: EndSpec?
            if let e = r.periodEnd {
                periodEnd = .time(try resolve(e, "RDATE", context, &calendarZones))
            } else if let d = r.periodDuration {
                periodEnd = .duration(d)
            }
            rdates.append((s, periodEnd))
        }
        var exdates: [ResolvedTime] = []
        for x in event.exdates {
            exdates.append(try resolve(x, "EXDATE", context, &calendarZones, dateZone: start.zone))
        }
        var recurrenceID: ResolvedTime?
        if let rid = event.recurrenceID {
            recurrenceID = try resolve(rid, "RECURRENCE-ID", context, &calendarZones, dateZone: start.zone)
            // A component with RECURRENCE-ID is one instance (RFC 5545 section 3.8.4.4): the copy
            // of the master's RRULE (and RDATE, EXDATE) some apps write into every modified
            // instance is not a second series.
            rules = []
            rdates = []
            exdates = []
        }
        return EventRecord(
            uid: uid ?? "", summary: event.summary ?? "", location: event.location ?? "",
            eventDescription: event.eventDescription ?? "",
            source: SourceLocation(file: context.file, line: context.entry?.beginLine),
            sequence: event.sequence, isCancelled: event.isCancelled, start: start, end: end,
            rules: rules, rdates: rdates, exdates: exdates, recurrenceID: recurrenceID)
    }

    /// Resolves a property time through its zone. DATE values are read in the user's zone (or
    /// `dateZone`, the series' zone, for EXDATE/RDATE/RECURRENCE-ID on a timed series).
    private func resolve(
        _ t: PropertyTime, _ property: String, _ context: EventContext,
        _ calendarZones: inout [String: Zone?], dateZone: Zone? = nil
    ) throws(EventProblem) -> ResolvedTime {
        guard t.local.isValid else {
            let d = t.local.date
            let compact = String(d.year).leftPadded(4) + String(d.month).leftPadded(2)
                + String(d.day).leftPadded(2)
            let shown = t.isDate ? compact : compact + "T" + String(t.local.hour).leftPadded(2)
                + String(t.local.minute).leftPadded(2) + String(t.local.second).leftPadded(2)
            throw EventProblem(
                code: "invalid-date",
                message: "\(property) is not a real date or time (\(shown))",
                property: property, value: compact)
        }
        if t.isDate {
            // All-day values are calendar dates; their instant (for the window) is local midnight
            // in the user's zone, or in the series' zone when matched against a timed series.
            return ResolvedTime(
                local: t.local, isDate: true, zone: configured,
                instant: (dateZone ?? configured).instant(of: t.local))
        }
        let zone: Zone
        if t.isUTC {
            zone = .utc
        } else if let tzid = t.tzid {
            if let cached = calendarZones[tzid] {
                guard let z = cached else { throw unknownTZID(property) }
                zone = z
            } else {
                let z = context.calendar.definedZone(tzid: tzid) ?? lookUpZone(tzid)
                calendarZones[tzid] = .some(z)
                guard let z else { throw unknownTZID(property) }
                zone = z
            }
        } else if let dateZone, property != "DTEND" {
            // A floating EXDATE, RDATE or RECURRENCE-ID belongs to its series: read it in the
            // series' zone (RFC 5545 3.8.5.1: same value type and zone as DTSTART).
            zone = dateZone
        } else {
            zone = context.floating
        }
        return ResolvedTime(local: t.local, isDate: false, zone: zone, instant: zone.instant(of: t.local))
    }

    private func unknownTZID(_ property: String) -> EventProblem {
        EventProblem(
            code: "unknown-tzid",
            message: "\(property) names a time zone that is not usable: no valid VTIMEZONE of that "
                + "name in the file, not in tzdata, not a Windows zone name", property: property, value: nil)
    }

    /// An IANA name (also behind a vendor prefix such as `/mozilla.org/20050126_1/Europe/Paris` or
    /// libical's `/freeassociation.sourceforge.net/`), else a Windows zone name (CLDR).
    func lookUpZone(_ name: String) -> Zone? {
        if let cached = zoneCache[name] { return cached }
        var found = Zone.builtin(name)
        if found == nil, name.contains("/"), name.utf8.count <= 256 {
            // A vendor prefix (`/example.org/Europe/Stockholm`) or a global TZID without one
            // (`/Europe/Stockholm`, RFC 5545 section 3.2.19): try the last three, then two components.
            let parts = name.split(separator: "/")
            for k in [3, 2] where found == nil && parts.count >= k {
                found = Zone.builtin(parts.suffix(k).joined(separator: "/"))
            }
        }
        if found == nil, let iana = WindowsZones.ianaName(forWindowsName: name) {
            found = Zone.builtin(iana)
        }
        zoneCache[name] = .some(found)
        return found
    }

    // MARK: Events left out

    /// The events of one file that `SkipRule` left out of libical's input.
    private struct LeftOut {
        var name: String
        /// The file's sanitized bytes, kept while one of the events may still have to be read
        /// (empty when none has a UID).
        var bytes: [UInt8]
        var layout: CalendarLayout
        var events: [SkippedEvent]
        var cappedAt: Int?
    }

    /// Records that `name` has an occurrence starting at `start`, after the window.
    private func noteEntry(_ name: String, start: Int64) {
        // The entry of a start is not computed for every event (it asks libical for zone offsets
        // of days no other event has). A later start enters the window later, except across a DST
        // fold, which shifts the wall clock by an hour or two: the starts within a day of the
        // earliest one are kept, and the earliest of their entries is taken.
        guard var starts = nextStarts[name], let earliest = starts.min() else {
            nextStarts[name] = [start]
            return
        }
        if start < earliest {
            starts = [start] + starts.filter { $0 <= start + 86_400 }
        } else if start <= earliest + 86_400, !starts.contains(start) {
            starts.append(start)
        } else {
            return
        }
        nextStarts[name] = starts
    }

    /// `IngestResult.nextEntry`: the earliest entry per document, of its events read and of its
    /// events left out.
    private func entries() -> [String: Int64] {
        var result: [String: Int64] = [:]
        for (name, starts) in nextStarts {
            result[name] = starts.map { ReadWindow.now(whenEntering: $0, zone: configured) }.min()
        }
        for (name, start) in leftOutStart {
            let now = ReadWindow.now(whenEntering: start, zone: configured)
            result[name] = min(result[name] ?? now, now)
        }
        return result
    }

    /// Reads after all, now that every file of the session is known, the left out events whose UID
    /// another read VEVENT has (a master, an override, another version or a copy in another file):
    /// grouped with it, they take part exactly as if they had never been left out. The others
    /// contribute to `nextEntry` from their DTSTART text alone.
    private func readLeftOutEvents() {
        guard !leftOut.isEmpty else { return }
        var readUIDs = Set<Int>()
        for entry in records where !entry.record.uid.isEmpty {
            readUIDs.insert(UIDKey.of(entry.record.uid))
        }
        for file in leftOut {
            var late: [SkippedEvent] = []
            for event in file.events {
                if let capped = file.cappedAt, event.range.lowerBound > capped { continue }  // never read
                if let uid = event.uid, readUIDs.contains(uid) {
                    late.append(event)
                } else if event.startFields >= window.oneOff.upperBound {
                    // The start instant is the fields minus an offset under 18 hours: a day less
                    // is early enough, with hours to spare for a DST fold, to take the earliest.
                    let bound = event.startFields - 86_400
                    leftOutStart[file.name] = min(leftOutStart[file.name] ?? bound, bound)
                }
            }
            if !late.isEmpty { read(late, of: file) }
        }
        leftOut = []
    }

    private func read(_ events: [SkippedEvent], of leftOut: LeftOut) {
        let text = leftOut.layout.text(of: events, in: leftOut.bytes)
        guard let document = text.withUnsafeBytes({ LibicalDocument(bytes: $0) }) else { return }
        let index = LineIndex(bytes: leftOut.bytes).keeping(Set(events.map(\.range.lowerBound)))
        var file = FileState(name: leftOut.name, index: index)
        file.sawCalendar = true
        file.warnedAboutWRTimezone = true  // said when the file was read, if it had to be
        eventCount -= events.count  // counted when left out, counted again by read(_:_:)
        document.forEachCalendar { calendar in
            guard calendar.isCalendar else { return }
            read(calendar, &file)
        }
    }

    // MARK: Filter

    func finish() -> IngestResult {
        readLeftOutEvents()
        var byUID: [String: [Int]] = [:]
        for (k, entry) in records.enumerated() {
            byUID[entry.record.uid.isEmpty ? "\u{0}\(k)" : entry.record.uid, default: []].append(k)
        }
        var output: [(key: SortKey, occurrence: Occurrence)] = []
        output.reserveCapacity(records.count)
        for (_, members) in byUID {
            emit(group: members, into: &output)
        }
        // Sort small indices rather than moving whole occurrences around.
        let order = output.indices.sorted { a, b in
            let ka = output[a].key, kb = output[b].key
            return ka.start != kb.start ? ka.start < kb.start : ka < kb
        }
        var result = IngestResult(
            occurrences: order.map { output[$0].occurrence }, diagnostics: diagnostics,
            fileErrors: fileErrors, eventCount: eventCount)
        result.incompleteFiles = incompleteFiles
        result.nextEntry = entries()
        return result
    }

    private func emit(
        group: [Int], into output: inout [(key: SortKey, occurrence: Occurrence)]
    ) {
        var masters: [Int] = []
        var overrides: [Int] = []
        for k in group {
            if records[k].record.recurrenceID == nil { masters.append(k) } else { overrides.append(k) }
        }
        // Several versions of one event (the same UID): the highest SEQUENCE supersedes the others
        // (RFC 5545 3.8.7.4); exact duplicates (the same export imported twice) count once.
        if masters.count > 1 {  // most UIDs have one VEVENT
            if let newest = masters.map({ records[$0].record.sequence }).max() {
                masters = masters.filter { records[$0].record.sequence == newest }
            }
            var seenMasters = Set<MasterKey>()
            masters = masters.filter { k in
                let r = records[k].record
                return seenMasters.insert(MasterKey(
                    start: r.start.instant, isSeries: r.isSeries, summary: r.summary,
                    instances: records[k].instances.count)).inserted
            }
        }
        // Several overrides of one slot: the highest SEQUENCE wins, then the last in the file.
        var bySlot: [String: Int] = [:]
        for k in overrides {
            let rid = records[k].record.recurrenceID!
            let key = rid.isDate ? "d\(rid.local.date)" : "i\(rid.instant)"
            if let other = bySlot[key], records[other].record.sequence > records[k].record.sequence {
                continue
            }
            bySlot[key] = k
        }
        overrides = Array(bySlot.values)
        let slots = overrides.map { records[$0].record.recurrenceID! }

        var hasSeriesMaster = false
        for k in masters {
            let record = records[k].record
            if record.isSeries { hasSeriesMaster = true }
            if record.isCancelled { continue }
            // EXDATE and RECURRENCE-ID remove an instance by instant; a DATE on either side matches
            // by the local date (RFC 5545 3.8.5.1, 3.8.4.4). Sets give lookups in constant time.
            var removedInstants = Set<Int64>()
            var removedDates = Set<CalendarDate>()
            let removers = record.exdates + slots
            for slot in removers {
                if slot.isDate { removedDates.insert(slot.local.date) } else { removedInstants.insert(slot.instant) }
            }
            for instance in records[k].instances {
                if removedDates.contains(instance.start.local.date) { continue }
                if instance.start.isDate {
                    // A DATE-TIME EXDATE against an all-day series matches by its written date.
                    if removers.contains(where: { !$0.isDate && $0.local.date == instance.start.local.date }) {
                        continue
                    }
                } else if removedInstants.contains(instance.start.instant) {
                    continue
                }
                append(record, start: instance.start, period: instance.period,
                       recurring: record.isSeries, into: &output)
            }
        }
        // A cancelled series takes its moved instances with it.
        let seriesCancelled = !masters.isEmpty && masters.allSatisfy { records[$0].record.isCancelled }
        // The newest master decides which slots still exist: an override of a slot it excludes
        // (EXDATE wins over inclusion, RFC 5545 3.8.5.3), or of a slot inside the window that is
        // no longer one of its instances (UNTIL shortened, the rule changed), is an edit of a
        // deleted occurrence and is dropped.
        let liveMasters = masters.filter { !records[$0].record.isCancelled && records[$0].record.isSeries }
        func stillExists(_ rid: ResolvedTime) -> Bool {
            guard !liveMasters.isEmpty else { return true }
            return liveMasters.contains { m in
                let master = records[m].record
                let excluded = master.exdates.contains { x in
                    x.isDate || rid.isDate ? x.local.date == rid.local.date : x.instant == rid.instant
                }
                if excluded { return false }
                guard window.recurring.contains(rid.instant) else { return true }
                return records[m].instances.contains { i in
                    i.start.isDate || rid.isDate ? i.start.local.date == rid.local.date : i.start.instant == rid.instant
                }
            }
        }
        for k in overrides where !seriesCancelled {
            let (record, instances) = records[k]
            if record.isCancelled { continue }
            if let rid = record.recurrenceID, !stillExists(rid) { continue }
            // An override of a series, or an orphan (master absent), is recurring; an override of a
            // one-off event stands in for that event and follows the one-off window.
            let recurring = hasSeriesMaster || masters.isEmpty
            let range = recurring ? window.recurring : window.oneOff
            if record.isSeries {
                for instance in instances {
                    append(record, start: instance.start, period: instance.period, recurring: true,
                           into: &output)
                }
            } else if range.contains(record.start.instant) {
                append(record, start: record.start, period: nil, recurring: recurring, into: &output)
            }
        }
    }

    /// What makes two masters of one UID the same export read twice.
    private struct MasterKey: Hashable {
        var start: Int64
        var isSeries: Bool
        var summary: String
        var instances: Int
    }

    /// Output order: start instant, then UID, then end; then file, line and title so that events
    /// without a UID (or sharing one) come out in the same order on every run.
    struct SortKey: Comparable {
        var start: Int64
        var uid: String
        var end: Int64
        var file: String
        var line: Int
        var summary: String
        static func < (a: SortKey, b: SortKey) -> Bool {
            (a.start, a.uid, a.end, a.file, a.line, a.summary) < (b.start, b.uid, b.end, b.file, b.line, b.summary)
        }
    }

    private func append(
        _ record: EventRecord, start: ResolvedTime, period: EndSpec?, recurring: Bool,
        into output: inout [(key: SortKey, occurrence: Occurrence)]
    ) {
        let end = record.end(ofInstanceAt: start, period: period)
        let endKey: Int64
        switch end {
        case .instant(let s): endKey = s
        case .date(let d): endKey = configured.instant(of: LocalDateTime(date: d))
        }
        let occurrence = Occurrence(
            uid: record.uid, summary: record.summary, location: record.location,
            eventDescription: record.eventDescription,
            start: start.isDate ? .date(start.local.date) : .instant(start.instant), end: end,
            isRecurring: recurring, source: record.source)
        output.append((SortKey(start: start.instant, uid: record.uid, end: endKey,
                               file: record.source.file, line: record.source.line ?? 0,
                               summary: record.summary), occurrence))
    }
}
