import DicteeCore
import Foundation
import French

// Step 8, orthographe_grammaire: characters, Hunspell, capitals and punctuation, the named
// rules of `OrthographeRule.all`, and Grammalecte.

extension Validator {
    /// Step 8: the characters, Hunspell (`hunspell`), capitals and punctuation, then the named
    /// rules (``OrthographeRule/all``). Grammalecte runs apart, once per batch (`grammarCheck`).
    func orthographe(_ a: TextAnalysis, _ draft: Draft, _ plan: DictationPlan) -> [Finding] {
        let given = givenWords(plan)
        var wrong: [String] = []
        var tokens = a.tagged.map(\.token)
        if let title = draft.title { tokens += Tokenizer.tokenize(title).tokens }
        for t in tokens where t.kind == .word {
            // Names and mots donnés are shown to the child before the dictation (papi is not in
            // Hunspell's classique dictionary, yet it is the usual spelling).
            if given.contains(t.normalized) { continue }
            if !accepted(t.text), !accepted(t.normalized), !wrong.contains(t.text) { wrong.append(shown(t.text)) }
        }
        var out: [Finding] = []
        out += characters(draft)
        if !wrong.isEmpty {
            out.append(Finding(step: .orthographeGrammaire, rule: "hunspell", message:
                "\(wrong.count > 1 ? "Ces mots sont mal orthographiés" : "Ce mot est mal orthographié") : \(wrong.map { "« \($0) »" }.joined(separator: ", ")) ; corrige l'orthographe."))
        }
        out += capitalsAndPunctuation(a, plan)
        out += ruleFindings(a)
        return out
    }

    /// Characters a dictation may contain: Latin letters with their accents (and combining
    /// accents), digits, spaces and line breaks, and French punctuation. Anything else (control
    /// and invisible characters, emoji, symbols) has no place in a text a child copies.
    static func isAllowed(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || (v >= 0x30 && v <= 0x39) { return true }
        if v >= 0xC0 && v <= 0x24F { return v != 0xD7 && v != 0xF7 }
        if v >= 0x300 && v <= 0x36F { return true }
        return " \n\r\t\u{A0}\u{202F}.,;:!?…«»\"“”'’-–—()".unicodeScalars.contains(c)
    }

    func characters(_ draft: Draft) -> [Finding] {
        var bad: [String] = []
        for c in ((draft.title ?? "") + " " + draft.text).unicodeScalars where !Validator.isAllowed(c) {
            let shown = c.properties.isWhitespace || c.properties.generalCategory == .control || c.properties.generalCategory == .format
                || c.properties.generalCategory == .privateUse || c.properties.generalCategory == .unassigned
                ? String(format: "U+%04X", c.value) : String(c)
            if !bad.contains(shown) { bad.append(shown) }
            if bad.count == 10 { break }
        }
        guard !bad.isEmpty else { return [] }
        return [Finding(step: .orthographeGrammaire, rule: "caracteres", message:
            "Le texte contient des caractères qui n'ont pas leur place dans une dictée : \(bad.map { "« \($0) »" }.joined(separator: ", ")) ; écris seulement des lettres, des chiffres et la ponctuation française.")]
    }

    /// A capital at the start of each sentence and a final mark at its end; no word in capitals;
    /// no capital on a common word inside a sentence ("le Soir"); no lone letter ("L eau").
    func capitalsAndPunctuation(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        var out: [Finding] = []
        let t = a.tagged
        let names = a.names
        var noCapital: [String] = [], noEnd: [Int] = [], shouting: [String] = [], capitalised: [String] = [], lone: [String] = []
        for (n, s) in a.text.sentences.enumerated() {
            guard let first = s.first(where: { t[$0].token.kind != .punctuation }) else { continue }
            if t[first].token.kind == .word, !t[first].token.isCapitalized, !noCapital.contains(t[first].token.text) {
                noCapital.append(shown(t[first].token.text))
            }
            var last = s.upperBound - 1
            while last > s.lowerBound, ["»", "\"", "”", ")"].contains(t[last].token.text) { last -= 1 }
            if !t[last].token.isSentenceFinal { noEnd.append(n + 1) }
            for i in s where t[i].token.kind == .word {
                let text = t[i].token.text
                let letters = text.unicodeScalars.filter { $0.properties.isAlphabetic }
                if letters.count >= 2, letters.allSatisfy({ $0.properties.isUppercase }), !["CP", "CE", "CM"].contains(text) {
                    if !shouting.contains(text) { shouting.append(shown(text)) }
                } else if i != first, t[i].token.isCapitalized, !names.contains(t[i].normalized), !["CP", "CE", "CM"].contains(text),
                          !(i > 0 && ["«", "\"", "“", ":", "—", "–"].contains(t[i - 1].token.text)),
                          FrenchWords.determiners.contains(t[i].normalized) || FrenchWords.subjectPronouns.contains(t[i].normalized)
                            || FrenchWords.prepositions.contains(t[i].normalized) || FrenchWords.days.contains(t[i].normalized)
                            || FrenchWords.months.contains(t[i].normalized)
                            || (!Validator.capitalisedNouns.contains(t[i].normalized)
                                && t[i].entries.contains(where: { $0.formFrequency >= 100 })) {
                    if !capitalised.contains(text) { capitalised.append(shown(text)) }
                }
                if !t[i].token.isElided, letters.count == 1, !["a", "à", "y", "ô", "A", "À", "Y", "Ô"].contains(text), !names.contains(t[i].normalized) {
                    if !lone.contains(text) { lone.append(text) }
                }
            }
        }
        if !noCapital.isEmpty {
            out.append(Finding(step: .orthographeGrammaire, rule: "majuscule_debut", message: "Une phrase commence par une majuscule : corrige \(noCapital.map { "« \($0) »" }.joined(separator: ", "))."))
        }
        if !noEnd.isEmpty {
            out.append(Finding(step: .orthographeGrammaire, rule: "point_final", message: "Termine chaque phrase par un point, un point d'exclamation ou un point d'interrogation (phrase \(noEnd.map(String.init).joined(separator: ", ")))."))
        }
        if !shouting.isEmpty {
            out.append(Finding(step: .orthographeGrammaire, rule: "capitales", message: "N'écris pas de mots en capitales : \(shouting.map { "« \($0) »" }.joined(separator: ", "))."))
        }
        if !capitalised.isEmpty {
            out.append(Finding(step: .orthographeGrammaire, rule: "majuscule_nom_commun", message: "Pas de majuscule à un nom commun au milieu d'une phrase : \(capitalised.map { "« \($0) »" }.joined(separator: ", "))."))
        }
        if !lone.isEmpty {
            out.append(Finding(step: .orthographeGrammaire, rule: "lettre_seule", message: "Une lettre seule n'est pas un mot : \(lone.map { "« \($0) »" }.joined(separator: ", ")) ; vérifie l'apostrophe ou l'orthographe."))
        }
        return out
    }

