/// JSON string literals (RFC 8259 section 7), written the same way everywhere dictee writes JSON:
/// `"` and `\` escaped, control characters as `\n`, `\r`, `\t` or `\u00XX`, U+2028 and U+2029
/// escaped, everything else kept as UTF-8.
public enum JSONText {
    /// `s` as a quoted JSON string.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
