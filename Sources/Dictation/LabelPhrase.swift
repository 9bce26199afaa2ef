import DicteeCore
import Foundation
import French

/// Why a parent's label cannot be a moment: one case per rule of `LabelPhrase.analyse` (and the
/// privacy filter's disqualifiers, checked by `Labels.check` in the application layer).
///
/// Messages are lower case and name the rule. They may quote one short word of the label (the
/// parent's own words, shown to the parent), never the whole label.
public enum LabelRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing left after normalisation.
    case empty
    /// More than `LabelPhrase.maximumLength` Unicode scalars (the count is given).
    case tooLong(Int)
    /// An emoji or a pictograph.
    case emoji
    /// A character of markup or code: `< > { } [ ] / \ = & * _ | ` ^ ~ $ % # @`.
    case markup(Character)
    /// A digit (any script), e.g. a time or a date: a label names a moment, not when it is.
    case digits
    /// Punctuation repeated ("!!!", "??", "...", "…", "--", "''").
    case repeatedPunctuation
    /// Other punctuation: a noun phrase has none but apostrophes and hyphens.
    case punctuation(Character)
    /// A character that is not a French letter (another script, a symbol).
    case character(Character)
    /// A word of a forbidden register (`Whitelists/registers.txt`): the word and its category.
    case forbiddenRegister(word: String, category: String)
    /// A word in capitals, or capitalised without being a name.
    case upperCase(String)
    /// A word neither Lexique 3.83 nor the family's names know.
    case unknownWord(String)
    /// The label does not start with le, la, l' or les.
    case missingArticle
    /// No noun after the article (and its adjectives).
    case noHeadNoun
    /// The article does not agree with its noun: the article written, the noun, the right one.
    case articleAgreement(article: String, noun: String, expected: String)
    /// A disqualifier of the privacy filter (its rule id, never the matched text).
    case disqualified(rule: String)
    /// `--kind` is not a kind of the library: the kind given and the nearest known one.
    case unknownKind(String, nearest: String?)

    /// The rule's stable id (tests, `--json`).
    public var rule: String {
        switch self {
        case .empty: "empty"
        case .tooLong: "too_long"
        case .emoji: "emoji"
        case .markup: "markup"
        case .digits: "digits"
        case .repeatedPunctuation: "repeated_punctuation"
        case .punctuation: "punctuation"
        case .character: "character"
        case .forbiddenRegister: "register"
        case .upperCase: "upper_case"
        case .unknownWord: "unknown_word"
        case .missingArticle: "missing_article"
        case .noHeadNoun: "no_head_noun"
        case .articleAgreement: "article_agreement"
        case .disqualified: "disqualified"
        case .unknownKind: "unknown_kind"
        }
    }

    public var description: String {
        func shown(_ w: String) -> String { w.count > 30 ? String(w.prefix(30)) + "…" : w }
        switch self {
        case .empty:
            return tr("the label is empty")
        case .tooLong(let n):
            return tr("the label has %ld characters; %ld at most", n, LabelPhrase.maximumLength)
        case .emoji:
            return tr("the label contains an emoji; write words only")
        case .markup(let c):
            return tr("the label contains '%@', a character of markup or code; write words only", String(c))
        case .digits:
            return tr("the label contains digits; name the moment in words, without a date, a time or a number")
        case .repeatedPunctuation:
            return tr("the label repeats punctuation; a label is a noun phrase such as \"la fête de l'école\"")
        case .punctuation(let c):
            return tr("the label contains '%@'; a label is a noun phrase, with no punctuation but apostrophes and hyphens", String(c))
        case .character(let c):
            return tr("the label contains '%@', which is not a French letter", String(c))
        case .forbiddenRegister(let word, let category):
            let (what, topic) = LabelRefusal.register(category)
            return tr("'%@' is %@ (forbidden register '%@'): dictee never writes about %@", shown(word), what, category, topic)
        case .upperCase(let word):
            return tr("'%@' is in capitals; write the label in lower case, with a capital only for a name (\"le dîner chez Mamie\")", shown(word))
        case .unknownWord(let word):
            return tr("'%@' is neither a word of the French lexicon (check the spelling and accents) nor a name of the family", shown(word))
        case .missingArticle:
            return tr("the label must start with its article: le, la, l' or les (\"la sortie au parc\", \"les vacances au ski\")")
        case .noHeadNoun:
            return tr("the label has no noun after its article (\"le dîner chez Mamie\", \"l'atelier de poterie\")")
        case .articleAgreement(let article, let noun, let expected):
            return tr("'%@ %@' does not agree; write '%@'", article, shown(noun), expected)
        case .disqualified(let rule):
            return tr("the label contains a word of the disqualifier list (rule %@); such events are never used", rule)
        case .unknownKind(let kind, let nearest):
            return tr("unknown kind '%@'", shown(kind)) + (nearest.map { tr("; did you mean '%@'?", $0) } ?? "")
                + tr("; the kinds are %@", LabelPhrase.kinds.joined(separator: ", "))
        }
    }

    /// What a word of a register category is, and what dictee never writes about.
    static func register(_ category: String) -> (what: String, topic: String) {
        switch category {
        case "medical": (tr("a medical word"), tr("health"))
        case "maladie": (tr("a word of illness"), tr("illness or health"))
        case "violence": (tr("a word of violence"), tr("violence"))
        case "mort": (tr("a word of death"), tr("death"))
        case "corps": (tr("a word of the intimate body"), tr("the intimate body"))
        case "insulte": (tr("an insult"), tr("insults"))
        case "alcool_tabac_drogue": (tr("a word of alcohol, tobacco or drugs"), tr("alcohol, tobacco or drugs"))
        case "argent_conflit": (tr("a word of money worries or conflict"), tr("money worries or family conflict"))
        default: (tr("a word of a forbidden register"), tr("such things"))
        }
    }
}