    /// Proper nouns that are also frequent common words: a capital is right on them.
    static let capitalisedNouns: Set<String> = ["noël", "pâques", "toussaint", "france", "paris"]

    /// Grammalecte on every draft of the batch (its worker process), the child's name replaced by
    /// a first name of the same gender that Grammalecte knows, so that agreements with the name
    /// are checked with the child's gender. Grammalecte's own name-agreement rule
    /// (`ppas_nom_propre`) is left out for a draft where `prenom` already reported one.
    func grammarCheck(_ batch: [(Draft, DictationPlan)], nameAgreementReported: [Bool]) -> [[Finding]] {
        switch grammar {
        case .skippedForBenchmark:
            return batch.map { _ in [] }
        case .unavailable(let reason):
            return batch.map { _ in [Finding(step: .orthographeGrammaire, rule: "grammalecte_indisponible", message:
                "Le correcteur grammatical Grammalecte ne peut pas tourner (\(reason)) : aucun texte ne peut être validé sans lui.")] }
        case .checker(let checker):
            var paragraphs: [String] = []
            var accepted: Set<String> = []
            for (draft, plan) in batch {
                let proxy = GrammarChecker.genderProxy(for: plan.child.gender)
                paragraphs.append(substitute(name: plan.child.firstName, with: proxy, in: draft.text))
                accepted.formUnion(names(of: plan))
                accepted.insert(proxy)
            }
            let issues: [[GrammarIssue]]
            do {
                issues = try checker.check(paragraphs, acceptedWords: accepted)
            } catch {
                return batch.map { _ in [Finding(step: .orthographeGrammaire, rule: "grammalecte_echec", message:
                    "Le correcteur grammatical Grammalecte a échoué (\(error)) : aucun texte ne peut être validé sans lui.")] }
            }
            return batch.indices.map { i in
                let item = batch[i], paragraph = paragraphs[i]
                let list = issues[i].filter { !(nameAgreementReported[i] && $0.ruleID.contains("ppas_nom_propre")) }
                let proxy = GrammarChecker.genderProxy(for: item.1.child.gender)
                // Messages name the child again, not the stand-in name.
                func unproxied(_ s: String) -> String { s.replacingOccurrences(of: proxy, with: item.1.child.firstName) }
                // Spelling is Hunspell's part of this step (same dictionary family); keep
                // Grammalecte's grammar only, so a misspelt word is reported once.
                let m = item.1.moment
                let momentWords = Set(phraseWords(m.phraseWithoutArticle)).subtracting([Tokenizer.normalize(m.grammar.headNoun)])
                return list.filter { !$0.isSpelling && !isGrammalecteFalseAlarm($0, in: paragraph, momentWords: momentWords) }.map { issue in
                    let word = unproxied(scalarSlice(paragraph, issue.start, issue.end))
                    let suggestion = issue.suggestions.first.map { " (proposition : « \(unproxied($0)) »)" } ?? ""
                    return Finding(step: .orthographeGrammaire, rule: "grammalecte:" + issue.ruleID, message:
                        "Grammalecte signale « \(word) » : \(unproxied(issue.message.trimmingCharacters(in: .whitespaces)))\(suggestion)")
                }
            }
        }
    }

    func substitute(name: String, with proxy: String, in text: String) -> String {
        let key = Tokenizer.normalize(name)
        let tokens = Tokenizer.tokenize(text).tokens.filter { $0.kind == .word && $0.normalized == key }
        guard !tokens.isEmpty else { return text }
        var scalars = Array(text.unicodeScalars)
        for t in tokens.reversed() { scalars.replaceSubrange(t.start..<t.end, with: proxy.unicodeScalars) }
        var v = String.UnicodeScalarView()
        v.append(contentsOf: scalars)
        return String(v)
    }

    func scalarSlice(_ text: String, _ start: Int, _ end: Int) -> String {
        let s = Array(text.unicodeScalars)
        guard start >= 0, end <= s.count, start < end else { return "" }
        var v = String.UnicodeScalarView()
        v.append(contentsOf: s[start..<end])
        return String(v)
    }
}
