import DicteeCore
import Foundation

/// Where each VEVENT of a file starts, so that diagnostics can name a physical line.
///
/// libical reports problems without line numbers. This index walks the raw bytes once (cheap: no
/// decoding, no copies) and records, for the n-th `BEGIN:VEVENT` of the file, its line, byte range
/// and UID. libical keeps components in file order, so the n-th VEVENT libical returns is the n-th
/// entry here; the UID confirms the match. It is not a parser: values are read by libical only.
struct LineIndex {
    struct Entry {
        /// 1-based physical line of `BEGIN:VEVENT`.
        var beginLine: Int
        /// Byte offsets of the component's text, `BEGIN:VEVENT` to the end of `END:VEVENT`.
        var byteRange: Range<Int>
        /// The unfolded UID value, if any.
        var uid: String?
    }

    /// One logical (unfolded) content line.
    struct ContentLine {
        /// Property name, upper case.
        var name: String
        /// Everything after the first `:` outside double quotes, unfolded.
        var value: String
        /// The parameters between the name and the value, e.g. `;TZID=Europe/Paris`.
        var parameters: String
        /// 1-based physical line where it starts.
        var line: Int
    }

    private(set) var entries: [Entry] = []
    private let bytes: [UInt8]

    /// Indexes `bytes` (the file without its BOM).
    init(bytes: [UInt8]) {
        self.bytes = bytes
        var entries: [Entry] = []
        bytes.withUnsafeBufferPointer { buffer in
            Self.index(bytes, buffer, into: &entries)
        }
        self.entries = entries
    }

    /// The walk of `init(bytes:)`: `buffer` is `bytes`' storage, for finding line ends quickly.
    private static func index(_ bytes: [UInt8], _ buffer: UnsafeBufferPointer<UInt8>, into entries: inout [Entry]) {
        guard let base = buffer.baseAddress else { return }
        var line = 1
        var i = 0
        let n = bytes.count
        var openBegin: (line: Int, offset: Int)?
        var uid: String?
        var depth = 0  // nested components inside the open VEVENT (VALARM)
        while i < n {
            // Find the end of this physical line.
            let j = memchr(base + i, 0x0A, n - i).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? n
            var end = j
            if end > i, bytes[end - 1] == 0x0D { end -= 1 }
            let first = i < end ? bytes[i] : 0
            if first == 0x42 || first == 0x62 {  // B/b
                if RawLines.isExactly(bytes, i, end, "BEGIN:VEVENT") {
                    if let open = openBegin {
                        // The open VEVENT never got its END line (CalendarLayout closes it too).
                        entries.append(Entry(beginLine: open.line, byteRange: open.offset..<i, uid: uid))
                    }
                    openBegin = (line, i)
                    uid = nil
                    depth = 0
                } else if openBegin != nil, RawLines.hasPrefix(bytes, i, end, "BEGIN:") {
                    depth += 1
                }
            } else if first == 0x45 || first == 0x65, let open = openBegin {  // E/e
                if RawLines.hasPrefix(bytes, i, end, "END:") {
                    if depth == 0, RawLines.isExactly(bytes, i, end, "END:VEVENT") {
                        entries.append(Entry(beginLine: open.line, byteRange: open.offset..<min(j + 1, n), uid: uid))
                        openBegin = nil
                    } else if depth > 0 {
                        depth -= 1
                    }
                }
            } else if (first == 0x55 || first == 0x75), depth == 0, openBegin != nil,
                uid == nil, RawLines.hasPrefix(bytes, i, end, "UID"), end > i + 3,
                bytes[i + 3] == 0x3A || bytes[i + 3] == 0x3B
            {
                uid = unfoldedValue(bytes, from: i, lineEnd: end, next: j + 1)
            }
            line += 1
            i = j + 1
        }
        if let open = openBegin {  // unterminated VEVENT: up to the end of the file
            entries.append(Entry(beginLine: open.line, byteRange: open.offset..<n, uid: uid))
        }
    }

    /// The entry for the `ordinal`-th VEVENT libical returned, checked against its UID; when the
    /// order disagrees (malformed nesting), the first entry with that UID at or after it.
    func entry(ordinal: Int, uid: String?) -> Entry? {
        if ordinal < entries.count, entries[ordinal].uid == uid { return entries[ordinal] }  // the usual case
        let wanted = uid.map(Self.comparable)
        if ordinal < entries.count, entries[ordinal].uid.map(Self.comparable) == wanted { return entries[ordinal] }
        if let wanted {
            if let found = entries[min(ordinal, entries.count)...].first(where: { $0.uid.map(Self.comparable) == wanted }) {
                return found
            }
            return entries.first(where: { $0.uid.map(Self.comparable) == wanted })
        }
        return ordinal < entries.count ? entries[ordinal] : nil
    }