/// The forbidden registers of `Whitelists/registers.txt` (`category<TAB>word` lines; a word may
/// be several words, matched as consecutive words of a label: "bilan de santé").
public struct RegisterList: Sendable, Hashable {
    /// Lower-case word or words → category.
    public var categories: [String: String]

    /// Parses `category<TAB>word` lines; `#` comments and malformed lines are skipped.
    /// - Parameter text: the contents of `Whitelists/registers.txt` (`Whitelist.bundledRegisters`).
    public init(_ text: String = "") {
        var categories: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let f = line.split(separator: "\t")
            guard f.count == 2 else { continue }
            let word = f[1].trimmingCharacters(in: .whitespaces).lowercased()
            if !word.isEmpty, categories[word] == nil { categories[word] = String(f[0]) }
        }
        self.categories = categories
    }
}

/// A parent's label read as a French noun phrase with its article ("le dîner chez Mamie", "la
/// fête des Lumières", "les vacances au ski", "l'atelier de poterie"): its article, the gender,
/// number and head noun that `MomentPhrase` needs for contractions (au dîner, aux vacances, du
/// spectacle), the names in it, and the library kind of its head noun (`label-kinds.tsv`).
///
/// The rules, in the order they are checked (the first that fails is the refusal):
/// 1. not empty, at most `maximumLength` Unicode scalars;
/// 2. no emoji, no markup or code character, no digit, no repeated punctuation, no punctuation
///    but apostrophes and hyphens, only Latin letters (French accents, œ, æ);
/// 3. no word of a forbidden register (`Whitelists/registers.txt`, also matched by lemma:
///    "médicales" → médical);
/// 4. lower case, except names: one of `names` (the children's first names, given names), a
///    family word (Mamie, Papi, Mamy, Papy, Tata, Tonton, Marraine, Parrain), or a capitalised
///    word Lexique knows after the head noun (the name of a feast: "la fête des Lumières", "le
///    marché de Noël"); a capitalised first article is written in lower case ("Le dîner" → "le
///    dîner");
/// 5. every word is in Lexique 3.83 or is a name; `l'`, `d'` and `qu'` elide; a hyphenated word
///    Lexique lacks is known when each part is ("après-midi": après, midi);
/// 6. it starts with `le`, `la`, `l'` or `les`;
/// 7. the head noun is the first noun after the article and its adjectives ("le grand marché" →
///    marché); the article agrees with it: `la` needs a feminine noun, `le` a masculine one, `l'`
///    a vowel or an h after it and `le`/`la` none, `les` a plural ("les fête" is refused). Gender:
///    the article's for `le`/`la`; Lexique's for `l'` and `les` (the most frequent reading;
///    masculine when Lexique gives none, the French default). Number: plural for `les`.
public struct LabelPhrase: Sendable, Hashable {
    /// The longest label, in Unicode scalars (as `PrivacyFilter.moment(label:)`).
    public static let maximumLength = 60

