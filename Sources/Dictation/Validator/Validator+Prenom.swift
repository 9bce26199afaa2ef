import DicteeCore
import Foundation
import French

// Step 6, prenom: the child's name, its capital, agreements with the child's gender.

extension Validator {
    func prenom(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        let name = plan.child.firstName.precomposedStringWithCanonicalMapping
        let key = Tokenizer.normalize(name)
        let occurrences = a.tagged.indices.filter { a.tagged[$0].normalized == key }
        if occurrences.isEmpty {
            return [Finding(step: .prenom, rule: "prenom_absent", message: "Le texte doit parler de l'enfant par son prénom : écris « \(name) » au moins une fois.")]
        }
        var out: [Finding] = []
        if !occurrences.contains(where: { a.tagged[$0].token.text.precomposedStringWithCanonicalMapping == name }) {
            out.append(Finding(step: .prenom, rule: "prenom_majuscule", message: "Le prénom s'écrit avec une majuscule : « \(name) »."))
        }
        let gender = plan.child.gender
        let child = gender == .feminine ? "une fille" : "un garçon"
        var seen = Set<String>()
        for i in occurrences {
            // Only where the name is the subject: "Le frère de Léa est venu" agrees with frère.
            if i > 0, a.tagged[i - 1].wordClass == .preposition || ["de", "d'", "à", "avec", "pour", "chez", "sans", "par"].contains(a.tagged[i - 1].normalized) {
                continue
            }
            guard let (j, verb) = agreementTarget(a, after: i) else { continue }
            if a.tagged[j].wordClass == .determiner {
                // "Tom est une bonne amie", "Léa est le meilleur": a noun or adjective that has a
                // form of the child's gender ("ami", "meilleure"); "une star" has none and passes.
                var k = j + 1
                var group = [a.tagged[j].token.text]
                var words: [TaggedToken] = []
                while k < a.tagged.count, k <= j + 3, a.tagged[k].wordClass == .adjective || a.tagged[k].wordClass == .noun {
                    words.append(a.tagged[k])
                    group.append(a.tagged[k].token.text)
                    if a.tagged[k].wordClass == .noun { break }
                    k += 1
                }
                // The noun decides when there is one ("un vrai poisson" is right for Léa);
                // adjectives only when they stand alone ("la meilleure").
                let deciding = words.contains { $0.wordClass == .noun } ? words.filter { $0.wordClass == .noun } : words
                let wrong = deciding.contains { w in
                    let rows = w.entries.filter { $0.partOfSpeech == .noun || $0.partOfSpeech == .adjective }
                    return !rows.isEmpty && !rows.contains(where: { $0.gender == nil || $0.gender == gender })
                        && agreed(w.token.text, gender: gender, lemmas: Set(rows.map(\.lemma))) != nil
                }
                let phrase = shown(group.joined(separator: " "))
                if wrong, !seen.contains(phrase) {
                    seen.insert(phrase)
                    out.append(Finding(step: .prenom, rule: "prenom_accord", message:
                        "\(name) est \(child) : accorde « \(phrase) » au \(gender == .feminine ? "féminin" : "masculin") dans « \(name) \(verb) \(phrase) »."))
                }
                continue
            }
            let t = a.tagged[j]
            let rows = t.entries.filter { $0.partOfSpeech == .adjective || ($0.partOfSpeech.isVerb && $0.verbForms.contains { $0.mood == .par && $0.tense == .pas }) }
            guard !rows.isEmpty else { continue }
            if rows.contains(where: { $0.gender == nil || $0.gender == gender }) { continue }
            let wrong = t.token.text
            guard !seen.contains(wrong) else { continue }
            seen.insert(wrong)
            let lemmas = Set(rows.map(\.lemma))
            if let fixed = agreed(wrong, gender: gender, lemmas: lemmas) {
                out.append(Finding(step: .prenom, rule: "prenom_accord", message:
                    "\(name) est \(child) : écris « \(name) \(verb) \(fixed) » et non « \(name) \(verb) \(wrong) »."))
            } else {
                out.append(Finding(step: .prenom, rule: "prenom_accord", message:
                    "\(name) est \(child) : accorde « \(shown(wrong)) » au \(gender == .feminine ? "féminin" : "masculin") dans « \(name) \(verb) \(shown(wrong)) »."))
            }
        }
        return out + pronounFindings(a, plan)
    }

