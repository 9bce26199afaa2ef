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
/// Rules (privacy-filter issue; ../shared/DOMAIN.md sections 5 and 6):
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
    private let disqualifiersByFirstToken: [String: [Whitelist.Disqualifier]]

    /// Family words accepted after `chez` in lower case.
    public static let familyWords: Set<String> = [
        "mamie", "papi", "mamy", "papy", "tata", "tonton", "marraine", "parrain",
    ]

    public init(whitelist: Whitelist = .bundled) {
        self.whitelist = whitelist
        formsByFirstToken = Dictionary(grouping: whitelist.forms, by: { $0.tokens[0] })
        disqualifiersByFirstToken = Dictionary(grouping: whitelist.disqualifiers, by: { $0.tokens[0] })
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
        for tokens in [titleTokens, Normalizer.tokens(location), Normalizer.tokens(description)] {
            if let d = firstDisqualifier(in: tokens) {
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
        let c = classify(
            title: occurrence.summary, location: occurrence.location,
            description: occurrence.eventDescription)
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
    /// parent's own words: it is normalised (NFC, spaces collapsed) and refused when it contains a
    /// disqualifier, when it is empty, or longer than 60 characters.
    public func moment(
        label: String, eventReference: EventReference, start: EventTime, end: EventTime,
        isRecurring: Bool
    ) -> Result<Moment, LabelError> {
        let text = Self.normalisedLabel(label)
        guard !text.isEmpty else { return .failure(.empty) }
        guard text.count <= 60 else { return .failure(.tooLong(text.count)) }
        if let d = firstDisqualifier(in: Normalizer.tokens(text)) { return .failure(.disqualified(rule: d.id)) }
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

    /// A parent's label as stored: NFC, trimmed, inner white space collapsed, typographic
    /// apostrophes made straight.
    public static func normalisedLabel(_ label: String) -> String {
        let nfc = label.precomposedStringWithCanonicalMapping
            .replacingOccurrences(of: "\u{2019}", with: "'")
        return nfc.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }

    // MARK: - Matching

    private func firstDisqualifier(in tokens: [Token]) -> Whitelist.Disqualifier? {
        for i in tokens.indices {
            guard let candidates = disqualifiersByFirstToken[tokens[i].folded] else { continue }
            let hits = candidates.filter { matches($0.tokens, tokens, at: i) }
            if let longest = hits.max(by: { $0.tokens.count < $1.tokens.count }) { return longest }
        }
        return nil
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
                return Self.isGivenName(tokens[end + 1].original) ? tokens[end + 1].original : nil
            }
            return Self.isGivenName(next.original) ? next.original : nil
        case .chez:
            guard tokens[end].folded == "chez", end + 1 < tokens.count else { return nil }
            let candidate = tokens[end + 1].original
            if Self.familyWords.contains(candidate) { return candidate }
            return Self.isGivenName(candidate) ? candidate : nil
        }
    }

    /// A capitalised given name: letters (accents allowed), at most one inner hyphen, 2 to 20
    /// letters, the first one upper case.
    public static func isGivenName(_ word: String) -> Bool {
        guard let first = word.first, first.isUppercase, first.isLetter else { return false }
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty }) else { return false }
        let letters = word.filter { $0 != "-" }
        guard (2...20).contains(letters.count) else { return false }
        return letters.allSatisfy { $0.isLetter }
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
