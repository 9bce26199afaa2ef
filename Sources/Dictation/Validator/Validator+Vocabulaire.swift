import DicteeCore
import Foundation
import French

// Step 1, vocabulaire: words too rare for the grade (Lexique 3.83 frequencies), mots donnés aside.

extension Validator {
    /// The "mots donnés" of every dictation (`Resources/mots-donnes.txt`): family words and
    /// words of children's everyday life, by section.
    public static let standardGivenWords: [String: Set<String>] = {
        guard let url = Bundle.module.url(forResource: "mots-donnes", withExtension: "txt", subdirectory: "Resources"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var sections: [String: Set<String>] = [:]
        var current = ""
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") { current = String(line.dropFirst().dropLast()); continue }
            sections[current, default: []].insert(Tokenizer.normalize(line))
        }
        return sections
    }()

    /// Family words that are always "mots donnés" (Docs/domain.md §3: shown before the dictation).
    public static var familyWords: Set<String> { standardGivenWords["famille"] ?? [] }

    static let allStandardGivenWords: Set<String> = standardGivenWords.values.reduce(into: Set<String>()) { $0.formUnion($1) }

    /// A hyphenated word Lexique lacks ("est-ce", "c'est-à-dire", "après-midi") is common when
    /// Hunspell knows it and each of its parts is common or a function word.
    func hyphenatedWordIsCommon(_ w: String, _ norms: GradeNorms) -> Bool {
        guard accepted(w) else { return false }
        return w.split(separator: "-").allSatisfy { part in
            let p = String(part)
            if ["t", "ce", "là", "ci", "il", "elle", "on", "ils", "elles", "je", "tu", "nous", "vous", "moi", "toi"].contains(p) { return true }
            return lexicon.entries(for: p).contains { max($0.lemmaFrequency, $0.formFrequency) >= norms.minimumLemmaFrequency }
        }
    }

    /// The words of a text outside the grade's vocabulary band (Lexique 3.83 frequency under
    /// `GradeNorms.minimumLemmaFrequency`, or not in Lexique), by token index: those the check lets
    /// through only because they are "mots donnés" (`given`), and the others (`rare`). Elided
    /// forms, common hyphenated words and misspelt words (reported by `orthographe_grammaire`)
    /// are in neither list.
    func outsideBand(_ a: TextAnalysis, _ plan: DictationPlan) -> (given: [Int], rare: [Int]) {
        let norms = GradeNorms.of(plan.grade)
        let given = givenWords(plan)
        var out: (given: [Int], rare: [Int]) = ([], [])
        for (i, t) in a.tagged.enumerated() where t.token.kind == .word && !t.token.isElided {
            let w = t.normalized
            let isGiven = given.contains(w)
            if w.utf8.contains(UInt8(ascii: "-")), hyphenatedWordIsCommon(w, norms) { continue }
            // A misspelt word is reported once, by orthographe_grammaire.
            if !isGiven, t.entries.isEmpty, !accepted(t.token.text), !accepted(w) { continue }
            let frequency = t.entries.reduce(Float(0)) { max($0, $1.lemmaFrequency, $1.formFrequency) }
            guard t.entries.isEmpty || frequency < norms.minimumLemmaFrequency else { continue }
            if isGiven { out.given.append(i) } else { out.rare.append(i) }
        }
        return out
    }

    /// The "mots donnés" of a draft: the words written on the board before the dictation
    /// (Docs/domain.md §3), each once, in text order: the child's and the friend's first names,
    /// the moment's words (the content words of its phrase) and the plan's given words as they
    /// appear in the text, and every other word of the text that the `vocabulaire` step lets
    /// through only because it is given (a family word or a word of children's everyday life of
    /// `mots-donnes.txt` under the grade's frequency band). One rule for the check and the sheet.
    /// - Parameters:
    ///   - draft: the text (its title is not read).
    ///   - plan: the child (name, grade: the frequency band) and the moment.
    /// - Returns: the words as written in the text, lower case except proper nouns
    ///   (`["Léa", "goûter", "anniversaire"]`); empty when none.
    /// - Warning: the list holds the child's first name; show it to the family, never log it.
    public func motsDonnes(draft: Draft, plan: DictationPlan) -> [String] {
        let a = TextAnalysis(draft.text, lexicon: lexicon, names: names(of: plan))
        let names = Set(names(of: plan).map(Tokenizer.normalize))
        let chosen = Set(phraseWords(plan.moment.phrase)).union(plan.givenWords.map(Tokenizer.normalize))
        let aboveBand = Set(outsideBand(a, plan).given)
        let functionWords: Set<WordClass> = [.determiner, .subjectPronoun, .objectPronoun, .preposition, .conjunction, .negation,
                                             .punctuation, .number]
        var seen = Set<String>()
        var out: [String] = []
        for (i, t) in a.tagged.enumerated() where t.token.kind == .word && !t.token.isElided {
            let w = t.normalized
            let isName = names.contains(w)
            guard isName || aboveBand.contains(i) || (chosen.contains(w) && !functionWords.contains(t.wordClass)) else { continue }
            guard seen.insert(w).inserted else { continue }
            out.append(isName || t.wordClass == .properNoun ? t.token.text : t.token.text.lowercased())
        }
        return out
    }

    func vocabulaire(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        var rare: [String] = []
        for i in outsideBand(a, plan).rare where !rare.contains(a.tagged[i].token.text) {
            rare.append(a.tagged[i].token.text)
        }
        guard !rare.isEmpty else { return [] }
        let list = rare.map { "« \($0) »" }.joined(separator: ", ")
        let s = rare.count > 1
        return [Finding(step: .vocabulaire, message:
            "\(s ? "Ces mots sont trop rares ou inconnus" : "Ce mot est trop rare ou inconnu") pour un élève de \(plan.grade.rawValue) : \(list) ; \(s ? "remplace-les par des mots plus courants" : "remplace-le par un mot plus courant").")]
    }
}
