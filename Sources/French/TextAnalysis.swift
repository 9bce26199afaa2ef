import Foundation
import DicteeCore

/// Anything that gives the Lexique 3.83 rows of a written form ([`Lexicon`] in production, a
/// small table in tests).
public protocol WordLookup: Sendable {
    /// Every row for `word` (exact form first, else its lower case); empty when unknown.
    func entries(for word: String) -> [LexicalEntry]
}

/// The role a word plays in its sentence, decided from Lexique's readings and a few context rules.
public enum WordClass: Sendable, Hashable {
    case properNoun, determiner, subjectPronoun, objectPronoun, preposition, conjunction, adverb
    case noun, adjective, finiteVerb, infinitive, pastParticiple, presentParticiple, negation
    case punctuation, number, other
    /// Not in the lexicon and not a proper noun.
    case unknown
}

/// One token with its lexicon rows and its role in context.
public struct TaggedToken: Sendable {
    /// The token as the tokenizer produced it (text, normalized form, Unicode scalar offsets).
    public var token: Token
    /// All Lexique rows of the form (hyphenated forms with an inverted pronoun, `dit-il`, use the
    /// verb's rows).
    public var entries: [LexicalEntry]
    /// The role chosen in context by the tagger's rules (see ``TextAnalysis``).
    public var wordClass: WordClass
    /// For a finite verb: its finite readings (`infover`) for the verb lemmas; empty otherwise.
    public var finiteForms: [VerbForm]
    /// The rows that fit `wordClass` (e.g. the `VER` rows of a finite verb, the `NOM` rows of a
    /// noun); all rows when nothing fits better.
    public var readings: [LexicalEntry]

    /// The token's normalized form (`Token.normalized`: lower case, straight apostrophe; `l'`
    /// for `L’`).
    public var normalized: String { token.normalized }
}

/// A tokenized text with every word tagged. Built once per text and shared by the trap analysis
/// and the validator's steps.
///
/// Tagging is deterministic and rule-based (no model): closed word classes come from fixed lists
/// (determiners, pronouns, prepositions), open classes from Lexique 3.83's `cgram` readings with
/// context rules: after a determiner a noun or adjective reading wins; after a subject pronoun
/// (skipping `ne` and object pronouns) a finite verb reading wins; after avoir/être a past
/// participle reading wins; after a preposition or a verb an infinitive reading wins; otherwise
/// the reading with the higher form frequency wins. Capitalised words inside a sentence, and the
/// given names, are proper nouns.
public struct TextAnalysis: Sendable {
    /// The tokens and sentences of the text.
    public let text: TokenizedText
    /// One tagged token per token of `text.tokens`: same count, same order, same indexes.
    public let tagged: [TaggedToken]
    /// The first names the text may contain (the child's, a friend's from the moment).
    public let names: Set<String>

    /// Tokenizes and tags a text.
    /// - Parameters:
    ///   - text: a French text (straight or typographic apostrophes).
    ///   - lexicon: the Lexique 3.83 rows of each form.
    ///   - names: first names the text may contain (`Léa`, `Jules`): proper nouns wherever they
    ///     stand, even at the start of a sentence; stored normalized (lower case).
    public init(_ text: String, lexicon: some WordLookup, names: Set<String> = []) {
        self.init(tokenized: Tokenizer.tokenize(text), lexicon: lexicon, names: names)
    }

    /// Tags an already tokenized text.
    /// - Parameters:
    ///   - tokenized: the output of `Tokenizer.tokenize(_:)`.
    ///   - lexicon: the Lexique 3.83 rows of each form.
    ///   - names: first names the text may contain, as for `init(_:lexicon:names:)`.
    public init(tokenized: TokenizedText, lexicon: some WordLookup, names: Set<String> = []) {
        self.text = tokenized
        self.names = Set(names.map { Tokenizer.normalize($0) })
        self.tagged = Tagger(text: tokenized, lexicon: lexicon, names: self.names).run()
    }