    /// The participle or adjective agreeing with the name at `i`: "Léa est partie", "Léa n'est
    /// pas contente", "Léa s'est levée", "Léa semble fatiguée".
    func agreementTarget(_ a: TextAnalysis, after i: Int) -> (Int, String)? {
        let t = a.tagged
        var k = i + 1
        while k < t.count, t[k].token.kind == .word, FrenchWords.negations.contains(t[k].normalized) || ["s'", "se", "qui"].contains(t[k].normalized) {
            k += 1
        }
        guard k < t.count, t[k].wordClass == .finiteVerb else { return nil }
        let copula = t[k].readings.contains(where: { ["être", "sembler", "devenir", "rester", "paraître"].contains($0.lemma) })
        // A verb of movement with an attribute: "Léa rentra fatiguée", "elle arriva contente".
        let movement = !copula && t[k].readings.contains(where: { Validator.attributeMovementVerbs.contains($0.lemma) })
        guard copula || movement else { return nil }
        k += 1
        if movement {
            guard k < t.count, t[k].wordClass == .adjective || t[k].wordClass == .pastParticiple,
                  t[k].entries.contains(where: { $0.partOfSpeech == .adjective }) else { return nil }
        }
        while k < t.count, t[k].token.kind == .word,
              FrenchWords.innerAdverbs.contains(t[k].normalized) || t[k].wordClass == .adverb
                || (t[k].normalized == "un" && k + 1 < t.count && t[k + 1].normalized == "peu") {
            k += 1
        }
        guard k < t.count, t[k].token.kind == .word else { return nil }
        // A reflexive verb with its object after it does not agree: "Léa s'est lavé les mains",
        // "elle s'est acheté une gourde", "s'est rendu compte", "s'est demandé si".
        let reflexive = ((i + 1)..<k).contains { ["s'", "se"].contains(t[$0].normalized) }
        if reflexive, k + 1 < t.count, t[k + 1].token.kind == .word,
           FrenchWords.determiners.contains(t[k + 1].normalized) || ["compte", "si", "s'", "que", "qu'", "pourquoi", "comment"].contains(t[k + 1].normalized) {
            return nil
        }
        // "Léa s'est fait mal", "elle s'est fait couper les cheveux": se faire before "mal" or an
        // infinitive does not agree.
        if reflexive, t[k].normalized == "fait", k + 1 < t.count,
           t[k + 1].normalized == "mal" || t[k + 1].entries.contains(where: { $0.partOfSpeech.isVerb && $0.verbForms.contains { $0.mood == .inf } }) {
            return nil
        }
        // The words between the name and the attribute, as written ("n'est pas", "s'est").
        var verb = ""
        for j in (i + 1)..<k {
            let w = t[j].token.text
            verb += verb.isEmpty || verb.hasSuffix("'") || verb.hasSuffix("’") ? w : " " + w
        }
        return (k, verb)
    }

    /// The form of `word` for `gender` with the same lemma, when the lexicon has it (partie ↔
    /// parti, contente ↔ content, heureuse ↔ heureux, douce ↔ doux); `nil` otherwise.
    func agreed(_ word: String, gender: Gender, lemmas: Set<String>) -> String? {
        let w = Tokenizer.normalize(word)
        var candidates: [String] = []
        func swap(_ a: String, _ b: String) { if w.hasSuffix(a) { candidates.append(String(w.dropLast(a.count)) + b) } }
        if gender == .feminine {
            swap("s", "es"); candidates.append(w + "e"); swap("eux", "euse"); swap("x", "ce"); swap("f", "ve"); swap("er", "ère")
            swap("el", "elle"); swap("il", "ille"); swap("on", "onne"); swap("en", "enne"); swap("et", "ette"); swap("c", "che"); swap("s", "se")
        } else {
            swap("es", "s"); swap("e", ""); swap("euse", "eux"); swap("ce", "x"); swap("ve", "f"); swap("ère", "er")
            swap("elle", "el"); swap("ille", "il"); swap("onne", "on"); swap("enne", "en"); swap("ette", "et"); swap("che", "c"); swap("se", "s")
        }
        // Lexique's lemma is the masculine singular: "copine" → copain.
        if gender == .masculine { candidates += lemmas.sorted() }
        let number = lexicon.entries(for: w).first { lemmas.contains($0.lemma) }?.number
        return candidates.first { c in
            lexicon.entries(for: c).contains { lemmas.contains($0.lemma) && $0.gender == gender && ($0.number == nil || number == nil || $0.number == number) }
        }
    }

