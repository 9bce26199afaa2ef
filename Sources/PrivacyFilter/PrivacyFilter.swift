@_spi(PrivacyFilter) import DicteeCore
import Foundation

/// What the privacy filter decided about one title (the `dictee classify` contract).
public struct Classification: Hashable, Sendable {
    public enum Decision: String, Hashable, Sendable {
        /// A whitelist form matched and no disqualifier: the event may become a dictation.
        case moment
        /// A disqualifier matched the title, the location or the description.
        case disqualified
        /// Nothing matched: the event keeps no name and waits for the parent.
        case unlabeled
    }

    public var decision: Decision
    /// The rendered canonical phrase ("l'anniversaire d'Anaïs"), for moments only.
    public var phrase: String?
    /// The captured first name or family word, for moments with a name only.
    public var firstName: String?
    /// The rule id: a whitelist form (`M012`) or a disqualifier (`D07`); never the matched text.
    public var rule: String?
    /// The matched form (moments only), for the grammar of the phrase.
    public var form: Whitelist.Form?

    static let unlabeled = Classification(decision: .unlabeled)

    init(decision: Decision, phrase: String? = nil, firstName: String? = nil, rule: String? = nil,
         form: Whitelist.Form? = nil) {
        self.decision = decision
        self.phrase = phrase
        self.firstName = firstName
        self.rule = rule
        self.form = form
    }
}

/// The only producer of `Moment`: matches calendar text against the closed whitelist.
///
/// Rules (README "The privacy filter"; Docs/domain.md §5 and §6):
/// 1. Text is normalised by `Normalizer` (NFC, folding, times removed, punctuation separates).
/// 2. Disqualifiers are checked first, on the title, then the location, then the description, and
///    win over any form; within one text the earliest match wins, then the longest.
/// 3. Forms match whole tokens (multi-token forms consecutive tokens): "ski" never matches
///    "Kandinsky". The longest form wins; ties go to the earliest in the title.
/// 4. Names are captured for forms with a name slot only: one capitalised given name (letters,
///    accents, at most one inner hyphen, 2 to 20 letters) right after `de`/`d'` following the form,
///    or directly after the form (slot `de`), or after `chez` (slot `chez`), where the lower-case
///    family words mamie, papi, mamy, papy, tata, tonton, marraine, parrain are accepted too.
/// 5. Anything else is unlabeled: no name is kept at all.
public struct PrivacyFilter: Sendable {
    public let whitelist: Whitelist
    private let formsByFirstToken: [String: [Whitelist.Form]]
    /// Every accepted spelling of a disqualifier's first word (plural, singular) -> disqualifiers.
    private let disqualifiersByFirstWord: [String: [Whitelist.Disqualifier]]
    /// Per disqualifier id, the accepted spellings of each of its words.
    private let disqualifierWordForms: [String: [Set<String>]]

    /// Family words accepted after `chez` in lower case.
    public static let familyWords: Set<String> = [
        "mamie", "papi", "mamy", "papy", "tata", "tonton", "marraine", "parrain",
    ]

    public init(whitelist: Whitelist = .bundled) {
        self.whitelist = whitelist
        formsByFirstToken = Dictionary(grouping: whitelist.forms, by: { $0.tokens[0] })
        var byFirst: [String: [Whitelist.Disqualifier]] = [:]
        var wordForms: [String: [Set<String>]] = [:]
        for d in whitelist.disqualifiers {
            let forms = d.tokens.map(Self.spellings)
            wordForms[d.id] = forms
            for spelling in forms[0] { byFirst[spelling, default: []].append(d) }
        }
        disqualifiersByFirstWord = byFirst
        disqualifierWordForms = wordForms
    }

    /// Classifies one event's texts.
    /// - Parameters:
    ///   - title: the SUMMARY.
    ///   - location: the LOCATION (checked for disqualifiers only).
    ///   - description: the DESCRIPTION (checked for disqualifiers only).
    public func classify(title: String, location: String = "", description: String = "")
        -> Classification
    {
        let titleTokens = Normalizer.tokens(title)
        for text in [title, location, description] {
            if let d = firstDisqualifier(in: text) {
                return Classification(decision: .disqualified, rule: d.id)
            }
        }
        guard let (form, start) = bestForm(in: titleTokens) else { return .unlabeled }
        let name = form.slot == .none
            ? nil : capturedName(after: start + form.tokens.count, in: titleTokens, slot: form.slot)
        return Classification(
            decision: .moment, phrase: Self.render(form.phrase, slot: form.slot, name: name),
            firstName: name, rule: form.id, form: form)
    }

    /// The decision for an occurrence: a `Moment`, or why not.
    public func filter(_ occurrence: Occurrence) -> FilterDecision {
        decision(
            for: occurrence,
            classification: classify(
                title: occurrence.summary, location: occurrence.location,
                description: occurrence.eventDescription))
    }

