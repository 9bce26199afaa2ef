import Foundation

/// One token of a French text.
///
/// Offsets are Unicode scalar offsets into the original text (the same unit as Grammalecte's
/// `nStart`/`nEnd`, which are Python code-point indexes), half-open.
public struct Token: Sendable, Hashable {
    /// What a token is: a word, a number or a punctuation mark (spaces are not tokens).
    public enum Kind: Sendable, Hashable {
        /// Letters, possibly with inner hyphens (`peut-être`, `week-end`) or an inner apostrophe
        /// that is not an elision (`aujourd'hui`, `quelqu'un`); an elided form (`l'`, `qu'`) is a
        /// word of its own ending in `'`.
        case word
        /// Digits, possibly with letters glued on (`10`, `14h30`, `3e`).
        case number
        /// A punctuation mark (`.`, `,`, `!`, `?`, `…`, `«`, `»`, `;`, `:`, dashes, brackets).
        case punctuation
    }

    /// Word, number or punctuation.
    public var kind: Kind
    /// The token as written (typographic apostrophes kept).
    public var text: String
    /// Lower case, typographic apostrophes (’ ʼ) replaced by `'`, non-breaking hyphens by `-`.
    public var normalized: String
    /// Unicode scalar offsets in the text, half-open.
    public var start: Int
    /// End of the token: a Unicode scalar offset, exclusive.
    public var end: Int

    /// A word ending with an apostrophe: `l'`, `d'`, `qu'`, `jusqu'`...
    public var isElided: Bool { kind == .word && normalized.hasSuffix("'") }
    /// True for words and numbers: what Docs/domain.md §2 counts as words.
    public var countsAsWord: Bool { kind != .punctuation }
    /// The first character is an upper-case letter.
    public var isCapitalized: Bool {
        guard let first = text.unicodeScalars.first else { return false }
        if first.isASCII { return first.value >= 0x41 && first.value <= 0x5A }
        return first.properties.isUppercase
    }
    /// A sentence-final mark: `.`, `!`, `?`, `…` (or `...`).
    public var isSentenceFinal: Bool {
        kind == .punctuation && (text == "." || text == "!" || text == "?" || text == "…" || text == "...")
    }
}

/// A tokenized French text: tokens and sentences.
public struct TokenizedText: Sendable {
    /// The text as given.
    public let text: String
    /// Every token in text order (whitespace is not tokenized).
    public let tokens: [Token]
    /// Each sentence as a range of indexes into `tokens` (closing quotes after the final mark
    /// belong to the sentence).
    public let sentences: [Range<Int>]

    /// Words of the whole text per Docs/domain.md §2: elided forms count (`l'`, `n'`), a hyphenated
    /// word counts once, numbers count, punctuation does not.
    public var wordCount: Int { tokens.reduce(0) { $0 + ($1.countsAsWord ? 1 : 0) } }

    /// Words of one sentence, counted as `wordCount`.
    /// - Parameters:
    ///   - index: an index into `sentences` (traps when out of range).
    /// - Returns: the sentence's length in words (Docs/domain.md §2 count).
    public func wordCount(ofSentence index: Int) -> Int {
        tokens[sentences[index]].reduce(0) { $0 + ($1.countsAsWord ? 1 : 0) }
    }

    /// The index of the sentence holding token `index`.
    /// - Parameters:
    ///   - index: an index into `tokens`.
    /// - Returns: an index into `sentences`, or `nil` when no sentence holds the token.
    public func sentenceIndex(ofToken index: Int) -> Int? {
        sentences.firstIndex { $0.contains(index) }
    }

    /// The text between two scalar offsets.
    /// - Parameters:
    ///   - start: a Unicode scalar offset into `text`, inclusive (e.g. a token's `start`).
    ///   - end: a Unicode scalar offset, exclusive, with `start <= end <= text.unicodeScalars.count`
    ///     (traps otherwise).
    /// - Returns: the scalars `start..<end` of `text`, as written.
    public func substring(from start: Int, to end: Int) -> String {
        let scalars = text.unicodeScalars
        let a = scalars.index(scalars.startIndex, offsetBy: start)
        let b = scalars.index(a, offsetBy: end - start)
        return String(scalars[a..<b])
    }
}