    /// Verbs of movement after which an adjective is an attribute of the subject ("rentrer
    /// fatiguée", "arriver contente", "partir ravie").
    static let attributeMovementVerbs: Set<String> = ["rentrer", "arriver", "partir", "revenir", "repartir", "sortir", "retourner", "venir", "aller"]

    /// Words after "il" that make it impersonal ("il fait beau", "il y a", "il faut", "il pleut").
    static let impersonalAfterIl: Set<String> = ["y", "fait", "faisait", "fera", "faut", "fallait", "faudra", "pleut", "pleuvait", "neige", "neigeait",
                                                  "fallut", "reste", "restait", "resta", "suffit", "semble", "semblait", "paraît", "s'agit", "s'agissait", "manque", "manquait"]
    /// Verbs that are only impersonal (Lexique lemmas): "il fallut", "il a plu".
    static let impersonalLemmas: Set<String> = ["falloir", "pleuvoir", "neiger", "grêler", "venter", "bruiner"]

    /// Whether the "il" at `i` is impersonal: "il y a", "il fait beau", "il lui fallut", "il a
    /// fallu", "il avait plu", "il s'agissait" (past negations and object pronouns, then the
    /// verb or the participle after its auxiliary).
    func isImpersonal(_ a: TextAnalysis, _ i: Int) -> Bool {
        let t = a.tagged
        var k = i + 1
        var reflexive = false
        while k < t.count, t[k].token.kind == .word, t[k].normalized != "y",
              FrenchWords.negations.contains(t[k].normalized) || FrenchWords.objectPronouns.contains(t[k].normalized) {
            if ["se", "s'"].contains(t[k].normalized) { reflexive = true }
            k += 1
        }
        guard k < t.count, t[k].token.kind == .word else { return false }
        if Validator.impersonalAfterIl.contains(t[k].normalized) { return true }
        func impersonalVerb(_ tok: TaggedToken) -> Bool {
            tok.entries.contains { $0.partOfSpeech.isVerb && (Validator.impersonalLemmas.contains($0.lemma) || reflexive && $0.lemma == "agir") }
        }
        if impersonalVerb(t[k]) { return true }
        // A compound tense: "il a fallu", "il n'avait pas plu".
        guard t[k].entries.contains(where: { $0.lemma == "avoir" && $0.partOfSpeech.isVerb }) else { return false }
        var p = k + 1
        while p < t.count, t[p].token.kind == .word, FrenchWords.innerAdverbs.contains(t[p].normalized) { p += 1 }
        return p < t.count && t[p].token.kind == .word && impersonalVerb(t[p])
    }

    /// Words after "il est" / "il était" that make it impersonal ("il est midi", "il était tard").
    static let impersonalAttributes: Set<String> = ["midi", "minuit", "tard", "tôt", "temps", "l'heure", "heure", "une", "deux", "trois", "quatre", "cinq", "six",
                                                     "sept", "huit", "neuf", "dix", "onze", "important", "interdit", "possible", "impossible", "difficile", "facile", "agréable", "bon", "amusant"]