    /// Index of the previous word token before `index`, skipping the words in `skipping`.
    /// - Parameters:
    ///   - index: an index into `tagged`.
    ///   - skipping: normalized forms to pass over (e.g. `FrenchWords.negationsAndObjectPronouns`).
    /// - Returns: an index into `tagged` (a word or a number token), or `nil` when punctuation or
    ///   the start of the text comes first.
    public func previousWord(before index: Int, skipping: Set<String> = []) -> Int? {
        var k = index - 1
        while k >= 0 {
            let t = tagged[k]
            if t.token.kind == .punctuation { return nil }
            if !skipping.contains(t.normalized) { return k }
            k -= 1
        }
        return nil
    }

    /// Index of the next word token after `index`, skipping the words in `skipping`.
    /// - Parameters:
    ///   - index: an index into `tagged`.
    ///   - skipping: normalized forms to pass over.
    /// - Returns: an index into `tagged` (a word or a number token), or `nil` when punctuation or
    ///   the end of the text comes first.
    public func nextWord(after index: Int, skipping: Set<String> = []) -> Int? {
        var k = index + 1
        while k < tagged.count {
            let t = tagged[k]
            if t.token.kind == .punctuation { return nil }
            if !skipping.contains(t.normalized) { return k }
            k += 1
        }
        return nil
    }
}

/// Closed word lists used by the tagger and the trap rules (French grammar, not data).
public enum FrenchWords {
    /// Subject personal pronouns, normalized (lower case, straight apostrophe: `j'`). `nous` and
    /// `vous` are also object pronouns.
    public static let subjectPronouns: Set<String> = ["je", "j'", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles"]
    /// Object and reflexive pronouns placed before the verb (`il la mange`, `je m'habille`,
    /// `elle en veut`); `le`, `la`, `les`, `l'`, `leur` are also determiners.
    public static let objectPronouns: Set<String> = [
        "me", "m'", "te", "t'", "se", "s'", "le", "la", "les", "l'", "lui", "leur", "y", "en", "nous", "vous",
    ]
    /// The first part of a negation: `ne`, `n'`.
    public static let negations: Set<String> = ["ne", "n'"]
    /// What may stand between a subject and its verb: ne, n' and the object pronouns.
    public static let negationsAndObjectPronouns = negations.union(objectPronouns)
    /// Definite and indefinite articles, with the contracted forms `du`, `au`, `aux`.
    public static let articles: Set<String> = ["le", "la", "les", "l'", "un", "une", "des", "du", "au", "aux"]
    /// Possessive determiners (`mon` ... `leurs`).
    public static let possessives: Set<String> = [
        "mon", "ton", "son", "ma", "ta", "sa", "mes", "tes", "ses", "notre", "votre", "nos", "vos", "leur", "leurs",
    ]
    /// Demonstrative determiners: `ce`, `cet`, `cette`, `ces`.
    public static let demonstratives: Set<String> = ["ce", "cet", "cette", "ces"]
    /// Indefinite and interrogative determiners (`quelques`, `chaque`, `aucun`, `quel`...).
    public static let otherDeterminers: Set<String> = ["quelques", "plusieurs", "chaque", "aucun", "aucune", "quel", "quelle", "quels", "quelles"]
    /// Every determiner of the lists above: articles, possessives, demonstratives and the others.
    public static let determiners = articles.union(possessives).union(demonstratives).union(otherDeterminers)
    /// Common prepositions, with the elided `d'` and `jusqu'`.
    public static let prepositions: Set<String> = [
        "à", "de", "d'", "pour", "sans", "par", "en", "avec", "dans", "sur", "sous", "chez", "vers",
        "avant", "après", "pendant", "entre", "contre", "depuis", "jusqu'", "derrière", "devant", "près",
    ]
    /// Coordinating and common subordinating conjunctions (`et`, `mais`, `que`, `quand`, `si`...).
    public static let conjunctions: Set<String> = ["et", "ou", "mais", "donc", "or", "ni", "car", "que", "qu'", "quand", "comme", "si", "puis"]
    /// Reflexive pronouns before a verb: "s'est levée", "se sont amusés".
    public static let reflexivePronouns: Set<String> = ["s'", "se", "me", "m'", "te", "t'"]
    /// Adverbs that may stand between an auxiliary and its participle, or a verb and an attribute
    /// ("n'a pas encore mangé", "est toute contente", "est un peu fatiguée").
    public static let innerAdverbs: Set<String> = [
        "ne", "n'", "pas", "plus", "bien", "déjà", "tout", "toute", "toutes", "tous", "toujours", "jamais", "encore",
        "très", "si", "trop", "vraiment", "enfin", "aussi", "beaucoup", "souvent", "vite", "peu",
    ]
    /// Adverbial locutions that may stand between an auxiliary and its participle ("il a d'abord
    /// pris", "elle a tout de suite compris", "il a à peine mangé"), as normalized words.
    public static let adverbialLocutions: [[String]] = [
        ["d'", "abord"], ["tout", "de", "suite"], ["à", "peine"], ["peu", "à", "peu"], ["tout", "à", "coup"], ["tout", "d'", "un", "coup"],
        ["au", "moins"], ["bien", "sûr"], ["un", "peu"], ["de", "nouveau"], ["à", "nouveau"], ["tout", "à", "fait"],
    ]

    /// The length in words of the adverbial locution (``adverbialLocutions``) whose last word is
    /// `words[end]`; `nil` when none ends there.
    public static func adverbialLocution(endingAt end: Int, _ words: [String]) -> Int? {
        for l in adverbialLocutions where end - l.count + 1 >= 0 && end < words.count {
            if Array(words[(end - l.count + 1)...end]) == l { return l.count }
        }
        return nil
    }

    /// Day names in week order, Monday first, lower case as French writes them inside a
    /// sentence (`lundi`, not `Lundi`).
    public static let weekdays = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
    /// Month names in order, January first, lower case (`en septembre`).
    public static let monthNames = [
        "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre",
    ]
    /// `weekdays` as a set.
    public static let days = Set(weekdays)
    /// `monthNames` as a set.
    public static let months = Set(monthNames)
    /// Numerals written in words (Lexique `ADJ:num` covers more; these count as plural markers).
    public static let pluralNumerals: Set<String> = [
        "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze", "treize",
        "quatorze", "quinze", "seize", "vingt", "trente", "quarante", "cinquante", "soixante", "cent", "mille",
    ]
}

struct Tagger {
    let text: TokenizedText
    let lexicon: any WordLookup
    let names: Set<String>

