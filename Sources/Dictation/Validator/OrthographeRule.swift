import DicteeCore
import Foundation
import French

/// One named heuristic of step 8 (`orthographe_grammaire`): an agreement or a homophone that
/// Grammalecte lets through, looked for at each word of the text.
///
/// The validator runs ``all`` word by word, each rule in table order at each word, and reports a
/// message once however often it matches; so the findings come in text order.
public struct OrthographeRule: Sendable {
    /// Stable id (`elision_consonne`, `nous_a`...): ``Finding/rule``, and stored with each failed
    /// attempt for `dictee stats`. Never rename one.
    public let id: String
    /// Whether the rule matches at word `i` (an index into `a.tagged`, a word token): the words
    /// the message quotes (as written, already shortened for display), or `nil` when it does not.
    public let match: @Sendable (_ a: TextAnalysis, _ i: Int) -> [String]?
    /// The French sentence for a match, built from the words `match` returned.
    public let message: @Sendable (_ words: [String]) -> String

    /// - Parameters:
    ///   - id: the stable id.
    ///   - match: looks at one word; returns the quoted words or `nil`.
    ///   - message: builds the French sentence from the quoted words.
    public init(id: String, match: @escaping @Sendable (_ a: TextAnalysis, _ i: Int) -> [String]?,
                message: @escaping @Sendable (_ words: [String]) -> String) {
        self.id = id
        self.match = match
        self.message = message
    }

    /// The finding of a match at word `i`, or `nil`.
    /// - Parameters:
    ///   - a: the analysed text.
    ///   - i: an index into `a.tagged`.
    /// - Returns: a finding of step `orthographe_grammaire` with this rule's id.
    public func finding(_ a: TextAnalysis, at i: Int) -> Finding? {
        match(a, i).map { Finding(step: .orthographeGrammaire, rule: id, message: message($0)) }
    }
}

extension OrthographeRule {
    /// The deterministic agreements and homophones of step 8, in the order they are tried at
    /// each word.
    public static let all: [OrthographeRule] = [
        elisionConsonne, elisionVoyelle, ilA, nomA, sEstSansSujet, peuPeut, niNY, laLa, aLeAu, aPreposition, ceSe, caSa, sonSont, nousA,
        sujetsCoordonnes, groupeNominalVerbe, etEst, estEt, participeAvoir,
    ]

    /// Words after which a new clause, with its own subject, may start: "et les spectateurs
    /// parlaient", "quand les enfants sont arrivés".
    static let clauseOpeners: Set<String> = ["et", "mais", "puis", "alors", "quand", "car", "lorsque", "lorsqu'", "comme", "ensuite", "où"]

    /// A finite verb, or after a reflexive pronoun a word with a finite verb reading that the
    /// tagger took for something else ("s'est": not the noun "est").
    static func isFiniteVerb(_ a: TextAnalysis, _ k: Int) -> Bool {
        let t = a.tagged
        if t[k].wordClass == .finiteVerb { return true }
        return k > 0 && FrenchWords.reflexivePronouns.contains(t[k - 1].normalized)
            && t[k].entries.contains { $0.partOfSpeech.isVerb && $0.verbForms.contains(where: \.isFinite) }
    }

    /// Whether the clause before word `i` (back to the sentence start or a punctuation mark) has a
    /// finite verb: then "et les enfants…" opens a new clause; else "Léa et sa cousine rigolent"
    /// is one coordinated subject.
    static func verbBefore(_ a: TextAnalysis, _ i: Int) -> Bool {
        let t = a.tagged
        var k = i - 1
        while k >= 0, t[k].token.kind == .word {
            if t[k].wordClass == .finiteVerb { return true }
            k -= 1
        }
        return false
    }

