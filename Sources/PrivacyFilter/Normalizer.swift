import Foundation

/// One token of a title: as written (after Unicode NFC and time removal) and folded for matching.
public struct Token: Hashable, Sendable {
    /// As written, e.g. `Anaïs`, `d'`.
    public var original: String
    /// Case-folded, accent-folded, compatibility-folded, ligatures expanded: `anais`, `d'`.
    public var folded: String
}

/// Turns calendar text into tokens the whitelist can be matched against, whole tokens only.
///
/// Steps, in order (README, "The privacy filter"): Unicode NFC; typographic apostrophes
/// (’ ‘ ʼ ` ´) become `'` and dashes (‐ ‑ ‒ – — ―) become `-`; times such as `10h`, `10h30`,
/// `14:00`, `9h-11h`, `14h à 16h` are removed; invisible characters (format controls such as
/// zero-width joiners, soft hyphens, bidirectional marks, tag characters, variation selectors) and
/// every character that is not a letter, a digit, `'` or `-` separate tokens; combining marks left
/// over after NFC are dropped; an apostrophe ends a token after an elided word (`d'anniv` gives
/// `d'` and `anniv`); a hyphen inside a word is kept (`pique-nique`); folding applies compatibility
/// mappings (full-width, mathematical letters, ligatures: NFKC), lower-cases, removes accents and
/// expands œ → oe, æ → ae.
///
/// Disqualifiers are matched more suspiciously, on `guardTokenLists`: see there.
public enum Normalizer {
    /// The tokens of `text`, in order.
    public static func tokens(_ text: String) -> [Token] {
        split(prepare(text, invisibleSeparates: true))
    }