    func run() -> [TaggedToken] {
        var out: [TaggedToken] = []
        out.reserveCapacity(text.tokens.count)
        var sentenceStart = Set<Int>()
        for s in text.sentences {
            // The first word of a sentence (after opening quotes or dashes).
            if let first = s.first(where: { text.tokens[$0].kind != .punctuation }) { sentenceStart.insert(first) }
        }
        // A quotation opens a sentence of its own: « Apporte tes jeux ! », “Viens !”.
        for i in text.tokens.indices.dropFirst() where ["«", "“"].contains(text.tokens[i - 1].text) && text.tokens[i].kind == .word {
            sentenceStart.insert(i)
        }
        for (i, token) in text.tokens.enumerated() {
            switch token.kind {
            case .punctuation:
                out.append(TaggedToken(token: token, entries: [], wordClass: .punctuation, finiteForms: [], readings: []))
                continue
            case .number:
                out.append(TaggedToken(token: token, entries: [], wordClass: .number, finiteForms: [], readings: []))
                continue
            case .word: break
            }
            let entries = lookup(token.normalized)
            // A capitalised first word known only as a rare noun is a first name ("Tom", "Jules").
            let rareNounOnly = !entries.isEmpty && entries.allSatisfy {
                $0.partOfSpeech == .noun && $0.formFrequency < 5
            }
            let isName = (token.isCapitalized && sentenceStart.contains(i) && rareNounOnly) || !token.isElided && !isClosedClass(token.normalized) && names.contains(token.normalized)
                || (!token.isElided && !isClosedClass(token.normalized) && token.isCapitalized
                    && (!sentenceStart.contains(i) || entries.isEmpty))
            if isName {
                out.append(TaggedToken(token: token, entries: entries, wordClass: .properNoun, finiteForms: [], readings: []))
                continue
            }
            out.append(tag(i, token, entries, out))
        }
        return out
    }