    /// "La salle et sombre", "Léa et contente": a subject group at the start of a clause, with no
    /// verb yet, or a subject pronoun ("elle et contente"), then "et" and an adjective or a
    /// participle ending the clause: the verb être.
    static let etEst = OrthographeRule(id: "et_est", match: { a, i in
        let t = a.tagged
        guard t[i].normalized == "et", i >= 1, let next = next(a, i), next.wordClass == .adjective || next.wordClass == .pastParticiple,
              !next.entries.contains(where: { $0.partOfSpeech == .noun && $0.formFrequency > 5 }),
              t[i - 1].wordClass == .noun || t[i - 1].wordClass == .properNoun || thirdPersonSingular.contains(t[i - 1].normalized)
        else { return nil }
        // The words after: the end of the clause or a complement ("et fière de sa médaille").
        let endsThere = !(i + 2 < t.count && t[i + 2].token.kind == .word
            && !(FrenchWords.prepositions.contains(t[i + 2].normalized) || t[i + 2].wordClass == .adverb))
        // "elle et contente": a subject pronoun is never joined by "et" to an adjective.
        if thirdPersonSingular.contains(t[i - 1].normalized) { return endsThere ? [t[i - 1].token.text, shown(next.token.text)] : nil }
        // Two adjectives after a noun: "un garçon calme et attentif" ("calme" is a noun too).
        if i >= 2, t[i - 2].wordClass == .noun, t[i - 1].entries.contains(where: { $0.partOfSpeech == .adjective }) { return nil }
        if !endsThere { return nil }
        // Back to the clause start: no finite verb, and a determiner group or a name there.
        var k = i - 1
        while k > 0, t[k - 1].token.kind == .word { k -= 1 }
        guard !t[k..<i].contains(where: { $0.wordClass == .finiteVerb }),
              t[k].wordClass == .determiner || t[k].wordClass == .properNoun, !pluralDeterminers.contains(t[k].normalized) else { return nil }
        return [t[i - 1].token.text, shown(next.token.text)]
    }, message: { "« \($0[0]) et \($0[1]) » : il manque le verbe être, écris « \($0[0]) est \($0[1]) »." })

    /// "Léa a nagée", "elle avait mangées": right after its subject (a name or il, elle, on), the
    /// participle of an -er verb with avoir never agrees with it (an object before, "elle l'a
    /// rangée", is another case, left to Grammalecte).
    static let participeAvoir = OrthographeRule(id: "participe_avoir", match: { a, i in
        let t = a.tagged
        guard ["a", "avait", "aura", "eut", "aurait"].contains(t[i].normalized), i >= 1, let next = next(a, i),
              t[i - 1].wordClass == .properNoun || thirdPersonSingular.contains(t[i - 1].normalized),
              // "les rôles qu'Inès avait imaginés": the object "que" comes first, it agrees.
              i < 2 || !["que", "qu'"].contains(t[i - 2].normalized),
              // An intransitive verb's agreed form is not in Lexique ("nagée"): unknown there.
              next.wordClass == .pastParticiple || next.entries.isEmpty, next.normalized != "été",
              let stem = ["ées", "ée", "és"].first(where: next.normalized.hasSuffix).map({ String(next.normalized.dropLast($0.count)) })
        else { return nil }
        return [t[i].token.text, next.token.text, stem + "é"]
    }, message: { "« \($0[0]) \(shown($0[1])) » : avec « avoir », le participe ne s'accorde pas avec le sujet ; écris « \($0[0]) \($0[2]) »." })

    /// "L'eau était chaude est elle a aimé ça": "est" before a subject pronoun and its verb
    /// joins two clauses: the conjunction "et" ("est-elle", the question, has its hyphen).
    static let estEt = OrthographeRule(id: "est_et", match: { a, i in
        let t = a.tagged
        guard t[i].normalized == "est", i >= 1, t[i - 1].token.kind == .word, let next = next(a, i),
              ["il", "elle", "on", "ils", "elles"].contains(next.normalized) else { return nil }
        let k = skippingClitics(t, from: i + 2)
        guard k < t.count, t[k].wordClass == .finiteVerb else { return nil }
        return [next.token.text]
    }, message: { "« est \($0[0]) » : pour relier deux phrases, c'est la conjonction « et » (et \($0[0]) …)." })

    static func shown(_ word: String) -> String { Validator.shown(word) }

    /// The word after `i`, if any.
    static func next(_ a: TextAnalysis, _ i: Int) -> TaggedToken? { i + 1 < a.tagged.count ? a.tagged[i + 1] : nil }

