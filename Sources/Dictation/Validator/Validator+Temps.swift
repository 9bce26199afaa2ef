import DicteeCore
import Foundation
import French

// Step 2, temps: tenses of the programme of the grade (Docs/domain.md §2).

extension Validator {
    /// The tense of each finite verb of the text, compound tenses resolved on their auxiliary.
    /// - Returns: (token index, possible tenses); a verb is allowed when one of them is.
    /// - Parameters:
    ///   - a: the analysed text; `index` in the result is an index into `a.tagged`.
    public func tenses(in a: TextAnalysis) -> [(index: Int, tenses: Set<SchoolTense>)] {
        var out: [(Int, Set<SchoolTense>)] = []
        let t = a.tagged
        for i in t.indices where t[i].wordClass == .finiteVerb {
            // A participle the tagger read as a 1st or 2nd person ("des enfants lisaient, assis
            // sur des bancs": "assis" is not "j'assis"): with no je, tu, nous or vous just before,
            // it is the participle, not a verb of its own.
            if !t[i].finiteForms.isEmpty, t[i].finiteForms.allSatisfy({ !$0.isThirdPerson }),
               t[i].entries.contains(where: { $0.verbForms.contains { $0.mood == .par } }),
               !(max(0, i - 3)..<i).contains(where: { ["je", "j'", "tu", "nous", "vous"].contains(t[$0].normalized) }) {
                continue
            }
            let auxLemma = t[i].readings.first { $0.lemma == "avoir" || $0.lemma == "être" }?.lemma
            var participle: Int?
            if auxLemma != nil {
                var k = i + 1
                var steps = 0
                while k < t.count, steps <= 3, t[k].token.kind == .word {
                    if t[k].wordClass == .pastParticiple { participle = k; break }
                    // "il a d'abord pris", "elle a tout de suite compris".
                    if let l = FrenchWords.adverbialLocutions.first(where: { l in k + l.count <= t.count && (0..<l.count).allSatisfy { t[k + $0].normalized == l[$0] } }) {
                        k += l.count; steps += 1; continue
                    }
                    if FrenchWords.innerAdverbs.contains(t[k].normalized) || t[k].wordClass == .subjectPronoun || t[k].wordClass == .adverb { k += 1; steps += 1; continue }
                    break
                }
            }
            var set = Set<SchoolTense>()
            if let p = participle, t[p].normalized == "été", auxLemma == "avoir", p + 1 < t.count, t[p + 1].wordClass == .pastParticiple {
                // The passive of a compound tense: "a été décorée" is the passé composé of être
                // (agreeing like a participle after être), "avait été préparée" its
                // plus-que-parfait; "aura été" and the rest are not school tenses.
                for f in t[i].finiteForms {
                    switch (f.mood, f.tense) {
                    case (.ind, .pre): set.insert(.passeComposeEtre)
                    case (.ind, .imp): set.insert(.plusQueParfait)
                    default: set.insert(.other)
                    }
                }
                if set.isEmpty { set.insert(.other) }
                out.append((i, set))
                continue
            }
            if let p = participle, t[p].normalized == "eu", p + 1 < t.count, t[p + 1].wordClass == .pastParticiple {
                // Passé surcomposé ("il a eu fini"): not a school tense.
                out.append((i, [.other]))
                continue
            }
            if participle == nil, isImperative(a, i) {
                out.append((i, [.imperatif]))
                continue
            }
            // After "il faut que", "pour que"... the verb is a subjonctif whatever Lexique lists
            // (its infover lacks many: "chantions" has no sub:pre:1p).
            if participle == nil, inSubjunctiveClause(a, i) {
                out.append((i, [.other]))
                continue
            }
            if let p = participle, let aux = auxLemma {
                let reflexive = i > 0 && FrenchWords.reflexivePronouns.contains(t[i - 1].normalized)
                    || (i > 1 && FrenchWords.negations.contains(t[i - 1].normalized) && FrenchWords.reflexivePronouns.contains(t[i - 2].normalized))
                let etreVerb = t[p].entries.contains { etreVerbs.contains($0.lemma) }
                if aux == "être", !(etreVerb || reflexive) {
                    // Passive or attribute ("fut appelé", "sera invitée", "était ravie"): the
                    // tense is être's own.
                    for f in t[i].finiteForms { set.insert(Validator.simpleTense(f)) }
                } else {
                    for f in t[i].finiteForms {
                        switch (f.mood, f.tense) {
                        case (.ind, .pre): set.insert(aux == "avoir" ? .passeComposeAvoir : .passeComposeEtre)
                        case (.ind, .imp): set.insert(.plusQueParfait)
                        default: set.insert(.other)
                        }
                    }
                }
            } else {
                for f in t[i].finiteForms { set.insert(Validator.simpleTense(f)) }
            }
            if set.isEmpty { set.insert(.other) }
            out.append((i, set))
        }
        return out
    }

    /// The school tense of one simple (non-compound) finite reading.
    static func simpleTense(_ f: VerbForm) -> SchoolTense {
        switch (f.mood, f.tense) {
        case (.ind, .pre): .present
        case (.ind, .imp): .imparfait
        case (.ind, .fut): .futur
        case (.ind, .pas): f.isThirdPerson ? .passeSimple : .other
        case (.cnd, .pre): .conditionnel
        case (.imp, _): .imperatif
        default: .other
        }
    }