    func isClosedClass(_ w: String) -> Bool {
        FrenchWords.determiners.contains(w) || FrenchWords.subjectPronouns.contains(w)
            || FrenchWords.prepositions.contains(w) || FrenchWords.conjunctions.contains(w)
    }

    func lookup(_ word: String) -> [LexicalEntry] {
        let direct = lexicon.entries(for: word)
        if !direct.isEmpty || !word.utf8.contains(UInt8(ascii: "-")) { return direct }
        // Inverted subject pronoun: dit-il, a-t-elle, est-ce, mange-t-on → the verb's rows.
        let parts = word.split(separator: "-").map(String.init)
        let tails: Set<String> = ["t", "il", "elle", "on", "ils", "elles", "je", "tu", "nous", "vous", "ce", "moi", "toi", "le", "la", "les", "lui", "leur", "y", "en", "là", "ci"]
        if parts.count >= 2, parts.dropFirst().allSatisfy({ tails.contains($0) }) {
            return lexicon.entries(for: parts[0])
        }
        return []
    }

    func tag(_ i: Int, _ token: Token, _ entries: [LexicalEntry], _ before: [TaggedToken]) -> TaggedToken {
        let w = token.normalized
        func make(_ c: WordClass, _ readings: [LexicalEntry], _ forms: [VerbForm] = []) -> TaggedToken {
            TaggedToken(token: token, entries: entries, wordClass: c, finiteForms: forms, readings: readings.isEmpty ? entries : readings)
        }
        let prev = previousTagged(before, from: i)
        let prevWord = prev?.normalized
        // The previous token, skipping negation and object pronouns (the subject's slot).
        let subjectSlot = previousSkipping(before, from: i, skip: FrenchWords.negationsAndObjectPronouns)

        // Closed classes first.
        // "derrière elle", "avec eux", "sauf elle": a stressed pronoun, not a subject.
        if ["elle", "elles", "nous", "vous"].contains(w), let p = prev, p.wordClass == .preposition || p.normalized == "sauf" {
            return make(.objectPronoun, [])
        }
        if FrenchWords.subjectPronouns.contains(w), !(w == "nous" || w == "vous") || isSubjectPosition(before, i) {
            return make(.subjectPronoun, entries.filter { $0.partOfSpeech == .personalPronoun })
        }
        if w == "c'" || (w == "ce" && nextIsEtre(i)) { return make(.subjectPronoun, []) }
        if FrenchWords.negations.contains(w) { return make(.negation, []) }
        // Second parts of a negation are adverbs ("n'a plus faim" is not plaire's participle).
        if ["pas", "plus", "jamais", "rien", "point", "guère"].contains(w) {
            return make(.adverb, entries.filter { $0.partOfSpeech == .adverb })
        }
        if ["le", "la", "les", "l'"].contains(w) {
            // Object pronoun between a subject (or ne) and a verb: "il la mange", "je l'aime".
            if let p = prev, p.wordClass == .subjectPronoun || p.wordClass == .negation || p.wordClass == .objectPronoun,
               nextHasVerbReading(i) {
                return make(.objectPronoun, [])
            }
            // "Son professeur l'a pris", "Papa les a mis": before a word that is mostly a verb.
            if let p = prev, p.wordClass == .noun || p.wordClass == .properNoun, nextIsMostlyVerb(i) { return make(.objectPronoun, []) }
            return make(.determiner, [])
        }
        if ["me", "m'", "te", "t'", "se", "s'", "lui", "y", "en"].contains(w), w != "en" || nextHasVerbReading(i) {
            if w == "en", let p = prev, p.wordClass != .subjectPronoun, p.wordClass != .negation {
                return make(.preposition, [])
            }
            return make(.objectPronoun, [])
        }
        if (w == "nous" || w == "vous"), let p = prev, p.wordClass == .subjectPronoun || p.wordClass == .negation {
            return make(.objectPronoun, [])
        }
        if w == "leur" {
            if let p = prev, p.wordClass == .subjectPronoun || p.wordClass == .negation { return make(.objectPronoun, []) }
            if let p = prev, p.wordClass == .noun || p.wordClass == .properNoun, nextIsMostlyVerb(i) { return make(.objectPronoun, []) }
            return make(.determiner, [])
        }
        if w == "son", let p = prev, p.wordClass == .determiner {
            return make(.noun, entries.filter { $0.partOfSpeech == .noun })
        }
        if w == "est", prevWord == "l'", subjectSlot.map({ before[$0].wordClass != .subjectPronoun }) ?? true,
           previousTagged(before, from: i - 1).map({ $0.wordClass != .subjectPronoun }) ?? true {
            return make(.noun, entries.filter { $0.partOfSpeech == .noun })
        }
        if FrenchWords.determiners.contains(w) { return make(.determiner, []) }
        if FrenchWords.prepositions.contains(w) { return make(.preposition, entries.filter { $0.partOfSpeech == .preposition }) }
        if FrenchWords.conjunctions.contains(w) { return make(.conjunction, entries.filter { $0.partOfSpeech == .conjunction }) }

        if entries.isEmpty { return make(.unknown, []) }

        let verbRows = entries.filter { $0.partOfSpeech.isVerb }
        let finite = verbRows.flatMap { $0.verbForms.filter(\.isFinite) }
        let participleRows = verbRows.filter { $0.verbForms.contains { $0.mood == .par && $0.tense == .pas } }
        let infinitiveRows = verbRows.filter { $0.verbForms.contains { $0.mood == .inf } }
        let presentParticipleRows = verbRows.filter { $0.verbForms.contains { $0.mood == .par && $0.tense == .pre } }
        let nounRows = entries.filter { $0.partOfSpeech == .noun }
        let adjectiveRows = entries.filter { $0.partOfSpeech == .adjective || $0.partOfSpeech == .numeral }
        let adverbRows = entries.filter { $0.partOfSpeech == .adverb }
        let otherRows = entries.filter { !$0.partOfSpeech.isVerb && $0.partOfSpeech != .noun && $0.partOfSpeech != .adjective && $0.partOfSpeech != .adverb }

        let afterDeterminer = prev?.wordClass == .determiner
            || (prev?.wordClass == .adjective && previousTagged(before, from: i - 1)?.wordClass == .determiner)
        let afterSubject = subjectSlot.map { before[$0].wordClass == .subjectPronoun } ?? false
        // After the passive "été", only a word that would otherwise read as a finite verb
        // ("nous avons été accueillis"); "a été mouillé" keeps its usual reading.
        let auxiliaryBefore = auxiliary(before, i).map { $0 != "été" || !finite.isEmpty } ?? false
        let afterPreposition = prev?.wordClass == .preposition && ["à", "de", "d'", "pour", "sans", "par"].contains(prevWord ?? "")
        let afterVerb = prev?.wordClass == .finiteVerb || prev?.wordClass == .infinitive
            || (prev?.wordClass == .objectPronoun && !afterSubject)

        if afterDeterminer, !nounRows.isEmpty || !adjectiveRows.isEmpty {
            if nounRows.isEmpty { return make(.adjective, adjectiveRows) }
            // "un petit chat": a word with a noun and an adjective reading, followed by a noun,
            // is the adjective.
            if !adjectiveRows.isEmpty, nextIsNoun(i) { return make(.adjective, adjectiveRows) }
            return make(.noun, nounRows)
        }
        if auxiliaryBefore, !participleRows.isEmpty {
            return make(.pastParticiple, participleRows)
        }
        // After a form of être, a word with an adjective reading is that adjective, never a
        // second finite verb: "elle s'est tue" (taire, which Lexique lists as the adjective tu),
        // not tuer.
        if auxiliaryBefore, !adjectiveRows.isEmpty, let p = prev, p.readings.contains(where: { $0.lemma == "être" }) {
            return make(.adjective, adjectiveRows)
        }
        if !infinitiveRows.isEmpty, afterPreposition || (afterVerb && (finite.isEmpty || prev?.wordClass != .objectPronoun)) {
            return make(.infinitive, infinitiveRows)
        }
        if !finite.isEmpty, afterSubject || (prev?.wordClass == .subjectPronoun) {
            return make(.finiteVerb, verbRows.filter { $0.verbForms.contains(where: \.isFinite) }, finite)
        }
        // A noun group or a name right before, and a third-person finite reading: the verb.
        if !finite.isEmpty, let p = prev, p.wordClass == .noun || p.wordClass == .properNoun || (p.wordClass == .adjective && nounBefore(before, i - 1)),
           finite.contains(where: \.isThirdPerson), !(p.wordClass == .noun && !adjectiveRows.isEmpty && agrees(adjectiveRows, p)) {
            return make(.finiteVerb, verbRows.filter { $0.verbForms.contains(where: \.isFinite) }, finite)
        }
        // Otherwise the most frequent reading.
        let finiteRows = verbRows.filter { $0.verbForms.contains(where: \.isFinite) }
        var best: (WordClass, Float, [LexicalEntry]) = (.other, -1, otherRows)
        for candidate: (WordClass, [LexicalEntry]) in [
            (.finiteVerb, finiteRows), (.noun, nounRows), (.adjective, adjectiveRows), (.adverb, adverbRows),
            // A participle right after a noun is adjectival ("la porte fermée").
            (prev?.wordClass == .noun ? .adjective : .pastParticiple, participleRows.filter { _ in finite.isEmpty || prev?.wordClass == .noun }),
            (.infinitive, infinitiveRows), (.presentParticiple, presentParticipleRows), (.other, otherRows),
        ] where !candidate.1.isEmpty {
            let w = candidate.1.weight
            if w > best.1 { best = (candidate.0, w, candidate.1) }
        }
        if best.0 == .finiteVerb { return make(.finiteVerb, finiteRows, finite) }
        if best.0 == .other, let p = otherRows.first?.partOfSpeech {
            switch p {
            case .preposition: return make(.preposition, otherRows)
            case .conjunction: return make(.conjunction, otherRows)
            case .personalPronoun: return make(.objectPronoun, otherRows)
            default: return make(.other, otherRows)
            }
        }
        return make(best.0, best.2)
    }