    /// Persons of the subject pronouns, as Lexique writes them (`1s`...`3p`).
    /// The subject pronouns of the third person singular: il, elle, on.
    static let thirdPersonSingular: Set<String> = ["il", "elle", "on"]

    /// The first index from `k` that is not a negation, an object or a reflexive pronoun (the
    /// words between a subject pronoun and its verb: "elle ne les a", "il se").
    static func skippingClitics(_ t: [TaggedToken], from k: Int) -> Int {
        var k = k
        while k < t.count, t[k].wordClass == .negation || t[k].wordClass == .objectPronoun || FrenchWords.reflexivePronouns.contains(t[k].normalized) { k += 1 }
        return k
    }

    static let persons: [String: String] = ["je": "1s", "j'": "1s", "tu": "2s", "il": "3s", "elle": "3s", "on": "3s", "nous": "1p", "vous": "2p", "ils": "3p", "elles": "3p"]
    static let pluralDeterminers: Set<String> = ["les", "mes", "tes", "ses", "nos", "vos", "leurs", "ces", "plusieurs", "quelques"]
    static let singularDeterminers: Set<String> = ["le", "la", "l'", "un", "une", "mon", "ton", "son", "ma", "ta", "sa", "ce", "cet", "cette", "notre", "votre", "chaque"]

    /// Elision only before a vowel or a mute h: "l'maison".
    static let elisionConsonne = OrthographeRule(id: "elision_consonne", match: { a, i in
        let t = a.tagged
        guard t[i].token.isElided, let next = next(a, i), next.token.kind == .word,
              let c = next.normalized.unicodeScalars.first, !"aeiouyhàâäéèêëîïôöûùüœæ".unicodeScalars.contains(c) else { return nil }
        return [t[i].token.text, shown(next.token.text)]
    }, message: { "Pas d'apostrophe devant une consonne : « \($0[0])\($0[1]) » s'écrit sans élision." })

    /// The elision forgotten before a vowel: "de elle", "que il", "le arbre", "je ai". Not
    /// before an h (aspirated or mute, dictionaries disagree: "le héros", "de Hugo" are left to
    /// Grammalecte), nor before "un"/"une" as numbers nor "onze", "oui", "y" (pronoun).
    static let elisionVoyelle = OrthographeRule(id: "elision_voyelle", match: { a, i in
        let t = a.tagged
        let elides: [String: String] = ["de": "d'", "que": "qu'", "le": "l'", "la": "l'", "je": "j'", "me": "m'", "te": "t'", "se": "s'",
                                        "ne": "n'", "ce": "c'", "jusque": "jusqu'", "lorsque": "lorsqu'", "puisque": "puisqu'"]
        guard t[i].token.kind == .word, let elided = elides[t[i].normalized], let next = next(a, i), next.token.kind == .word,
              let c = next.normalized.unicodeScalars.first, "aeiouàâäéèêëîïôöûùüœæ".unicodeScalars.contains(c),
              !["onze", "oui", "ouistiti", "ouate"].contains(next.normalized) else { return nil }
        // "ce" before a noun is a determiner that takes "cet" (a rule of its own elsewhere);
        // "la" and "le" as object pronouns after an imperative ("donne-le à") are hyphenated.
        if t[i].normalized == "ce", next.wordClass != .finiteVerb { return nil }
        return [t[i].token.text, shown(next.token.text), elided]
    }, message: { "Élision devant une voyelle : écris « \($0[2])\($0[1]) » et non « \($0[0]) \($0[1]) »." })

    /// "il à froid": after a subject pronoun, the verb avoir.
    static let ilA = OrthographeRule(id: "il_a_accent", match: { a, i in
        let t = a.tagged
        guard let next = next(a, i), t[i].wordClass == .subjectPronoun, ["il", "elle", "on"].contains(t[i].normalized),
              next.normalized == "à" else { return nil }
        return [t[i].token.text]
    }, message: { "« \($0[0]) à » : après un sujet, c'est le verbe avoir, « \($0[0]) a »." })