    /// The tokens of `text` (exactly `tokens(text)`), and for each whether only invisible characters
    /// (zero-width joiners, soft hyphens, bidirectional marks...) separate it from the next one:
    /// `No\u{200D}ah` gives `No`, `ah` and `[true, false]`. The privacy filter reads such runs as one
    /// word too, so that a child's name cannot hide behind an invisible character.
    static func tokensWithGlue(_ text: String) -> (tokens: [Token], gluedToNext: [Bool]) {
        // U+2029 stands for the invisible characters: white space to the time pattern, like " ".
        let marker: Unicode.Scalar = "\u{2029}"
        let prepared = prepare(text, invisibleSeparates: true, separator: marker)
        var tokens: [Token] = []
        var glued: [Bool] = []
        var current = String.UnicodeScalarView()
        enum Gap { case none, invisible, other }
        var gap = Gap.other
        func flush() {
            guard !current.isEmpty else { return }
            let word = String(current)
            current = String.UnicodeScalarView()
            let trimmed = trimmingHyphens(word)
            if !trimmed.isEmpty, trimmed.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
                if !tokens.isEmpty, gap == .invisible, word.first != "-" { glued[glued.count - 1] = true }
                tokens.append(Token(original: trimmed, folded: fold(trimmed)))
                glued.append(false)
                gap = word.last == "-" ? .other : .none
            } else {
                gap = .other
            }
        }
        for scalar in prepared.unicodeScalars {
            if scalar == "'" {
                if !current.isEmpty {
                    current.append("'")
                    flush()
                } else {
                    gap = .other
                }
            } else if scalar == "-" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.append(scalar)
            } else {
                flush()
                if scalar == marker {
                    if gap == .none { gap = .invisible }
                } else {
                    gap = .other
                }
            }
        }
        flush()
        return (tokens, glued)
    }

    /// Token lists on which disqualifiers are searched: invisible characters read both as separators
    /// and as nothing (`hôpi\u{AD}tal` is `hôpital`); each list also with hyphenated words split
    /// (`Dr-Martin`), with runs of single letters joined (`I.R.M.` is `irm`); tokens folded through
    /// Unicode TS #39 skeletons, so that look-alike letters (Cyrillic `о`) read as Latin ones, and
    /// without a final apostrophe (`d embauche` reads as `d'embauche`).
    public static func guardTokenLists(_ text: String) -> [[String]] {
        var lists: [[String]] = []
        for separates in [true, false] {
            let words = split(prepare(text, invisibleSeparates: separates), folding: false).map(\.original)
            let parts = words.flatMap { $0.split(separator: "-").map(String.init) }
            lists.append(words.map(guardFold))
            lists.append(parts.map(guardFold))
            lists.append(joiningSingleLetters(parts).map(guardFold))
        }
        let symbols = pictographs(text)
        if !symbols.isEmpty { lists.append(symbols) }
        lists.append(accentedTokens(text))
        return lists
    }

    /// The words of `text` in lower case with their accents (NFC), each marked with a leading `=`:
    /// the list a disqualifier form written `=hôp` is matched on, for an abbreviation whose folded
    /// spelling is another word (`hop`, as in hip-hop).
    static func accentedTokens(_ text: String) -> [String] {
        split(prepare(text, invisibleSeparates: true)).map { "=" + $0.original.lowercased() }
    }

    /// The pictographs of `text` (emoji and other symbols, Unicode general category So: `🏥`,
    /// `⚖`), one token each, in order; variation selectors and joiners are not part of them.
    /// Words never hold them (`tokens` reads them as separators): a disqualifier written as a
    /// pictograph is matched on this list.
    static func pictographs(_ text: String) -> [String] {
        text.unicodeScalars.filter { $0.properties.generalCategory == .otherSymbol }.map { String($0) }
    }

    /// The guard folding of one word: skeleton, then `fold`, final apostrophe removed.
    static func guardFold(_ word: String) -> String {
        if let known = GuardCache.shared.value(for: word) { return known }
        var f = fold(Confusables.skeleton(fold(word)))
        while f.hasSuffix("'") { f.removeLast() }
        GuardCache.shared.store(f, for: word)
        return f
    }

    private static func joiningSingleLetters(_ tokens: [String]) -> [String] {
        var out: [String] = []
        var run = ""
        for t in tokens {
            if t.count == 1, t.first!.isLetter {
                run += t
            } else {
                if !run.isEmpty { out.append(run) }
                run = ""
                out.append(t)
            }
        }
        if !run.isEmpty { out.append(run) }
        return out
    }

    /// Lower case, no accents, compatibility mappings (NFKC), œ/æ expanded.
    public static func fold(_ text: String) -> String {
        var out = ""
        let compatible = text.precomposedStringWithCompatibilityMapping.lowercased()
        for scalar in compatible.decomposedStringWithCanonicalMapping.unicodeScalars {
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

    /// Whether `prepare` reads the scalar as an invisible character (a separator, or nothing):
    /// format and control characters, line and paragraph separators, private-use, unassigned and
    /// surrogate code points, variation selectors.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format, .control, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            return true
        default:
            return (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value)
        }
    }

    /// NFC, apostrophes and dashes unified, times removed, invisible characters turned into spaces
    /// (or removed), stray combining marks dropped.
    static func prepare(_ text: String, invisibleSeparates: Bool, separator: Unicode.Scalar = " ") -> String {
        var out = String.UnicodeScalarView()
        // ASCII text is its own NFC: most descriptions, at no cost.
        let composed = text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
        for scalar in composed.unicodeScalars {
            switch scalar {
            case "\u{2019}", "\u{2018}", "\u{02BC}", "`", "\u{00B4}", "\u{2032}", "\u{FF07}":
                out.append("'")
            case "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}", "\u{2212}", "\u{FE63}", "\u{FF0D}":
                out.append("-")
            default:
                switch scalar.properties.generalCategory {
                case .format, .control, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
                    if invisibleSeparates { out.append(separator) }
                case .nonspacingMark, .enclosingMark, .spacingMark:
                    if (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value) {
                        if invisibleSeparates { out.append(separator) }
                    }
                    // Other combining marks left after NFC are dropped.
                default:
                    out.append(scalar)
                }
            }
        }
        return removeTimes(String(out))
    }

    /// The tokens of a prepared text; `folding: false` leaves `Token.folded` empty (the guard
    /// lists fold each word their own way: folding it here as well cost a third of their time).
    private static func split(_ prepared: String, folding: Bool = true) -> [Token] {
        var tokens: [Token] = []
        var current = String.UnicodeScalarView()
        func flush() {
            let word = String(current)
            current = String.UnicodeScalarView()
            // Leading and trailing hyphens are separators; inner ones stay.
            let trimmed = trimmingHyphens(word)
            if !trimmed.isEmpty, trimmed.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
                tokens.append(Token(original: trimmed, folded: folding ? fold(trimmed) : ""))
            }
        }
        for scalar in prepared.unicodeScalars {
            if scalar == "'" {
                if !current.isEmpty {
                    current.append("'")
                    flush()
                }
            } else if scalar == "-" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.append(scalar)
            } else {
                flush()
            }
        }
        flush()
        return tokens
    }

    /// `word` without its leading and trailing `-` (what `trimmingCharacters(in: "-")` gives,
    /// without Foundation's bridging for every word of a long description).
    static func trimmingHyphens(_ word: String) -> String {
        let scalars = word.unicodeScalars
        guard scalars.first == "-" || scalars.last == "-" else { return word }
        guard let first = scalars.firstIndex(where: { $0 != "-" }),
              let last = scalars.lastIndex(where: { $0 != "-" })
        else { return "" }
        return String(scalars[first...last])
    }

    // A time: 1-2 digits, then h (optionally minutes) or :minutes; optionally a range to a second
    // time (9h-11h, 14h à 16h30, 14:00-15:30). Not inside a number, nor followed by a letter or a
    // digit; a word glued before it stays a word of its own ("Judo Noah10h" is "Judo Noah").
    private static let timePattern = try! NSRegularExpression(
        pattern: #"(?<![\p{N}])\d{1,2}\s?(?:[hH]\s?\d{0,2}|:\d{2})(?:\s?(?:-|à|a)\s?\d{1,2}\s?(?:[hH]\s?\d{0,2}|:\d{2}))?(?![\p{L}\p{N}])"#)

    static func removeTimes(_ text: String) -> String {
        // The pattern needs a decimal digit (`\d` is Unicode's Nd): without one, the regex and its
        // bridging to NSString, a third of a long description's cost, are not needed.
        guard text.unicodeScalars.contains(where: { $0.properties.numericType == .decimal }) else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return timePattern.stringByReplacingMatches(in: text, range: range, withTemplate: " ")
    }
}

/// Remembers guard foldings (an ICU call each): calendars repeat their words.
final class GuardCache: @unchecked Sendable {
    static let shared = GuardCache()
    private let lock = NSLock()
    private var values: [String: String] = [:]

    func value(for word: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return values[word]
    }

    func store(_ value: String, for word: String) {
        lock.lock()
        defer { lock.unlock() }
        if values.count > 200_000 { values.removeAll(keepingCapacity: true) }
        values[word] = value
    }
}
