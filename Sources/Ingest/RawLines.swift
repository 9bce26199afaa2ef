/// Byte-level helpers shared by `LineIndex` and `CalendarLayout`, which find BEGIN/END lines and
/// property names in raw calendar bytes without decoding them. RFC 5545 names are ASCII and
/// case-insensitive (section 3.1); letters are compared with their case bit cleared.
enum RawLines {
    /// Whether the line `b[i..<end]` starts with `prefix`, ignoring ASCII case.
    static func hasPrefix(_ b: [UInt8], _ i: Int, _ end: Int, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard end - i >= count else { return false }
        let p = prefix.utf8Start
        for k in 0..<count where b[i + k] & 0xDF != p[k] & 0xDF { return false }
        return true
    }

    /// Whether the line `b[i..<end]` is exactly `text` (any case), trailing blanks allowed.
    static func isExactly(_ b: [UInt8], _ i: Int, _ end: Int, _ text: StaticString) -> Bool {
        guard hasPrefix(b, i, end, text) else { return false }
        var k = i + text.utf8CodeUnitCount
        while k < end, b[k] == 0x20 || b[k] == 0x09 { k += 1 }
        return k == end
    }
}