    /// "Léa à froid": a name at the start of a clause, "à" and a noun without determiner.
    static let nomA = OrthographeRule(id: "nom_a_accent", match: { a, i in
        let t = a.tagged
        guard let next = next(a, i), t[i].wordClass == .properNoun, next.normalized == "à", i + 2 < t.count,
              t[i + 2].entries.contains(where: { $0.partOfSpeech == .noun }), !t[i + 2].entries.contains(where: { $0.partOfSpeech.isDeterminer }),
              !(i > 0 && t[i - 1].token.kind == .word) else { return nil }
        return [t[i].token.text, t[i + 2].token.text]
    }, message: { "« \($0[0]) à \($0[1]) » : ici c'est le verbe avoir, « \($0[0]) a \($0[1]) »." })

    /// "S'est une belle journée": "s'est" without a subject is "c'est".
    static let sEstSansSujet = OrthographeRule(id: "s_est_sans_sujet", match: { a, i in
        let t = a.tagged
        guard let next = next(a, i), t[i].normalized == "s'", next.normalized == "est",
              i == 0 || t[i - 1].token.kind == .punctuation else { return nil }
        return [t[i].token.text, next.token.text]
    }, message: { "« \($0[0])\($0[1]) » sans sujet devant : c'est « c'est »." })

    /// A subject just before: a subject pronoun or a name.
    static func subjectBefore(_ a: TextAnalysis, _ i: Int) -> Bool {
        i > 0 && (a.tagged[i - 1].wordClass == .subjectPronoun || a.tagged[i - 1].wordClass == .properNoun)
    }

    /// "Léa peu nager": the verb pouvoir.
    static let peuPeut = OrthographeRule(id: "peu_peut", match: { a, i in
        let t = a.tagged
        guard let next = next(a, i), t[i].normalized == "peu", subjectBefore(a, i),
              next.wordClass == .infinitive || next.entries.contains(where: { $0.verbForms.contains { $0.mood == .inf } }) else { return nil }
        return [t[i - 1].token.text, next.token.text]
    }, message: { "« \($0[0]) peu \($0[1]) » : c'est le verbe pouvoir, « peut »." })

    /// "Léa ni voyait rien": "n'y".
    static let niNY = OrthographeRule(id: "ni_n_y", match: { a, i in
        let t = a.tagged
        guard let next = next(a, i), t[i].normalized == "ni", subjectBefore(a, i), next.entries.contains(where: { $0.partOfSpeech.isVerb }),
              next.wordClass != .determiner, next.wordClass != .properNoun, next.wordClass != .noun else { return nil }
        return [t[i - 1].token.text]
    }, message: { "« \($0[0]) ni » : écris « n'y »." })

    /// "Léa est restée la longtemps": "là".
    static let laLa = OrthographeRule(id: "la_la_accent", match: { a, i in
        let t = a.tagged
        guard let next = next(a, i), t[i].normalized == "la", next.token.kind == .punctuation || next.normalized == "longtemps", i > 0,
              t[i - 1].token.kind == .word, t[i - 1].wordClass != .subjectPronoun else { return nil }
        return []
    }, message: { _ in "« la » seul, sans nom après, désigne un lieu : écris « là »." })

    /// "parlé de les pommes": "des", "à le", "au"...
    static let aLeAu = OrthographeRule(id: "contraction_article", match: { a, i in
        let t = a.tagged
        let w = t[i].normalized
        guard let next = next(a, i), w == "à" || w == "de", ["le", "les"].contains(next.normalized), next.wordClass == .determiner,
              i + 2 < t.count, t[i + 2].wordClass == .noun || t[i + 2].wordClass == .adjective else { return nil }
        // Before an infinitive, "le"/"les" is a pronoun: "à les ranger", "envie de les goûter"
        // (Lexique also lists ranger, goûter, dîner, rire... as nouns).
        if t[i + 2].entries.contains(where: { $0.partOfSpeech.isVerb && $0.verbForms.contains { $0.mood == .inf } }) { return nil }
        let right = w == "à" ? (next.normalized == "le" ? "au" : "aux") : (next.normalized == "le" ? "du" : "des")
        return [t[i].token.text, next.token.text, shown(t[i + 2].token.text), right]
    }, message: { "« \($0[0]) \($0[1]) \($0[2]) » : écris « \($0[3]) \($0[2]) »." })