    func nextIsNoun(_ i: Int) -> Bool {
        guard i + 1 < text.tokens.count, text.tokens[i + 1].kind == .word else { return false }
        let rows = lookup(text.tokens[i + 1].normalized)
        let verbWeight = rows.filter { $0.partOfSpeech.isVerb && $0.verbForms.contains(where: \.isFinite) }.weight
        let finite = verbWeight >= 1 && verbWeight >= 0.5 * rows.filter { $0.partOfSpeech == .noun }.weight
        // "ses amies nage." : a word that can be a verb and ends the clause is the verb.
        if finite, i + 2 >= text.tokens.count || text.tokens[i + 2].kind == .punctuation { return false }
        return rows.contains { $0.partOfSpeech == .noun } && !rows.contains { $0.partOfSpeech.isVerb && $0.verbForms.contains(where: \.isFinite) && $0.formFrequencyBooks > 50 }
    }

    func agrees(_ adjectives: [LexicalEntry], _ noun: TaggedToken) -> Bool {
        let n = noun.readings.first
        return adjectives.contains { ($0.gender == nil || $0.gender == n?.gender) && ($0.number == nil || $0.number == n?.number) }
    }

    func nounBefore(_ before: [TaggedToken], _ index: Int) -> Bool {
        index - 1 >= 0 && before[index - 1].wordClass == .noun
    }