    /// The decision for an occurrence whose texts were already classified (occurrences of one
    /// series share their texts).
    public func decision(for occurrence: Occurrence, classification c: Classification) -> FilterDecision {
        switch c.decision {
        case .moment:
            let form = c.form!
            return .moment(Moment(
                phrase: c.phrase!, basePhrase: form.phrase, grammar: form.grammar,
                firstName: c.firstName, rule: form.id, eventReference: occurrence.eventReference,
                start: occurrence.start, end: occurrence.end, isRecurring: occurrence.isRecurring))
        case .disqualified:
            return .disqualified(rule: c.rule!)
        case .unlabeled:
            return .unlabeled
        }
    }

    /// Checks a parent's label for an unlabeled event and makes it a moment. The label is the
    /// parent's own words: it is normalised (`normalisedLabel`) and refused when it contains a
    /// disqualifier (matched as in titles), when it is empty, or longer than 60 code points.
    public func moment(
        label: String, eventReference: EventReference, start: EventTime, end: EventTime,
        isRecurring: Bool
    ) -> Result<Moment, LabelError> {
        let text = Self.normalisedLabel(label)
        guard !text.isEmpty else { return .failure(.empty) }
        guard text.unicodeScalars.count <= 60 else { return .failure(.tooLong(text.unicodeScalars.count)) }
        if let d = firstDisqualifier(in: text) { return .failure(.disqualified(rule: d.id)) }
        // The parent's phrase: its head noun is its last word, gender and number unknown (masculine
        // singular is the neutral French default); a matching form gives the real grammar.
        let form = bestForm(in: Normalizer.tokens(text))?.form
        let grammar = form?.grammar
            ?? PhraseGrammar(gender: .masculine, number: .singular,
                             headNoun: Normalizer.tokens(text).last?.original ?? text)
        return .success(Moment(
            phrase: text, basePhrase: text, grammar: grammar, firstName: nil, rule: "label",
            eventReference: eventReference, start: start, end: end, isRecurring: isRecurring))
    }

    /// A parent's label as stored: NFC, invisible and control characters (bidirectional marks,
    /// zero-width characters, escapes) and stray combining marks removed, typographic apostrophes
    /// made straight, white space collapsed, trimmed.
    public static func normalisedLabel(_ label: String) -> String {
        let prepared = Normalizer.prepare(label, invisibleSeparates: true)
        return prepared.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }

    // MARK: - Matching

    /// The first disqualifier in `text`: on each of `Normalizer.guardTokenLists` in turn, the
    /// earliest match, then the longest. A title word matches a disqualifier word when they are
    /// equal or differ by a plural (`médecins`, `hôpitaux`) or a final `s` (`urgence`).
    func firstDisqualifier(in text: String) -> Whitelist.Disqualifier? {
        guard !text.isEmpty else { return nil }
        // Calendars repeat their places and descriptions: remember the answer per text.
        let key = whitelist.disqualifiersDigest + "\u{0}" + text
        if let known = DisqualifierCache.shared.value(for: key) {
            return known.flatMap { id in whitelist.disqualifiers.first { $0.id == id } }
        }
        let found = searchDisqualifier(in: text)
        DisqualifierCache.shared.store(found?.id, for: key)
        return found
    }

    private func searchDisqualifier(in text: String) -> Whitelist.Disqualifier? {
        for tokens in Normalizer.guardTokenLists(text) {
            for i in tokens.indices {
                guard let candidates = disqualifiersByFirstWord[tokens[i]] else { continue }
                let hits = candidates.filter { d in
                    guard i + d.tokens.count <= tokens.count, let forms = disqualifierWordForms[d.id] else {
                        return false
                    }
                    return forms.indices.allSatisfy { forms[$0].contains(tokens[i + $0]) }
                }
                // The longest, then the one written exactly as in the text (vaccins over vaccin).
                func rank(_ d: Whitelist.Disqualifier) -> (Int, Int) {
                    (d.tokens.count, d.tokens.indices.filter { tokens[i + $0] == d.tokens[$0] }.count)
                }
                if let best = hits.max(by: { rank($0) < rank($1) }) { return best }
            }
        }
        return nil
    }

    /// The spellings of a disqualifier word that a title word may use: itself, and for words of
    /// three letters or more a plural in -s or -x, a singular without the final -s, and -aux for
    /// -al (hôpital, hôpitaux).
    private static func spellings(_ word: String) -> Set<String> {
        var forms: Set<String> = [word]
        guard word.count >= 3 else { return forms }
        forms.insert(word + "s")
        forms.insert(word + "x")
        if word.hasSuffix("s") { forms.insert(String(word.dropLast())) }
        if word.hasSuffix("al") { forms.insert(String(word.dropLast(2)) + "aux") }
        return forms
    }

    /// Whether a captured name may be kept: the name pattern, and neither a disqualifier (also
    /// hidden inside it, for the longer ones: `Tomhôpital`) nor a forbidden-register word.
    public func acceptsName(_ name: String) -> Bool {
        guard Self.isGivenName(name) else { return false }
        if firstDisqualifier(in: name) != nil { return false }
        let folded = Normalizer.guardFold(name)
        for d in whitelist.disqualifiers where d.tokens.count == 1 && d.tokens[0].count >= 5 {
            if folded.contains(d.tokens[0]) { return false }
        }
        let plain = Normalizer.fold(name)
        return !plain.split(separator: "-").contains { whitelist.registerWords.contains(String($0)) }
            && !whitelist.registerWords.contains(plain)
    }