    /// The kinds a label may take: the library's kinds and `general`.
    public static let kinds = Library.bundledKinds

    /// The phrase as it will be written: the label normalised, its article in lower case.
    public var phrase: String
    /// `le`, `la`, `l'` or `les`.
    public var article: String
    /// Gender, number and head noun (as written in the label).
    public var grammar: PhraseGrammar
    /// The names in the phrase (children's names, given names, family words), in order.
    public var names: [String]
    /// The kind of the head noun in `label-kinds.tsv`, else `general`.
    public var inferredKind: String

    /// The moment for the renderer and the validator, with a kind (`inferredKind` unless given).
    /// The first name or family word in the phrase is its `friendName` (a proper noun, and never
    /// a card for the child it names), as the privacy filter's "chez mamie".
    public func moment(kind: String? = nil) -> MomentPhrase {
        MomentPhrase(phrase: phrase, grammar: grammar, friendName: names.first, kind: kind ?? inferredKind)
    }

    /// Reads a label as a noun phrase.
    /// - Parameters:
    ///   - text: the label, already normalised (`PrivacyFilter.normalisedLabel`: NFC, invisible
    ///     characters removed, spaces collapsed); it is trimmed again here.
    ///   - lexicon: Lexique 3.83 (`Lexicon`), or a test's table.
    ///   - names: capitalised words that are names: the family's children's first names, given
    ///     names (compared as written).
    ///   - registers: the forbidden registers (`RegisterList(Whitelist.bundledRegisters)`).
    /// - Returns: the phrase with its grammar and inferred kind, or the first rule it breaks.
    public static func analyse(_ text: String, lexicon: some WordLookup, names: Set<String>,
                               registers: RegisterList = RegisterList()) -> Result<LabelPhrase, LabelRefusal> {
        let label = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !label.isEmpty else { return .failure(.empty) }
        let length = label.unicodeScalars.count
        guard length <= maximumLength else { return .failure(.tooLong(length)) }
        if let refusal = characterRefusal(label) { return .failure(refusal) }

        // Words: split on spaces, then after an elided l', d', qu' (unless Lexique has the whole
        // word: "aujourd'hui").
        var words: [String] = []
        for token in label.split(separator: " ").map(String.init) {
            if token.hasPrefix("-") || token.hasSuffix("-") || token.hasPrefix("'") || token.hasSuffix("'") && !isElision(token) {
                return .failure(.punctuation(token.hasPrefix("'") || token.hasSuffix("'") ? "'" : "-"))
            }
            if !lexicon.entries(for: token).isEmpty || !token.contains("'") {
                words.append(token)
                continue
            }
            var rest = Substring(token)
            while let apostrophe = rest.firstIndex(of: "'") {
                let head = String(rest[...apostrophe])
                guard isElision(head) else { return .failure(.unknownWord(String(rest))) }
                words.append(head)
                rest = rest[rest.index(after: apostrophe)...]
            }
            if !rest.isEmpty { words.append(String(rest)) }
        }

        // Forbidden registers, before anything else about the words: the reason that matters.
        let lower = words.map { $0.lowercased() }
        for (phrase, category) in registers.categories where phrase.contains(" ") {
            let parts = phrase.split(separator: " ").map(String.init)
            if parts.count <= lower.count, (0...(lower.count - parts.count)).contains(where: { Array(lower[$0..<($0 + parts.count)]) == parts }) {
                return .failure(.forbiddenRegister(word: phrase, category: category))
            }
        }
        for (k, w) in lower.enumerated() {
            let lemmas = [w] + lexicon.entries(for: w).map { $0.lemma.lowercased() }
            if let category = lemmas.lazy.compactMap({ registers.categories[$0] }).first {
                return .failure(.forbiddenRegister(word: words[k], category: category))
            }
        }

        // Capitals: a capitalised first article is lowered; names keep theirs.
        if let first = words.first, ["Le", "La", "Les", "L'"].contains(first) { words[0] = first.lowercased() }
        let articleIndex = ["le", "la", "les", "l'"].contains(words.first ?? "") ? 0 : nil
        let head = headIndex(words, lexicon: lexicon, from: 1)
        var found: [String] = []
        for (k, w) in words.enumerated() where w.contains(where: \.isUppercase) {
            let capitalised = w.first!.isUppercase && !w.dropFirst().contains(where: \.isUppercase)
            if names.contains(w) || capitalised && FamilyWords.all.contains(w.lowercased()) {
                found.append(w)
                continue
            }
            // "la fête des Lumières", "le marché de Noël": a feast's name after the head noun.
            if capitalised, let head, k > head, !lexicon.entries(for: w.lowercased()).isEmpty { continue }
            if capitalised, lexicon.entries(for: w.lowercased()).isEmpty, k > 0 { return .failure(.unknownWord(w)) }
            return .failure(.upperCase(w))
        }
        for w in words where !w.contains(where: \.isUppercase) {
            if FamilyWords.all.contains(w) { found.append(w); continue }
            if !known(w, lexicon) { return .failure(.unknownWord(w)) }
        }

        // The article and the head noun.
        guard articleIndex != nil else { return .failure(.missingArticle) }
        let article = words[0]
        guard let h = head else { return .failure(.noHeadNoun) }
        let noun = words[h]
        let readings = nounReadings(noun, lexicon)
        let startsWithVowel = noun.lowercased().first.map { "aeiouyàâäéèêëîïôöùûüœæ".contains($0) } ?? false
        let startsWithH = noun.lowercased().first == "h"
        let rest = words[1...].joined(separator: " ").replacingOccurrences(of: "' ", with: "'")
        func elided() -> String { "l'" + rest }
        func full(_ a: String) -> String { a + " " + rest }
        let genders = Set(readings.compactMap(\.gender))
        let numbers = Set(readings.compactMap(\.number))
        let pluralOnly = !readings.isEmpty && numbers == [.plural] && readings.allSatisfy { $0.lemma.lowercased() != noun.lowercased() }
        let singularOnly = !readings.isEmpty && numbers == [.singular] && !"sxz".contains(noun.lowercased().last ?? "a")
        var gender: Gender
        var number: PhraseGrammar.Number = .singular
        switch article {
        case "le", "la":
            gender = article == "la" ? .feminine : .masculine
            if startsWithVowel && !(noun.lowercased().first == "y") { return .failure(.articleAgreement(article: article, noun: noun, expected: elided())) }
            if !genders.isEmpty, !genders.contains(gender) {
                let other = article == "la" ? "le" : "la"
                return .failure(.articleAgreement(article: article, noun: noun, expected: startsWithVowel ? elided() : full(other)))
            }
            if pluralOnly { return .failure(.articleAgreement(article: article, noun: noun, expected: full("les"))) }
        case "l'":
            if !startsWithVowel && !startsWithH {
                let g = dominantGender(readings) ?? .masculine
                return .failure(.articleAgreement(article: "l'", noun: noun, expected: full(g == .feminine ? "la" : "le")))
            }
            if pluralOnly { return .failure(.articleAgreement(article: "l'", noun: noun, expected: full("les"))) }
            gender = dominantGender(readings) ?? .masculine
        default:  // les
            if singularOnly { return .failure(.articleAgreement(article: "les", noun: noun, expected: full(dominantGender(readings) == .feminine ? "la" : "le"))) }
            gender = dominantGender(readings.filter { $0.number != .singular }) ?? dominantGender(readings) ?? .masculine
            number = .plural
        }
        let phrase = article == "l'" ? elided() : full(article)
        let grammar = PhraseGrammar(gender: gender, number: number, headNoun: noun)
        var kind = LabelKinds.bundled.kind(of: noun, lemmas: readings.map(\.lemma)) ?? Library.generalKind
        // A lesson, a club, a workshop of something: the kind of that something, when it has one
        // ("le cours de guitare" is an instrument lesson, "le stage d'escalade" a climb).
        if ["activite", "sport"].contains(kind), let complement = Self.complement(of: noun, in: phrase),
           let specific = LabelKinds.bundled.kind(of: complement, lemmas: []), specific != Library.generalKind {
            kind = specific
        }
        // A feast with its own name ("la fête des Lumières", "la fête de la Musique") is a town's
        // festival, not a party with cakes and balloons: the general texts fit it.
        if kind == "fete", Self.namedAfterHead(phrase, head: noun) { kind = Library.generalKind }
        return .success(LabelPhrase(phrase: phrase, article: article, grammar: grammar, names: found, inferredKind: kind))
    }