    func previousTagged(_ before: [TaggedToken], from i: Int) -> TaggedToken? {
        guard i - 1 >= 0, i - 1 < before.count else { return nil }
        let p = before[i - 1]
        return p.wordClass == .punctuation ? nil : p
    }

    func previousSkipping(_ before: [TaggedToken], from i: Int, skip: Set<String>) -> Int? {
        var k = i - 1
        while k >= 0 {
            let p = before[k]
            if p.wordClass == .punctuation { return nil }
            if skip.contains(p.normalized), p.wordClass == .negation || p.wordClass == .objectPronoun { k -= 1; continue }
            return k
        }
        return nil
    }

    /// "nous"/"vous" are subjects at the start of a clause (sentence start, after punctuation or
    /// a conjunction) and objects after a subject.
    func isSubjectPosition(_ before: [TaggedToken], _ i: Int) -> Bool {
        guard let p = previousTagged(before, from: i) else { return true }
        return p.wordClass == .conjunction || p.wordClass == .adverb || p.wordClass == .properNoun
    }

    func nextIsEtre(_ i: Int) -> Bool {
        guard i + 1 < text.tokens.count else { return false }
        let n = text.tokens[i + 1].normalized
        return lexicon.entries(for: n).contains { $0.lemma == "être" && $0.partOfSpeech.isVerb }
    }