    /// The index without the VEVENTs starting at `offsets` (those libical is not given).
    func excluding(_ offsets: Set<Int>) -> LineIndex {
        guard !offsets.isEmpty else { return self }
        var copy = self
        copy.entries.removeAll { offsets.contains($0.byteRange.lowerBound) }
        return copy
    }

    /// The index of the VEVENTs starting at `offsets` only (those libical is given late).
    func keeping(_ offsets: Set<Int>) -> LineIndex {
        var copy = self
        copy.entries.removeAll { !offsets.contains($0.byteRange.lowerBound) }
        return copy
    }

    /// A UID as libical returns it: TEXT escapes undone, surrounding white space trimmed.
    private static func comparable(_ uid: String) -> String {
        guard uid.utf8.contains(where: { $0 == 0x5C || $0 == 0x20 || $0 == 0x09 }) else { return uid }
        return uid.replacingOccurrences(of: "\\,", with: ",").replacingOccurrences(of: "\\;", with: ";")
            .replacingOccurrences(of: "\\\\", with: "\\").trimmingCharacters(in: .whitespaces)
    }

    /// The content lines of an entry, unfolded, with their first physical line.
    func contentLines(of entry: Entry) -> [ContentLine] {
        var result: [ContentLine] = []
        var i = entry.byteRange.lowerBound
        let n = entry.byteRange.upperBound
        var line = entry.beginLine
        var current: (start: Int, bytes: [UInt8])?
        func flush() {
            guard let c = current else { return }
            let text = String(decoding: c.bytes, as: UTF8.self)
            var name = ""
            var value = ""
            var parameters = ""
            var inQuotes = false
            var nameEnded = false
            for (k, ch) in text.enumerated() {
                if ch == "\"" { inQuotes.toggle() }
                if !nameEnded, ch == ";" || ch == ":" { nameEnded = true }
                if !nameEnded { name.append(ch) } else if ch != ":" || inQuotes { parameters.append(ch) }
                if ch == ":" && !inQuotes {
                    value = String(text.dropFirst(k + 1))
                    break
                }
            }
            result.append(ContentLine(
                name: name.uppercased(), value: value, parameters: parameters, line: c.start))
            current = nil
        }
        while i < n {
            var j = i
            while j < n, bytes[j] != 0x0A { j += 1 }
            var end = j
            if end > i, bytes[end - 1] == 0x0D { end -= 1 }
            if i < end, bytes[i] == 0x20 || bytes[i] == 0x09, current != nil {
                current!.bytes.append(contentsOf: bytes[(i + 1)..<end])
            } else {
                flush()
                current = (line, Array(bytes[i..<end]))
            }
            line += 1
            i = j + 1
        }
        flush()
        return result
    }

    /// The physical line of `property` in `entry` (the first one whose value contains `value`, when
    /// given), else the entry's BEGIN:VEVENT line.
    func line(of property: String?, value: String?, in entry: Entry) -> Int {
        guard let property else { return entry.beginLine }
        let candidates = contentLines(of: entry).filter { $0.name == property }
        if let value, let hit = candidates.first(where: { $0.value.contains(value) }) {
            return hit.line
        }
        return candidates.first?.line ?? entry.beginLine
    }

    /// The `TZID` parameter of a content line (quotes removed), if any.
    static func tzid(of line: ContentLine) -> String? {
        var rest = Substring(line.parameters)
        while let r = rest.range(of: "TZID=", options: .caseInsensitive) {
            let before = rest[..<r.lowerBound]
            rest = rest[r.upperBound...]
            guard before.isEmpty || before.hasSuffix(";") else { continue }
            var value = ""
            var inQuotes = false
            for ch in rest {
                if ch == "\"" { inQuotes.toggle(); continue }
                if ch == ";" && !inQuotes { break }
                value.append(ch)
            }
            return value
        }
        return nil
    }

    private static func unfoldedValue(_ b: [UInt8], from i: Int, lineEnd: Int, next: Int) -> String {
        var raw = Array(b[i..<lineEnd])
        var k = next
        while k < b.count, b[k] == 0x20 || b[k] == 0x09 {
            var j = k
            while j < b.count, b[j] != 0x0A { j += 1 }
            var e = j
            if e > k, b[e - 1] == 0x0D { e -= 1 }
            raw.append(contentsOf: b[(k + 1)..<e])
            k = j + 1
        }
        var inQuotes = false
        for (idx, byte) in raw.enumerated() {
            if byte == 0x22 { inQuotes.toggle() }
            if byte == 0x3A && !inQuotes {
                return String(decoding: raw[(idx + 1)...], as: UTF8.self)
            }
        }
        return ""
    }
}