    /// A verb with an imperative reading that starts its sentence (after an opening quote, a
    /// dash, `ne`, or a vocative "Léa,") and has no subject: "Regarde !", "Ne cours pas.",
    /// "Léa, viens vite !".
    func isImperative(_ a: TextAnalysis, _ i: Int) -> Bool {
        let t = a.tagged
        guard t[i].finiteForms.contains(where: { $0.mood == .imp }), !t[i].normalized.utf8.contains(UInt8(ascii: "-")) else { return false }
        guard let s = a.text.sentenceIndex(ofToken: i) else { return false }
        var k = a.text.sentences[s].lowerBound
        while k < i, t[k].token.kind == .punctuation { k += 1 }
        // A vocative: a name and a comma.
        if k < i, t[k].wordClass == .properNoun, k + 1 < i, t[k + 1].token.text == "," { k += 2 }
        while k < i, t[k].wordClass == .negation { k += 1 }
        if k == i { return true }
        // Inside quotes: « Apporte tes jeux ! », after ":" and an opening quote or a dash.
        var j = i - 1
        while j >= 0, t[j].wordClass == .negation { j -= 1 }
        return j >= 0 && ["«", "“", "—", "–"].contains(t[j].token.text)
    }

    /// Conjunctions and verbs that call for the subjonctif in the clause after `que`.
    static let subjunctiveTriggers: Set<String> = [
        "faut", "fallait", "faudra", "faudrait", "pour", "avant", "afin", "sans", "veut", "veux", "voulait",
        "voudrait", "voudrais", "aimerait", "aimerais", "souhaite", "souhaitait", "jusqu'à", "peur",
    ]

    /// The verb is in a clause introduced by `que` after a subjonctif trigger ("il faut que",
    /// "pour que", "avant que"), within six words.
    func inSubjunctiveClause(_ a: TextAnalysis, _ i: Int) -> Bool {
        let t = a.tagged
        var k = i - 1
        var steps = 0
        while k >= 1, steps < 6, t[k].token.kind != .punctuation {
            if t[k].normalized == "que" || t[k].normalized == "qu'" {
                return Validator.subjunctiveTriggers.contains(t[k - 1].normalized)
            }
            k -= 1
            steps += 1
        }
        return false
    }

    /// The verb as a writer sees it: "mangeait", or auxiliary and participle for a compound
    /// tense ("est partie", "avait mangé").
    func verbPhrase(_ a: TextAnalysis, _ i: Int) -> String {
        let t = a.tagged
        guard t[i].readings.contains(where: { $0.lemma == "avoir" || $0.lemma == "être" }) else { return shown(t[i].token.text) }
        var k = i + 1
        var words = [t[i].token.text]
        while k < t.count, k <= i + 4, t[k].token.kind == .word {
            words.append(t[k].token.text)
            if t[k].wordClass == .pastParticiple { return shown(words.joined(separator: " ")) }
            guard FrenchWords.innerAdverbs.contains(t[k].normalized) else { break }
            k += 1
        }
        return shown(t[i].token.text)
    }

    func temps(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        let norms = GradeNorms.of(plan.grade)
        var byTense: [SchoolTense: [String]] = [:]
        var order: [SchoolTense] = []
        var notFirstGroup: [String] = []
        for (i, tenses) in tenses(in: a) {
            let word = verbPhrase(a, i)
            if tenses.isDisjoint(with: norms.tenses) {
                let shown = tenses.subtracting([.other]).sorted { $0.rawValue < $1.rawValue }.first ?? .other
                if byTense[shown] == nil { order.append(shown) }
                if !(byTense[shown]?.contains(word) ?? false) { byTense[shown, default: []].append(word) }
            } else if norms.restrictsVerbsToFirstGroup {
                let lemmas = a.tagged[i].readings.filter { $0.partOfSpeech.isVerb }.map(\.lemma)
                if !lemmas.contains(where: { ["être", "avoir", "aller"].contains($0) || $0.hasSuffix("er") }), !notFirstGroup.contains(word) {
                    notFirstGroup.append(word)
                }
            }
        }
        var allowed = SchoolTense.allCases.filter { norms.tenses.contains($0) }.map(\.withPreposition)
        if norms.tenses.isSuperset(of: [.passeComposeAvoir, .passeComposeEtre]) {
            allowed.removeAll { $0 == SchoolTense.passeComposeEtre.withPreposition }
            allowed = allowed.map { $0 == SchoolTense.passeComposeAvoir.withPreposition ? "au passé composé (avec avoir ou être)" : $0 }
        }
        let allowedText = allowed.count == 1 ? allowed[0] : allowed.dropLast().joined(separator: ", ") + " ou \(allowed.last!)"
        var out = order.map { tense -> Finding in
            let verbs = byTense[tense]!.map { "« \($0) »" }.joined(separator: ", ")
            let what = tense.withPreposition
            return Finding(step: .temps, rule: "temps", message:
                "\(byTense[tense]!.count > 1 ? "Les verbes \(verbs) sont" : "Le verbe \(verbs) est") \(what), un temps qui n'est pas au programme de \(plan.grade.rawValue) ; écris \(allowedText).")
        }
        if !notFirstGroup.isEmpty {
            out.append(Finding(step: .temps, rule: "temps_premier_groupe", message:
                "En CP, on conjugue seulement être, avoir, aller et les verbes en -er ; remplace \(notFirstGroup.map { "« \($0) »" }.joined(separator: ", "))."))
        }
        return out
    }
}
