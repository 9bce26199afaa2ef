/// Calendars that are not UTF-8: some exporters (old Outlook, hand-made files) write Latin-1 or
/// Windows-1252, although RFC 5545 section 3.1.4 requires UTF-8. Read naively, every accented byte
/// becomes U+FFFD, a word separator: "H\u{F4}pital" would read as "H pital" and slip past the
/// disqualifiers. So each byte that does not start a valid UTF-8 sequence is read as the
/// Windows-1252 character it stands for (a superset of Latin-1 for printable text), and valid UTF-8
/// is kept as it is: a mostly UTF-8 file with one stray byte loses nothing.
enum Windows1252 {
    /// Windows-1252's 0x80–0x9F (the rest of 0x80–0xFF is Latin-1, i.e. the same code point);
    /// the five undefined bytes are read as their C1 control code points.
    static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// Rewrites `bytes` as UTF-8 when they are not: valid sequences are kept, every other byte is
    /// read as Windows-1252.
    /// - Returns: whether anything was rewritten (then the caller warns that the file is not UTF-8).
    static func repair(_ bytes: inout [UInt8]) -> Bool {
        if isValidUTF8(bytes) { return false }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var i = 0
        var changed = false
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                out.append(b)
                i += 1
                continue
            }
            let length = sequenceLength(bytes, at: i)
            if length > 0 {
                out.append(contentsOf: bytes[i..<(i + length)])
                i += length
                continue
            }
            let scalar = b < 0xA0 ? high[Int(b - 0x80)] : UInt32(b)
            out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            changed = true
            i += 1
        }
        // Only folds inside sequences: the bytes are UTF-8 once unfolded, nothing to say.
        guard changed else { return false }
        bytes = out
        return true
    }

    /// Whether `bytes` are valid UTF-8 (RFC 3629 section 4, as `String(validating:)` checks it),
    /// without building a string: eight ASCII bytes at a time, the rest by `sequenceLength` with
    /// no fold allowed inside a sequence.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return true }
            let n = buffer.count
            var i = 0
            while i < n {
                if i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
                let b = base[i]
                if b < 0x80 {
                    i += 1
                    continue
                }
                // Two-byte sequences (é, è, à, ç...) without the general case's closures.
                if b >= 0xC2, b <= 0xDF, i + 1 < n, base[i + 1] & 0xC0 == 0x80 {
                    i += 2
                    continue
                }
                let length = sequenceLength(buffer, at: i, folds: false)
                if length == 0 { return false }
                i += length
            }
            return true
        }
    }

    /// The length in bytes of the valid UTF-8 sequence starting at `i`, or 0 when there is none
    /// (RFC 3629 section 4: no overlong forms, no surrogates, nothing above U+10FFFF). A folded
    /// line (RFC 5545 section 3.1: CRLF or LF, then a space or a tab) may fall inside a sequence,
    /// as some exporters fold at a byte count: the fold is skipped and counted in the length.
    static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        bytes.withUnsafeBufferPointer { sequenceLength($0, at: i, folds: true) }
    }

    /// `sequenceLength(_:at:)`; with `folds: false`, a fold inside the sequence makes it invalid.
    static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, folds: Bool) -> Int {
        let b = bytes[i]
        var next = i + 1
        /// The next byte, past any fold, must be in `range`.
        func continuation(_ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            var k = next
            while folds {
                if k + 1 < bytes.count, bytes[k] == 0x0A, bytes[k + 1] == 0x20 || bytes[k + 1] == 0x09 { k += 2; continue }
                if k + 2 < bytes.count, bytes[k] == 0x0D, bytes[k + 1] == 0x0A, bytes[k + 2] == 0x20 || bytes[k + 2] == 0x09 { k += 3; continue }
                break
            }
            guard k < bytes.count, range.contains(bytes[k]) else { return false }
            next = k + 1
            return true
        }
        let valid: Bool = switch b {
        case 0xC2...0xDF: continuation()
        case 0xE0: continuation(0xA0...0xBF) && continuation()
        case 0xE1...0xEC, 0xEE...0xEF: continuation() && continuation()
        case 0xED: continuation(0x80...0x9F) && continuation()
        case 0xF0: continuation(0x90...0xBF) && continuation() && continuation()
        case 0xF1...0xF3: continuation() && continuation() && continuation()
        case 0xF4: continuation(0x80...0x8F) && continuation() && continuation()
        default: false
        }
        return valid ? next - i : 0
    }
}