    /// Rules `prenom_pronom` (a pronoun of the other gender for the child: "Léa va à la piscine. Il
    /// nage.") and `accord_pronom` (an attribute that does not agree with "il"/"elle": "Elle
    /// rentra fatigué"), step `prenom`.
    func pronounFindings(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        let t = a.tagged
        let key = Tokenizer.normalize(plan.child.firstName)
        let childGender = plan.child.gender
        let wrongPronoun = childGender == .feminine ? "il" : "elle"
        var out: [Finding] = []
        var seen = Set<String>()
        let sentences = a.text.sentences
        for (n, s) in sentences.enumerated() {
            for i in s where t[i].wordClass == .subjectPronoun && ["il", "elle", "ils", "elles"].contains(t[i].normalized) {
                let pronoun = t[i].normalized
                let gender: Gender = pronoun.hasPrefix("il") ? .masculine : .feminine
                // The word after the pronoun, past a negation ("il ne restait plus").
                var n1 = i + 1
                while n1 < t.count, FrenchWords.negations.contains(t[n1].normalized) { n1 += 1 }
                let next = n1 < t.count ? t[n1].normalized : ""
                // A pronoun inside a coordinated subject ("Ses amis et elle sont restés") agrees
                // with nothing alone.
                let coordinated = (i > 0 && ["et", "ou"].contains(t[i - 1].normalized)) || (i + 1 < t.count && ["et", "ou"].contains(t[i + 1].normalized))
                if coordinated { continue }
                // The attribute agrees with the pronoun, whoever it stands for.
                if !["il", "ils"].contains(pronoun) || !isImpersonal(a, i),
                   let (j, verb) = agreementTarget(a, after: i), t[j].wordClass != .determiner {
                    let rows = t[j].entries.filter { $0.partOfSpeech == .adjective || ($0.partOfSpeech.isVerb && $0.verbForms.contains { $0.mood == .par && $0.tense == .pas }) }
                    if !rows.isEmpty, !rows.contains(where: { $0.gender == nil || $0.gender == gender }),
                       !Validator.impersonalAttributes.contains(t[j].normalized),
                       let fixed = agreed(t[j].token.text, gender: gender, lemmas: Set(rows.map(\.lemma))) {
                        let phrase = "\(t[i].token.text) \(verb) \(t[j].token.text)"
                        if seen.insert(phrase).inserted {
                            out.append(Finding(step: .prenom, rule: "accord_pronom", message:
                                "« \(shown(phrase)) » : l'attribut s'accorde avec « \(pronoun) » ; écris « \(t[i].token.text) \(verb) \(fixed) »."))
                        }
                    }
                }
                // A pronoun of the other gender as the first subject of a sentence ("Il nage.",
                // "Le soir, il rentra…") that follows, within three sentences, one about the
                // child, with no noun of that gender in between that it could stand for.
                guard pronoun == wrongPronoun, n > 0 else { continue }
                let firstWord = s.first(where: { t[$0].token.kind == .word })
                guard i == firstWord || (t[i - 1].token.text == "," && !s.contains(where: { $0 < i && t[$0].wordClass == .finiteVerb })) else { continue }
                if pronoun == "il" {
                    if isImpersonal(a, i) { continue }
                    if ["est", "était", "sera"].contains(next), i + 2 < t.count,
                       Validator.impersonalAttributes.contains(t[i + 2].normalized) || t[i + 2].wordClass != .adjective && t[i + 2].wordClass != .pastParticiple { continue }
                }
                let childPronoun = childGender == .feminine ? "elle" : "il"
                guard let mention = (max(0, n - 3)..<n).reversed().first(where: { m in
                    sentences[m].contains { t[$0].normalized == key }
                        || sentences[m].first(where: { t[$0].token.kind == .word }).map { t[$0].normalized == childPronoun } == true
                }) else { continue }
                // A noun the pronoun could stand for: a subject or an object, not the noun of a
                // complement ("au premier rang", "près de la scène").
                func referent(_ k: Int) -> Bool {
                    if FrenchWords.days.contains(t[k].normalized) || FrenchWords.months.contains(t[k].normalized) { return false }
                    if t[k].wordClass == .properNoun { return t[k].normalized != key }
                    guard t[k].wordClass == .noun, t[k].entries.contains(where: { $0.partOfSpeech == .noun && $0.gender == gender && $0.number != .plural }) else { return false }
                    // In the sentence just before, any noun ("dans l'eau. Elle était froide");
                    // further back, not the noun of a complement ("au premier rang").
                    if sentences[n - 1].contains(k) { return true }
                    var j = k - 1
                    while j >= 0, t[j].wordClass == .adjective || t[j].wordClass == .determiner && !["au", "aux", "du"].contains(t[j].normalized) { j -= 1 }
                    return !(j >= 0 && (t[j].wordClass == .preposition || ["au", "aux", "du", "de", "d'"].contains(t[j].normalized)))
                }
                if (mention..<n).contains(where: { m in sentences[m].contains(where: referent) }) { continue }
                let right = childGender == .feminine ? "Elle" : "Il"
                if seen.insert("p:" + pronoun).inserted {
                    out.append(Finding(step: .prenom, rule: "prenom_pronom", message:
                        "\(plan.child.firstName) est \(childGender == .feminine ? "une fille" : "un garçon") : « \(t[i].token.text) » ne peut pas \(childGender == .feminine ? "la" : "le") désigner ; écris « \(right) » (et accorde ce qui suit)."))
                }
            }
        }
        return out
    }
}