/// Splits French text into tokens and sentences. Deterministic, no dictionary needed.
///
/// Rules: elision splits `l'`, `d'`, `qu'`, `c'`, `s'`, `n'`, `j'`, `m'`, `t'`, `jusqu'`,
/// `lorsqu'`, `puisqu'` from the next word (straight `'`, typographic `’` or `ʼ`), but keeps
/// `aujourd'hui`, `quelqu'un`, `presqu'île`, `prud'homme` whole; letters joined by hyphens are one
/// word (`peut-être`, `grand-mère`, `dit-il`); `«` `»` and `"` are punctuation; a sentence ends at
/// `.`, `!`, `?` or `…` (plus closing quotes) followed by an upper-case word, an opening quote or
/// the end of the text, and at a blank line, but not after an abbreviation such as `M.`, `Mme.`,
/// `Dr.`, `etc.` followed by a capital.
public enum Tokenizer {
    static let elisionPrefixes: Set<String> = [
        "l", "d", "qu", "c", "s", "n", "j", "m", "t", "jusqu", "lorsqu", "puisqu", "quoiqu",
    ]
    static let wholeWithApostrophe: Set<String> = [
        "aujourd'hui", "quelqu'un", "quelqu'une", "presqu'île", "presqu'îles", "prud'homme",
        "prud'hommes", "entr'ouvert",
    ]
    static let abbreviations: Set<String> = [
        "m", "mm", "mme", "mmes", "mlle", "mlles", "dr", "st", "ste", "etc", "cf", "av", "bd", "p",
        "pr", "me",
    ]

    /// Tokenizes `text`.
    /// - Returns: tokens with scalar offsets, and sentences as token index ranges.
    /// - Parameters:
    ///   - text: any French text (straight or typographic apostrophes, any line breaks).
    public static func tokenize(_ text: String) -> TokenizedText {
        let view = text.unicodeScalars
        let scalars = Array(view)
        // String index of every scalar offset (and the end), to slice tokens out of `text`
        // without copying scalar by scalar.
        var positions: [String.Index] = []
        positions.reserveCapacity(scalars.count + 1)
        var p = view.startIndex
        while p < view.endIndex { positions.append(p); p = view.index(after: p) }
        positions.append(view.endIndex)
        var tokens: [Token] = []
        tokens.reserveCapacity(scalars.count / 4)
        var paragraphBreaks: Set<Int> = []  // token indexes that start a new paragraph
        var i = 0
        let n = scalars.count
        var newlineRun = 0

        func make(_ kind: Token.Kind, _ a: Int, _ b: Int) {
            let raw = String(view[positions[a]..<positions[b]])
            tokens.append(Token(kind: kind, text: raw, normalized: normalize(raw), start: a, end: b))
        }

        while i < n {
            let c = scalars[i]
            if c == "\n" { newlineRun += 1; i += 1; continue }
            if isSpace(c) { i += 1; continue }
            if newlineRun >= 2, !tokens.isEmpty { paragraphBreaks.insert(tokens.count) }
            newlineRun = 0
            if isLetter(c) {
                // A run of letters, hyphens between letters, apostrophes between letters.
                var j = i
                var wordStart = i
                while j < n {
                    let d = scalars[j]
                    if isLetter(d) || isMark(d) { j += 1; continue }
                    if isHyphen(d), j + 1 < n, isLetter(scalars[j + 1]), j > wordStart { j += 1; continue }
                    if isApostrophe(d), j + 1 < n, isLetter(scalars[j + 1]) {
                        let prefix = lowercased(scalars[wordStart..<j])
                        let whole = lowercased(scalars[wordStart..<wordEnd(scalars, from: j + 1)])
                        if elisionPrefixes.contains(prefix), !wholeWithApostrophe.contains(whole) {
                            make(.word, wordStart, j + 1)
                            wordStart = j + 1
                            j += 1
                            continue
                        }
                        j += 1
                        continue
                    }
                    break
                }
                // A trailing apostrophe after an elision prefix ("jusqu' à" written apart).
                if j < n, isApostrophe(scalars[j]), elisionPrefixes.contains(lowercased(scalars[wordStart..<j])) {
                    make(.word, wordStart, j + 1)
                    i = j + 1
                    continue
                }
                make(.word, wordStart, j)
                i = j
            } else if isDigit(c) {
                var j = i
                while j < n, isDigit(scalars[j]) || isLetter(scalars[j])
                    || ((scalars[j] == "," || scalars[j] == ".") && j + 1 < n && isDigit(scalars[j + 1])) {
                    j += 1
                }
                make(.number, i, j)
                i = j
            } else if c == "." && i + 2 < n && scalars[i + 1] == "." && scalars[i + 2] == "." {
                make(.punctuation, i, i + 3)
                i += 3
            } else {
                make(.punctuation, i, i + 1)
                i += 1
            }
        }
        return TokenizedText(text: text, tokens: tokens, sentences: splitSentences(tokens, paragraphBreaks))
    }