    private func bestForm(in tokens: [Token]) -> (form: Whitelist.Form, start: Int)? {
        var best: (form: Whitelist.Form, start: Int)?
        for i in tokens.indices {
            guard let candidates = formsByFirstToken[tokens[i].folded] else { continue }
            for form in candidates where matches(form.tokens, tokens, at: i) {
                if best == nil || form.tokens.count > best!.form.tokens.count {
                    best = (form, i)
                }
            }
        }
        return best
    }

    private func matches(_ pattern: [String], _ tokens: [Token], at i: Int) -> Bool {
        guard i + pattern.count <= tokens.count else { return false }
        for k in pattern.indices where tokens[i + k].folded != pattern[k] { return false }
        return true
    }

    private func capturedName(after end: Int, in tokens: [Token], slot: Whitelist.NameSlot) -> String? {
        guard end < tokens.count else { return nil }
        switch slot {
        case .none:
            return nil
        case .de:
            let next = tokens[end]
            if next.folded == "de" || next.folded == "d'" {
                guard end + 1 < tokens.count else { return nil }
                return acceptsName(tokens[end + 1].original) ? tokens[end + 1].original : nil
            }
            return acceptsName(next.original) ? next.original : nil
        case .chez:
            guard tokens[end].folded == "chez", end + 1 < tokens.count else { return nil }
            let candidate = tokens[end + 1].original
            if Self.familyWords.contains(candidate) { return candidate }
            return acceptsName(candidate) ? candidate : nil
        }
    }

    /// A capitalised given name, checked code point by code point: Latin letters only (ASCII,
    /// Latin-1 and Latin Extended-A/B, accents precomposed), the first one upper case and some
    /// lower case (an all-caps word is not taken for a name), at most one inner hyphen, 2 to 20
    /// letters. No digits, no invisible or combining characters, no other
    /// script (a Cyrillic look-alike is not a letter here).
    public static func isGivenName(_ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard let first = scalars.first, first.properties.isUppercase, isLatinLetter(first) else { return false }
        var letters = 0
        var hyphens = 0
        for (k, s) in scalars.enumerated() {
            if s == "-" {
                hyphens += 1
                guard k > 0, k < scalars.count - 1, scalars[k - 1] != "-" else { return false }
            } else if isLatinLetter(s) {
                letters += 1
            } else {
                return false
            }
        }
        // "CLASSE", "MARIAGE" in an all-caps title are words, not names: a name has lower case.
        guard scalars.contains(where: { $0.properties.isLowercase }) else { return false }
        return hyphens <= 1 && (2...20).contains(letters)
    }

    private static func isLatinLetter(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x41...0x5A, 0x61...0x7A: return true
        case 0xC0...0xFF: return s.value != 0xD7 && s.value != 0xF7
        case 0x100...0x24F: return s.properties.isAlphabetic
        default: return false
        }
    }

    /// "l'anniversaire" + "Anaïs" -> "l'anniversaire d'Anaïs"; "les vacances" + "mamie" (chez) ->
    /// "les vacances chez mamie". `de` is elided before a vowel or a mute h.
    public static func render(_ phrase: String, slot: Whitelist.NameSlot, name: String?) -> String {
        guard let name else { return phrase }
        switch slot {
        case .none: return phrase
        case .chez: return "\(phrase) chez \(name)"
        case .de:
            let initial = Normalizer.fold(String(name.prefix(1)))
            return "aeiouh".contains(initial) ? "\(phrase) d'\(name)" : "\(phrase) de \(name)"
        }
    }
}

/// The filter's decision for one occurrence.
public enum FilterDecision: Hashable, Sendable {
    case moment(Moment)
    /// The disqualifier's id, never the matched text.
    case disqualified(rule: String)
    /// No name kept at all.
    case unlabeled
}

/// Why a parent's label was refused.
public enum LabelError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case tooLong(Int)
    case disqualified(rule: String)

    public var description: String {
        switch self {
        case .empty: return "the label is empty"
        case .tooLong(let n): return "the label has \(n) characters; 60 at most"
        case .disqualified(let rule):
            return "the label contains a word of the disqualifier list (rule \(rule)); such events are never used"
        }
    }
}

/// Remembers which disqualifier (if any) a text contains, per whitelist.
final class DisqualifierCache: @unchecked Sendable {
    static let shared = DisqualifierCache()
    private let lock = NSLock()
    private var values: [String: String?] = [:]

    func value(for key: String) -> String?? {
        lock.lock()
        defer { lock.unlock() }
        return values[key]
    }

    func store(_ value: String?, for key: String) {
        lock.lock()
        defer { lock.unlock() }
        if values.count > 100_000 { values.removeAll(keepingCapacity: true) }
        values[key] = .some(value)
    }
}
