/// Minimal JSON text writer (RFC 8259) for command output: keys in the order given, strings
/// escaped, non-ASCII kept as UTF-8. Faster than JSONEncoder for 50,000 occurrences, and the key
/// order matches the documented contract.
struct JSONWriter {
    private(set) var text = ""

    init(capacity: Int = 1024) { text.reserveCapacity(capacity) }

    static func quoted(_ s: String) -> String {
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

    /// A JSON value.
    enum Value {
        case string(String)
        case int(Int)
        case bool(Bool)
        case null

        var text: String {
            switch self {
            case .string(let s): return JSONWriter.quoted(s)
            case .int(let i): return String(i)
            case .bool(let b): return b ? "true" : "false"
            case .null: return "null"
            }
        }
    }

    /// `{"k":v,...}` with keys in order.
    static func object(_ pairs: [(String, Value)]) -> String {
        var out = "{"
        for (k, (key, value)) in pairs.enumerated() {
            if k > 0 { out += "," }
            out += quoted(key) + ":" + value.text
        }
        return out + "}"
    }
}