    static func splitSentences(_ tokens: [Token], _ paragraphBreaks: Set<Int>) -> [Range<Int>] {
        var sentences: [Range<Int>] = []
        var start = 0
        var k = 0
        while k < tokens.count {
            if paragraphBreaks.contains(k), k > start {
                sentences.append(start..<k)
                start = k
            }
            let t = tokens[k]
            if t.isSentenceFinal {
                var end = k + 1
                // Further marks ("?!", "!!") and closing quotes belong to this sentence.
                while end < tokens.count, tokens[end].kind == .punctuation,
                      tokens[end].isSentenceFinal || isClosing(tokens[end].text) {
                    end += 1
                }
                let previous = k > 0 ? tokens[k - 1] : nil
                let isAbbreviation = t.text == "." && previous.map {
                    $0.kind == .word && abbreviations.contains($0.normalized) && k - 1 >= start
                } ?? false
                let next = end < tokens.count ? tokens[end] : nil
                let endsHere: Bool
                if let next {
                    let opensNext = next.isCapitalized || next.kind == .number || isOpening(next.text)
                        || next.text == "-" || next.text == "–" || next.text == "—"
                    endsHere = opensNext && !(isAbbreviation && next.isCapitalized && next.kind == .word)
                } else {
                    endsHere = true
                }
                if endsHere {
                    sentences.append(start..<end)
                    start = end
                }
                k = end
                continue
            }
            k += 1
        }
        if start < tokens.count { sentences.append(start..<tokens.count) }
        return sentences
    }

    static func wordEnd(_ s: [Unicode.Scalar], from: Int) -> Int {
        var j = from
        while j < s.count, isLetter(s[j]) || isMark(s[j]) { j += 1 }
        return j
    }

    static func lowercased(_ s: ArraySlice<Unicode.Scalar>) -> String {
        var v = String.UnicodeScalarView()
        v.append(contentsOf: s.map { isApostrophe($0) ? "'" : $0 })
        return String(v).lowercased()
    }

    /// Lower case, `’`/`ʼ` → `'`, non-breaking and Unicode hyphens → `-`, NFC.
    /// - Parameters:
    ///   - raw: a token or a word as written (`L’école`, `Peut‑être`).
    /// - Returns: the form used for every lookup and comparison (`l'école`, `peut-être`); `raw`
    ///   itself when it is already plain ASCII lower case.
    public static func normalize(_ raw: String) -> String {
        var plain = true  // ASCII lower case, no apostrophe or hyphen to map: returned as is
        var needsComposition = false
        for s in raw.unicodeScalars {
            if s.value >= 0x41 && s.value <= 0x5A { plain = false } else if !s.isASCII {
                plain = false
                // Combining marks (U+0300...U+036F and other non-spacing marks) need NFC.
                if s.value >= 0x300, s.value < 0x370 || isMark(s) { needsComposition = true }
            }
        }
        if plain { return raw }
        var v = String.UnicodeScalarView()
        for s in raw.unicodeScalars {
            if isApostrophe(s) { v.append("'") } else if isHyphen(s) { v.append("-") } else { v.append(s) }
        }
        let lower = String(v).lowercased()
        return needsComposition ? lower.precomposedStringWithCanonicalMapping : lower
    }

    static func isLetter(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) }
        if v >= 0xC0 && v <= 0xFF { return v != 0xD7 && v != 0xF7 }
        return c.properties.isAlphabetic
    }
    static func isMark(_ c: Unicode.Scalar) -> Bool {
        if c.value < 0x300 { return false }
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
    static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }
    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0B}" || c == "\u{0C}" }
        return c.properties.isWhitespace || c == "\u{200B}" || c == "\u{FEFF}"
    }
    static func isApostrophe(_ c: Unicode.Scalar) -> Bool { c == "'" || c == "\u{2019}" || c == "\u{02BC}" }
    static func isHyphen(_ c: Unicode.Scalar) -> Bool { c == "-" || c == "\u{2010}" || c == "\u{2011}" }
    static func isClosing(_ t: String) -> Bool { t == "»" || t == "\"" || t == "”" || t == ")" || t == "’" }
    static func isOpening(_ t: String) -> Bool { t == "«" || t == "\"" || t == "“" || t == "(" }
}
