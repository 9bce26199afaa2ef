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

    func vocabulaire(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        let norms = GradeNorms.of(plan.grade)
        let given = givenWords(plan)
        var rare: [String] = []
        for t in a.tagged where t.token.kind == .word {
            let w = t.normalized
            if given.contains(w) || t.token.isElided { continue }
            if w.utf8.contains(UInt8(ascii: "-")), hyphenatedWordIsCommon(w, norms) { continue }
            // A misspelt word is reported once, by orthographe_grammaire.
            if t.entries.isEmpty, !accepted(t.token.text), !accepted(w) { continue }
            let frequency = t.entries.reduce(Float(0)) { max($0, $1.lemmaFrequency, $1.formFrequency) }
            if t.entries.isEmpty || frequency < norms.minimumLemmaFrequency {
                if !rare.contains(t.token.text) { rare.append(t.token.text) }
            }
        }
        guard !rare.isEmpty else { return [] }
        let list = rare.map { "« \($0) »" }.joined(separator: ", ")
        let s = rare.count > 1
        return [Finding(step: .vocabulaire, message:
            "\(s ? "Ces mots sont trop rares ou inconnus" : "Ce mot est trop rare ou inconnu") pour un élève de \(plan.grade.rawValue) : \(list) ; \(s ? "remplace-les par des mots plus courants" : "remplace-le par un mot plus courant").")]
    }
}