    /// The noun after the head and "de" ("le cours de guitare" → "guitare", "le stage
    /// d'escalade" → "escalade"), lower case; `nil` when the head has no such complement.
    static func complement(of head: String, in phrase: String) -> String? {
        let words = phrase.lowercased().split(separator: " ").map(String.init)
        guard let k = words.firstIndex(where: { $0 == head.lowercased() || $0.hasSuffix("'" + head.lowercased()) }), k + 1 < words.count else { return nil }
        let next = words[k + 1]
        if ["de", "du", "des"].contains(next) { return k + 2 < words.count ? words[k + 2] : nil }
        if next.hasPrefix("d'") || next.hasPrefix("d’") { return String(next.dropFirst(2)) }
        return nil
    }

    /// Whether a capitalised word follows the head noun ("la fête des Lumières").
    static func namedAfterHead(_ phrase: String, head: String) -> Bool {
        let words = phrase.split(whereSeparator: { $0 == " " || $0 == "'" || $0 == "\u{2019}" })
        guard let i = words.firstIndex(where: { $0.lowercased() == head.lowercased() }) else { return false }
        return words[(i + 1)...].contains { $0.first?.isUppercase == true }
    }

    /// Checks a kind given by the parent (`--kind`).
    /// - Returns: the kind, or `.unknownKind` with the nearest known kind.
    public static func checkedKind(_ kind: String) -> Result<String, LabelRefusal> {
        let k = kind.trimmingCharacters(in: .whitespaces).lowercased()
        if kinds.contains(k) { return .success(k) }
        return .failure(.unknownKind(kind, nearest: NearestWord.find(k, in: kinds)))
    }