    /// "allée a la piscine": after a participle or an infinitive, the preposition "à".
    static let aPreposition = OrthographeRule(id: "a_preposition", match: { a, i in
        let t = a.tagged
        guard let next = next(a, i), t[i].normalized == "a", i > 0, [.pastParticiple, .infinitive].contains(t[i - 1].wordClass),
              next.wordClass == .determiner else { return nil }
        return [t[i - 1].token.text, next.token.text]
    }, message: { "« \($0[0]) a \($0[1]) » : ici c'est la préposition « à »." })

    /// "Les enfants ce sont régalés": the pronoun "se".
    static let ceSe = OrthographeRule(id: "ce_se", match: { a, i in
        let t = a.tagged
        guard let next = next(a, i), t[i].normalized == "ce", next.normalized == "sont" || next.normalized == "est", i + 2 < t.count,
              t[i + 2].wordClass == .pastParticiple,
              t[i + 2].entries.contains(where: { $0.partOfSpeech.isVerb && !etreVerbs.contains($0.lemma) }) else { return nil }
        return [next.token.text, shown(t[i + 2].token.text)]
    }, message: { "« ce \($0[0]) \($0[1]) » : c'est le pronom « se » (se \($0[0]) \($0[1]))." })

    /// "Léa mange ça pomme": before a noun, the determiner "sa".
    static let caSa = OrthographeRule(id: "ca_sa", match: { a, i in
        let t = a.tagged
        guard let next = next(a, i), t[i].normalized == "ça", next.wordClass == .noun,
              next.entries.filter({ $0.partOfSpeech == .noun }).weight > 2 * next.entries.filter({ $0.partOfSpeech.isVerb }).weight else { return nil }
        return [shown(next.token.text)]
    }, message: { "« ça \($0[0]) » : devant un nom, c'est le déterminant « sa »." })

    /// "Les poneys son dans le pré": the determiner "son" needs its noun; before a preposition
    /// it is the verb être, "sont" ("le son du piano", "un son dans la salle": the noun, after a
    /// determiner, is left alone).
    static let sonSont = OrthographeRule(id: "son_sont", match: { a, i in
        let t = a.tagged
        guard let next = next(a, i), t[i].normalized == "son", i == 0 || t[i - 1].wordClass != .determiner,
              // "de" aside: "son de cloche" is the noun.
              FrenchWords.prepositions.subtracting(["de", "d'"]).union(["au", "aux"]).contains(next.normalized)
        else { return nil }
        return [t[i].token.text, next.token.text]
    }, message: { "« \($0[0]) \($0[1]) » : ici c'est le verbe être, « sont » (ils sont \($0[1]))." })

    /// "Nous a nagé": a subject pronoun and a verb of another person (not after "et", "ou",
    /// "ni" or a comma: "Léa et elle sont", "toi, moi et elle").
    static let nousA = OrthographeRule(id: "nous_a", match: { a, i in
        let t = a.tagged
        guard i + 1 < t.count else { return nil }
        let coordinated = i > 0 && (["et", "ou", "ni"].contains(t[i - 1].normalized) || t[i - 1].token.text == ",")
        guard t[i].wordClass == .subjectPronoun, !coordinated, let person = persons[t[i].normalized] else { return nil }
        let k = skippingClitics(t, from: i + 1)
        guard k < t.count, t[k].wordClass == .finiteVerb else { return nil }
        let all = t[k].entries.filter { $0.partOfSpeech.isVerb }.flatMap(\.verbForms).filter(\.isFinite)
        guard !all.isEmpty, !all.contains(where: { $0.person == person }) else { return nil }
        return [t[i].token.text, shown(t[k].token.text)]
    }, message: { "« \($0[0]) … \($0[1]) » : le verbe ne s'accorde pas avec son sujet « \($0[0]) »." })

    /// "Léa et ses amies nage": two subjects joined by "et" need a plural verb.
    static let sujetsCoordonnes = OrthographeRule(id: "sujets_coordonnes", match: { a, i in
        let t = a.tagged
        guard i + 1 < t.count, isFiniteVerb(a, i), i >= 3, let et = coordinatedSubjectStart(a, verb: i) else { return nil }
        let forms = t[i].entries.filter { $0.partOfSpeech.isVerb }.flatMap(\.verbForms).filter { $0.isFinite && $0.mood != .imp }
        guard !forms.isEmpty, !forms.contains(where: { $0.person?.hasSuffix("p") == true }) else { return nil }
        return [t[et - 1].token.text, shown(t[i].token.text)]
    }, message: { "« \($0[0]) et … \($0[1]) » : deux sujets réunis par « et » demandent un verbe au pluriel." })

