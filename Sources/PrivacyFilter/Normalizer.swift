import Foundation

/// One token of a title: as written (after Unicode NFC and time removal) and folded for matching.
public struct Token: Hashable, Sendable {
    /// As written, e.g. `Anaïs`, `d'`.
    public var original: String
    /// Case-folded, accent-folded, ligatures expanded: `anais`, `d'`.
    public var folded: String
}

/// Turns calendar text into tokens the whitelist can be matched against, whole tokens only.
///
/// Steps, in order (issue "privacy filter", matching rules): Unicode NFC; typographic apostrophes
/// (’ ‘ ʼ ` ´) become `'` and dashes (‐ ‑ ‒ – — ―) become `-`; times such as `10h`, `10h30`,
/// `14:00`, `9h-11h`, `14h à 16h` are removed; every character that is not a letter, a digit, `'`
/// or `-` separates tokens (punctuation, emoji, symbols); an apostrophe ends a token after an elided
/// word (`d'anniv` gives `d'` and `anniv`); a hyphen inside a word is kept (`pique-nique`);
/// folding lower-cases, removes accents (é → e, ï → i, ç → c) and expands œ → oe, æ → ae.
public enum Normalizer {
    /// The tokens of `text`, in order.
    public static func tokens(_ text: String) -> [Token] {
        var s = text.precomposedStringWithCanonicalMapping
        s = String(s.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "\u{2019}", "\u{2018}", "\u{02BC}", "`", "\u{00B4}", "\u{2032}": return "'"
            case "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}", "\u{2212}":
                return "-"
            default: return Character(scalar)
            }
        })
        s = removeTimes(s)
        var tokens: [Token] = []
        var current = ""
        func flush() {
            // Leading and trailing hyphens are separators; inner ones stay.
            let trimmed = current.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
            if !trimmed.isEmpty, trimmed.contains(where: { $0.isLetter || $0.isNumber }) {
                tokens.append(Token(original: trimmed, folded: fold(trimmed)))
            }
            current = ""
        }
        for ch in s {
            if ch == "'" {
                if !current.isEmpty {
                    current.append("'")
                    flush()
                }
            } else if ch == "-" || ch.isLetter || ch.isNumber {
                current.append(ch)
            } else {
                flush()
            }
        }
        flush()
        return tokens
    }

    /// Lower case, no accents, œ/æ expanded.
    public static func fold(_ text: String) -> String {
        var out = ""
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.value {
            case 0x0300...0x036F: continue  // combining accents
            case 0x0153: out += "oe"
            case 0x00E6: out += "ae"
            case 0x00DF: out += "ss"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // A time: 1-2 digits, then h (optionally minutes) or :minutes; optionally a range to a second
    // time (9h-11h, 14h à 16h30, 14:00-15:30). Not inside a word or number.
    private static let timePattern = try! NSRegularExpression(
        pattern: #"(?<![\p{L}\p{N}])\d{1,2}\s?(?:[hH]\s?\d{0,2}|:\d{2})(?:\s?(?:-|à|a)\s?\d{1,2}\s?(?:[hH]\s?\d{0,2}|:\d{2}))?(?![\p{L}\p{N}])"#)

    static func removeTimes(_ text: String) -> String {
        let range = NSRange(text.startIndex..., in: text)
        return timePattern.stringByReplacingMatches(in: text, range: range, withTemplate: " ")
    }
}
