import DicteeCore

/// A part of speech, as Lexique 3.83's `cgram` column writes it (New & Pallier, lexique.org).
public enum PartOfSpeech: String, CaseIterable, Sendable, Hashable {
    case adjective = "ADJ", demonstrativeAdjective = "ADJ:dem", indefiniteAdjective = "ADJ:ind"
    case interrogativeAdjective = "ADJ:int", numeral = "ADJ:num", possessiveAdjective = "ADJ:pos"
    case adverb = "ADV", definiteArticle = "ART:def", indefiniteArticle = "ART:ind"
    case auxiliary = "AUX", conjunction = "CON", liaison = "LIA", noun = "NOM", onomatopoeia = "ONO"
    case preposition = "PRE", demonstrativePronoun = "PRO:dem", indefinitePronoun = "PRO:ind"
    case interrogativePronoun = "PRO:int", personalPronoun = "PRO:per", possessivePronoun = "PRO:pos"
    case relativePronoun = "PRO:rel", verb = "VER"

    /// `VER` or `AUX`.
    public var isVerb: Bool { self == .verb || self == .auxiliary }
    /// Any determiner-like word: articles and the demonstrative, possessive, indefinite,
    /// interrogative and numeral adjectives of Lexique's tagset.
    public var isDeterminer: Bool {
        switch self {
        case .definiteArticle, .indefiniteArticle, .demonstrativeAdjective, .possessiveAdjective,
             .indefiniteAdjective, .interrogativeAdjective, .numeral: true
        default: false
        }
    }
}

/// One reading of Lexique's `infover` column, e.g. `ind:pre:3s`, `par:pas`, `inf`.
public struct VerbForm: Sendable, Hashable, CustomStringConvertible {
    /// `ind`icatif, `sub`jonctif, `cnd` conditionnel, `imp`ératif, `inf`initif, `par`ticipe.
    public enum Mood: String, Sendable, Hashable { case ind, sub, cnd, imp, inf, par }
    /// `pre`sent, `imp`arfait, `pas`sé (simple, or participe passé), `fut`ur.
    public enum Tense: String, Sendable, Hashable { case pre, imp, pas, fut }

    /// The first field: `ind` in `ind:pre:3s`.
    public var mood: Mood
    /// The second field: `pre` in `ind:pre:3s`, `pas` in `par:pas`; `nil` for `inf`.
    public var tense: Tense?
    /// `1s` ... `3p`, `nil` for infinitives and participles.
    public var person: String?

    /// A reading from its three fields, e.g. `VerbForm(mood: .ind, tense: .pre, person: "3s")`.
    public init(mood: Mood, tense: Tense?, person: String?) {
        self.mood = mood
        self.tense = tense
        self.person = person
    }

    /// Parses one reading such as `ind:pre:3s` (without the `;` separators); `nil` if unknown.
    /// - Parameters:
    ///   - text: one `infover` reading: `mood[:tense[:person]]`, e.g. `inf`, `par:pas`, `ind:pre:3s`.
    public init?(parsing text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard let first = parts.first, let mood = Mood(rawValue: String(first)) else { return nil }
        self.mood = mood
        self.tense = parts.count > 1 ? Tense(rawValue: String(parts[1])) : nil
        if parts.count > 1, tense == nil { return nil }
        self.person = parts.count > 2 ? String(parts[2]) : nil
    }

    /// True for indicative, subjunctive, conditional and imperative readings.
    public var isFinite: Bool { mood != .inf && mood != .par }
    /// Third person (`3s` or `3p`).
    public var isThirdPerson: Bool { person == "3s" || person == "3p" }

    /// The reading in Lexique's `infover` notation, e.g. `ind:pre:3s`, `par:pas`, `inf`.
    public var description: String {
        [mood.rawValue, tense?.rawValue, person].compactMap { $0 }.joined(separator: ":")
    }
}

/// One row of Lexique 3.83: a written form with one analysis (a form has one row per reading:
/// `a` is a noun and the verb avoir, `est` a noun and être).
public struct LexicalEntry: Sendable, Hashable {
    /// `ortho`, as Lexique writes it (lower case except a few proper forms).
    public var form: String
    /// `lemme`.
    public var lemma: String
    /// `cgram`.
    public var partOfSpeech: PartOfSpeech
    /// `genre`: `nil` when Lexique leaves it empty (invariable or unknown).
    public var gender: Gender?
    /// `nombre`: `nil` when Lexique leaves it empty.
    public var number: PhraseGrammar.Number?
    /// `infover`, split at `;`: every verbal reading of the form for this lemma.
    public var verbForms: [VerbForm]
    /// `phon`, Lexique's phonological code (one character per phoneme, e.g. `gR@` for grand).
    public var phonology: String
    /// `freqlivres`: occurrences per million words in the book corpus.
    public var formFrequencyBooks: Float
    /// `freqfilms2`: occurrences per million words in the film subtitle corpus.
    public var formFrequencyFilms: Float
    /// `freqlemlivres`: the lemma's frequency per million words in books.
    public var lemmaFrequencyBooks: Float
    /// `freqlemfilms2`: the lemma's frequency per million words in film subtitles.
    public var lemmaFrequencyFilms: Float

    /// A row from its Lexique 3.83 columns (see each property); frequencies are occurrences per
    /// million words, as Lexique gives them.
    public init(
        form: String, lemma: String, partOfSpeech: PartOfSpeech, gender: Gender?,
        number: PhraseGrammar.Number?, verbForms: [VerbForm], phonology: String,
        formFrequencyBooks: Float, formFrequencyFilms: Float,
        lemmaFrequencyBooks: Float, lemmaFrequencyFilms: Float
    ) {
        self.form = form
        self.lemma = lemma
        self.partOfSpeech = partOfSpeech
        self.gender = gender
        self.number = number
        self.verbForms = verbForms
        self.phonology = phonology
        self.formFrequencyBooks = formFrequencyBooks
        self.formFrequencyFilms = formFrequencyFilms
        self.lemmaFrequencyBooks = lemmaFrequencyBooks
        self.lemmaFrequencyFilms = lemmaFrequencyFilms
    }

    /// The lemma's frequency per million words used for grade bands: the larger of the book and
    /// film figures (children's texts sit between the two registers).
    public var lemmaFrequency: Float { max(lemmaFrequencyBooks, lemmaFrequencyFilms) }

    /// The form's frequency per million words: the larger of the book and film figures.
    public var formFrequency: Float { max(formFrequencyBooks, formFrequencyFilms) }
}

extension Array where Element == LexicalEntry {
    /// The summed form frequency of these rows, per million words: how much a reading weighs
    /// against another reading of the same form.
    public var weight: Float { reduce(0) { $0 + $1.formFrequency } }
}