    // MARK: - Pieces

    static func isElision(_ s: String) -> Bool { ["l'", "d'", "qu'", "L'", "D'"].contains(s) }

    /// The first refused character of the label, by rule: emoji, markup, digits, repeated
    /// punctuation, punctuation, other characters.
    static func characterRefusal(_ label: String) -> LabelRefusal? {
        let scalars = Array(label.unicodeScalars)
        if scalars.contains(where: isEmoji) { return .emoji }
        let markup = "<>{}[]/\\=&*_|`^~$%#@"
        if let c = label.first(where: { markup.contains($0) }) { return .markup(c) }
        if label.contains(where: { $0.isNumber }) { return .digits }
        func isMark(_ c: Character) -> Bool { c.isPunctuation || c == "'" || c == "-" || c.isSymbol }
        let chars = Array(label)
        if chars.contains("…") { return .repeatedPunctuation }
        for k in chars.indices.dropFirst() where isMark(chars[k]) && isMark(chars[k - 1]) { return .repeatedPunctuation }
        for k in chars.indices.dropFirst(2) where isMark(chars[k]) && chars[k - 1] == " " && isMark(chars[k - 2]) { return .repeatedPunctuation }
        if let c = chars.first(where: { $0.isPunctuation && $0 != "'" && $0 != "-" }) { return .punctuation(c) }
        if let c = chars.first(where: { $0 != " " && $0 != "'" && $0 != "-" && !isLatinLetter($0) }) { return .character(c) }
        return nil
    }

    static func isEmoji(_ s: Unicode.Scalar) -> Bool {
        if s.properties.isEmojiPresentation { return true }
        // Pictographs that need a variation selector (☀, ❤), and the joiners of emoji sequences.
        return (s.properties.isEmoji && s.value >= 0x2000) || s.value == 0xFE0F || s.value == 0x200D
    }

    /// Latin letters only (ASCII, Latin-1 and Latin Extended-A/B), precomposed.
    static func isLatinLetter(_ c: Character) -> Bool {
        c.unicodeScalars.allSatisfy { s in
            switch s.value {
            case 0x41...0x5A, 0x61...0x7A: return true
            case 0xC0...0xFF: return s.value != 0xD7 && s.value != 0xF7
            case 0x100...0x24F: return s.properties.isAlphabetic
            default: return false
            }
        }
    }

    /// Whether Lexique knows the word, or each part of a hyphenated one.
    static func known(_ word: String, _ lexicon: some WordLookup) -> Bool {
        if isElision(word) || !lexicon.entries(for: word).isEmpty { return true }
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count > 1 && parts.allSatisfy { !$0.isEmpty && !lexicon.entries(for: String($0)).isEmpty }
    }

