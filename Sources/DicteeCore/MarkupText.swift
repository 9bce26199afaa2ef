/// Text escaped for XML and HTML (text and attribute values): the A4 dictation sheet and the
/// WebDAV request bodies. One home for the rule.
public enum MarkupText {
    /// `s` with `&`, `<`, `>`, `"` and `'` written as `&amp;`, `&lt;`, `&gt;`, `&quot;` and
    /// `&#39;` (a numeric reference, valid in XML 1.0 and in HTML).
    public static func escaped(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