    /// The next word's verb readings outweigh its other readings (form frequencies): "a", "mange".
    func nextIsMostlyVerb(_ i: Int) -> Bool {
        guard i + 1 < text.tokens.count, text.tokens[i + 1].kind == .word else { return false }
        let rows = lookup(text.tokens[i + 1].normalized)
        let verb = rows.filter { $0.partOfSpeech.isVerb && $0.verbForms.contains(where: \.isFinite) }.weight
        return verb > 0 && verb > rows.filter { !$0.partOfSpeech.isVerb }.weight
    }

    func nextHasVerbReading(_ i: Int) -> Bool {
        var k = i + 1
        while k < text.tokens.count {
            let n = text.tokens[k]
            if n.kind != .word { return false }
            if FrenchWords.objectPronouns.contains(n.normalized) || FrenchWords.negations.contains(n.normalized) { k += 1; continue }
            return lookup(n.normalized).contains { $0.partOfSpeech.isVerb }
        }
        return false
    }

    /// A form of avoir or être before `i` (skipping inner adverbs and the subject of an
    /// inversion), as the auxiliary of a compound tense.
    /// Also after the participle "été" of a compound passive ("nous avons été accueillis") and
    /// past any adverb or adverbial locution ("il a d'abord pris", "elle a rapidement appris").
    /// - Returns: the auxiliary as written, normalized ("a", "est", "été"); `nil` when none.
    func auxiliary(_ before: [TaggedToken], _ i: Int) -> String? {
        var k = i - 1
        var skipped = 0
        while k >= 0, skipped <= 4 {
            let p = before[k]
            if p.wordClass == .punctuation { return nil }
            if let n = FrenchWords.adverbialLocution(endingAt: k, before.map(\.normalized)) { k -= n; skipped += 1; continue }
            if FrenchWords.innerAdverbs.contains(p.normalized) || p.wordClass == .adverb { k -= 1; skipped += 1; continue }
            if p.normalized == "été", p.wordClass == .pastParticiple { return "été" }
            return p.wordClass == .finiteVerb && p.readings.contains { $0.lemma == "avoir" || $0.lemma == "être" } ? p.normalized : nil
        }
        return nil
    }
}
extension Lexicon: WordLookup {}

/// A memo in front of another lookup: the decoded rows of each form are kept, so a validator that
/// checks thousands of texts decodes each word once. Thread-safe; holds at most `limit` forms
/// (then looks up without keeping).
public final class CachedLookup: WordLookup, @unchecked Sendable {
    /// The lookup asked on a miss (usually the mapped Lexique 3.83 ``Lexicon``).
    public let base: any WordLookup
    /// The most forms the memo keeps (a count of distinct `word` strings, not bytes).
    public let limit: Int
    private let lock = NSLock()
    private var memo: [String: [LexicalEntry]] = [:]

    /// - Parameters:
    ///   - base: the lookup to memoize.
    ///   - limit: the most forms kept (100,000 by default); later misses are looked up unkept.
    public init(_ base: any WordLookup, limit: Int = 100_000) {
        self.base = base
        self.limit = limit
    }

    /// The rows of `word` from the memo, or from `base` (then kept while under `limit`).
    /// - Parameters:
    ///   - word: a written form, as passed to `base` (no normalization here).
    /// - Returns: `base.entries(for: word)`; empty when the form is unknown.
    public func entries(for word: String) -> [LexicalEntry] {
        lock.lock()
        if let known = memo[word] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let rows = base.entries(for: word)
        lock.lock()
        if memo.count < limit { memo[word] = rows }
        lock.unlock()
        return rows
    }
}