    /// The noun readings of a word; for a hyphenated word Lexique lacks, those of its last part
    /// ("après-midi": midi).
    static func nounReadings(_ word: String, _ lexicon: some WordLookup) -> [LexicalEntry] {
        let own = lexicon.entries(for: word).filter { $0.partOfSpeech == .noun }
        if !own.isEmpty || !lexicon.entries(for: word).isEmpty { return own }
        guard word.contains("-"), let last = word.split(separator: "-").last else { return [] }
        return lexicon.entries(for: String(last)).filter { $0.partOfSpeech == .noun }
    }

    /// The head noun: the first word after the article with a noun reading, unless it is also an
    /// adjective followed by a noun ("le grand marché"); only adjectives may come before it.
    static func headIndex(_ words: [String], lexicon: some WordLookup, from start: Int) -> Int? {
        var k = start
        while k < words.count {
            let w = words[k]
            if FamilyWords.all.contains(w.lowercased()) || isElision(w) { return nil }
            let entries = lexicon.entries(for: w)
            let isNoun = !nounReadings(w, lexicon).isEmpty
            let isAdjective = entries.contains { $0.partOfSpeech == .adjective }
            // The next word is a noun, not a preposition or an article that Lexique also lists
            // as a noun (d', the letter).
            let nextIsNoun = k + 1 < words.count && !isElision(words[k + 1]) && !nounReadings(words[k + 1], lexicon).isEmpty
                && !lexicon.entries(for: words[k + 1]).contains { $0.partOfSpeech == .preposition || $0.partOfSpeech.isDeterminer }
            // An adjective before its noun ("le grand marché") only when the word is more often
            // an adjective than a noun ("le dîner extra": "dîner" is the noun).
            let adjectiveFirst = isAdjective && nextIsNoun
                && (entries.filter { $0.partOfSpeech == .adjective }.map(\.formFrequency).max() ?? 0)
                    >= (nounReadings(w, lexicon).map(\.formFrequency).max() ?? 0)
            if isNoun && !adjectiveFirst { return k }
            guard isAdjective else { return nil }
            k += 1
        }
        return nil
    }

    /// The gender of the most frequent noun reading that has one.
    static func dominantGender(_ readings: [LexicalEntry]) -> Gender? {
        readings.filter { $0.gender != nil }.max { $0.formFrequency < $1.formFrequency }?.gender
    }
}

/// The kinds of labels' head nouns (`Resources/label-kinds.tsv`: `noun<TAB>kind` lines).
public struct LabelKinds: Sendable {
    /// Lower-case head noun (singular, as Lexique's lemma) → kind.
    public var kinds: [String: String]

    /// The table shipped in the module's resources (empty when it cannot be read; a test checks
    /// that it parses).
    public static let bundled: LabelKinds = (try? LabelKinds.load()) ?? LabelKinds(kinds: [:])

    public init(kinds: [String: String]) { self.kinds = kinds }

    /// Reads the bundled `label-kinds.tsv`.
    /// - Throws: `LibraryError.missingResource`, `.malformedKinds` (a line that is not
    ///   `noun<TAB>kind`, a noun listed twice) or `.unknownKind` (a kind not in `LabelPhrase.kinds`).
    public static func load() throws(LibraryError) -> LabelKinds {
        guard let url = Bundle.module.url(forResource: "label-kinds", withExtension: "tsv", subdirectory: "Resources"),
              let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
            throw .missingResource("Resources/label-kinds.tsv")
        }
        return try parse(text, file: "label-kinds.tsv")
    }

    /// Parses `noun<TAB>kind` lines, `#` comments, an optional `noun<TAB>kind` header.
    public static func parse(_ text: String, file: String) throws(LibraryError) -> LabelKinds {
        var kinds: [String: String] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw)
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") || line == "noun\tkind" { continue }
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, kinds[parts[0].lowercased()] == nil else {
                throw .malformedKinds(file: file, line: index + 1)
            }
            guard LabelPhrase.kinds.contains(parts[1]) else { throw .unknownKind(parts[1], file: file, line: index + 1) }
            kinds[parts[0].lowercased()] = parts[1]
        }
        return LabelKinds(kinds: kinds)
    }

    /// The kind of a head noun: as written, then its lemmas (plural → singular).
    public func kind(of noun: String, lemmas: [String] = []) -> String? {
        ([noun] + lemmas).lazy.compactMap { kinds[$0.lowercased()] }.first
    }
}