    /// "Les enfants nage", "Le chat dorment": a determiner group at the start of a sentence or
    /// clause and its verb agree in number.
    static let groupeNominalVerbe = OrthographeRule(id: "groupe_nominal_verbe", match: { a, i in
        let t = a.tagged
        let w = t[i].normalized
        guard let next = next(a, i), t[i].wordClass == .determiner, pluralDeterminers.contains(w) || singularDeterminers.contains(w),
              next.wordClass == .noun,
              i == 0 || t[i - 1].token.kind == .punctuation || a.text.sentences.contains(where: { $0.lowerBound == i })
                || (clauseOpeners.contains(t[i - 1].normalized) && verbBefore(a, i - 1))
        else { return nil }
        let k = skippingClitics(t, from: i + 2)
        guard k < t.count, t[k].wordClass == .finiteVerb else { return nil }
        let forms = t[k].entries.filter { $0.partOfSpeech.isVerb }.flatMap(\.verbForms).filter { $0.isFinite && $0.mood != .imp }
        let wanted = pluralDeterminers.contains(w) ? "3p" : "3s"
        guard !forms.isEmpty, !forms.contains(where: { $0.person == wanted }) else { return nil }
        return [t[i].token.text, next.token.text, shown(t[k].token.text), wanted == "3p" ? "pluriel" : "singulier"]
    }, message: { "« \($0[0]) \($0[1]) \($0[2]) » : le verbe s'accorde avec son sujet au \($0[3])." })

    /// For a verb at `verb`, the index of "et" when the words before it are two subjects joined
    /// by "et" at the start of a clause: a name or a determiner group, "et", a name, a pronoun or
    /// a determiner group ("Léa et ses amies", "Le maître et la maîtresse").
    static func coordinatedSubjectStart(_ a: TextAnalysis, verb: Int) -> Int? {
        let t = a.tagged
        func groupStart(endingAt end: Int) -> Int? {
            guard end >= 0 else { return nil }
            if t[end].wordClass == .properNoun { return end }
            if ["elle", "lui", "moi", "toi", "eux", "elles"].contains(t[end].normalized) { return end }
            // A noun the tagger took for an adjective after its determiner ("ses amis").
            let nounAfterDeterminer = t[end].wordClass == .adjective && end > 0 && t[end - 1].wordClass == .determiner
                && t[end].entries.contains { $0.partOfSpeech == .noun }
            guard t[end].wordClass == .noun || nounAfterDeterminer else { return nil }
            var k = end - 1
            while k >= 0, t[k].wordClass == .adjective { k -= 1 }
            return k >= 0 && t[k].wordClass == .determiner ? k : nil
        }
        var k = verb - 1
        while k >= 0, t[k].wordClass == .negation || t[k].wordClass == .objectPronoun || FrenchWords.reflexivePronouns.contains(t[k].normalized) { k -= 1 }
        guard let second = groupStart(endingAt: k), second >= 2, t[second - 1].normalized == "et",
              let first = groupStart(endingAt: second - 2) else { return nil }
        guard first == 0 || t[first - 1].token.kind == .punctuation else { return nil }
        return second - 1
    }
}

extension Validator {
    /// The named rules (``OrthographeRule/all``) at every word, word by word; each message once.
    /// - Parameters:
    ///   - a: the analysed text.
    ///   - rules: the table to run (all of step 8 by default; tests run one rule).
    /// - Returns: findings of step `orthographe_grammaire`, in text order.
    func ruleFindings(_ a: TextAnalysis, rules: [OrthographeRule] = OrthographeRule.all) -> [Finding] {
        var out: [Finding] = []
        for i in a.tagged.indices where a.tagged[i].token.kind == .word {
            for rule in rules {
                if let f = rule.finding(a, at: i), !out.contains(where: { $0.message == f.message }) { out.append(f) }
            }
        }
        return out
    }
}
