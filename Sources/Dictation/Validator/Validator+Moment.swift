import DicteeCore
import Foundation
import French

// Step 7, moment: the text speaks of this moment, with the right article.

extension Validator {
    func momentStep(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        let m = plan.moment
        let words = a.tagged.filter { $0.token.kind == .word }.map(\.normalized)
        // Token sequences, not substrings: "au cours" must not match inside "beau cours".
        func has(_ phrase: String) -> Bool {
            let p = phraseWords(phrase)
            guard !p.isEmpty, p.count <= words.count else { return false }
            for start in 0...(words.count - p.count) where words[start] == p[0] {
                if words[start..<(start + p.count)].elementsEqual(p) { return true }
            }
            return false
        }
        var out: [Finding] = []
        // Wrong contractions of the moment's article: "à le cours", "de les vacances".
        let rest = m.phraseWithoutArticle
        for (wrong, right) in m.wrongContractions where has(wrong) {
            out.append(Finding(step: .moment, rule: "moment_contraction", message: "Écris « \(right) » et non « \(wrong) »."))
        }
        let head = Tokenizer.normalize(m.grammar.headNoun)
        let restWords = phraseWords(rest)
        let exact = has(m.phrase) || has(rest)
        // The place or activity noun at the end of the phrase names the moment too: "au zoo" for
        // "la visite du zoo", "du judo" for "le cours de judo", "à la piscine" for "la sortie
        // piscine", "au ski" for "la sortie ski", "à la patinoire" for "la sortie à la patinoire".
        let place = placeNoun(of: m)
        let mentioned = exact || words.contains(head) || place.map(words.contains) == true || namedByItsActivity(a, m)
        if !exact, restWords.first == head, restWords.count >= 2 {
            // Another moment with the same head noun: "cours de danse" for "cours de judo". Read
            // on the tokens themselves, so a sentence end stops it ("son anniversaire. D'abord"),
            // and only a noun that is not a day, a month or an hour makes another moment ("le
            // match de samedi", "la séance de quatorze heures" are this one).
            let t = a.tagged
            let times: Set<String> = ["heure", "heures", "matin", "soir", "midi", "minuit", "après-midi", "semaine", "jour", "fin", "année", "début"]
            func isOtherComplement(_ k: Int) -> Bool {
                k < t.count && t[k].wordClass == .noun && !FrenchWords.days.contains(t[k].normalized)
                    && !FrenchWords.months.contains(t[k].normalized) && !times.contains(t[k].normalized)
            }
            for j in t.indices where t[j].normalized == head && j + 1 < t.count {
                var other: String?
                if ["de", "du", "d'", "des"].contains(restWords[1]) {
                    if ["de", "du", "d'", "des"].contains(t[j + 1].normalized), j + 2 < t.count, t[j + 2].normalized != restWords[2],
                       isOtherComplement(j + 2) {
                        other = t[j].token.text + " " + t[j + 1].token.text + (t[j + 1].token.isElided ? "" : " ") + t[j + 2].token.text
                    }
                } else if isOtherComplement(j + 1), t[j + 1].normalized != restWords[1] {
                    other = t[j].token.text + " " + t[j + 1].token.text
                }
                if let other {
                    out.append(Finding(step: .moment, rule: "moment_autre", message: "Le texte parle de « \(shown(other)) », mais le moment est « \(m.phrase) »."))
                    break
                }
            }
        }
        // The head noun's gender: "à la cours de judo".
        if m.grammar.number == .singular {
            let t = a.tagged.filter { $0.token.kind == .word }
            let wrongArticles: Set<String> = m.grammar.gender == .feminine ? ["le", "un", "au", "du", "ce"] : ["la", "une", "cette"]
            for j in words.indices.dropFirst() where words[j] == head && wrongArticles.contains(words[j - 1]) {
                if restWords.count <= 1 || (j + 1 < words.count && words[j + 1] == restWords[1]) {
                    out.append(Finding(step: .moment, rule: "moment_genre", message:
                        "« \(m.grammar.headNoun) » est \(m.grammar.gender == .feminine ? "féminin" : "masculin") : écris « \(m.phrase) », pas « \(t[j - 1].token.text) \(t[j].token.text) »."))
                    break
                }
            }
        }
        if !mentioned {
            // "à la sortie à la patinoire" reads badly: the phrase alone then.
            let example = restWords.contains("à") || restWords.contains("au") ? m.phrase : m.contracted(with: .a)
            let least = place.map { "« \(m.grammar.headNoun) » ou « \($0) »" } ?? "« \(m.grammar.headNoun) »"
            out.append(Finding(step: .moment, rule: "moment_absent", message:
                "Le texte doit parler du moment « \(m.phrase) » : écris par exemple « \(example) » ou au moins \(least)."))
        }
        // Its day and tenses (Validator+Date.swift), its subject and the people it names
        // (Validator+Sujet.swift).
        out += dateFindings(a, plan)
        out += subjectFindings(a, plan)
        return out
    }

    /// Whether a text names a moment that has kinds of its own (`moment-kinds.tsv`, "!") by
    /// doing it: two different words of those kinds' lists ("a grimpé… la corde" for le cours
    /// d'escalade, "a nagé… le bassin" for le cours de natation, "son tutu… les pas" for le
    /// cours de danse). A child who climbed on Wednesday knows which lesson it was; a phrase
    /// without kinds of its own (la sortie, a parent's label) must still be named.
    func namedByItsActivity(_ a: TextAnalysis, _ m: MomentPhrase) -> Bool {
        guard m.kind == nil, let topics = MomentTopics.bundled else { return false }
        let own = Library.ownKinds(topics.kinds.kinds(of: m.phrase))
        guard !own.isEmpty else { return false }
        let lemmas = own.reduce(into: Set<String>()) { $0.formUnion(topics.topics[$1] ?? []) }
        return Self.topicWords(of: a, in: lemmas).count >= 2
    }

    /// Nouns too general to name a moment on their own ("la colonie de vacances" is not named by
    /// "les vacances").
    static let tooGeneralPlaceNouns: Set<String> = ["vacances", "jour", "journée", "soir", "soirée", "fin", "année", "classe", "école"]

    /// The last word of a moment phrase when it is a noun other than the head ("piscine" in "la
    /// sortie piscine", "patinoire" in "la sortie à la patinoire", "judo" in "le cours de judo"):
    /// naming it names the moment. `nil` for a one-noun phrase, a phrase with a friend's name, an
    /// adjective at the end ("la classe verte") or a too general noun (`tooGeneralPlaceNouns`).
    func placeNoun(of m: MomentPhrase) -> String? {
        guard m.friendName == nil else { return nil }
        let rest = phraseWords(m.phraseWithoutArticle)
        guard rest.count >= 2, let last = rest.last, last != Tokenizer.normalize(m.grammar.headNoun),
              !Validator.tooGeneralPlaceNouns.contains(last) else { return nil }
        let rows = lexicon.entries(for: last)
        guard rows.isEmpty || rows.contains(where: { $0.partOfSpeech == .noun }) else { return nil }
        // An adjective more often than a noun ("scolaire", "verte") is not a place.
        let nounWeight = rows.filter { $0.partOfSpeech == .noun }.reduce(Float(0)) { $0 + $1.formFrequency }
        let adjectiveWeight = rows.filter { $0.partOfSpeech == .adjective }.reduce(Float(0)) { $0 + $1.formFrequency }
        return rows.isEmpty || nounWeight >= adjectiveWeight ? last : nil
    }
}
