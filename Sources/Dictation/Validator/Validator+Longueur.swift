import DicteeCore
import Foundation
import French

// Step 3, longueur: words, sentences, words per sentence.

extension Validator {
    func longueur(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        var out: [Finding] = []
        let words = a.text.wordCount
        if !plan.words.contains(words) {
            out.append(Finding(step: .longueur, rule: "longueur_mots", message:
                "Le texte compte \(words) mot\(words > 1 ? "s" : "") ; il en faut entre \(plan.words.lowerBound) et \(plan.words.upperBound)."))
        }
        let sentences = a.text.sentences.count
        let range = plan.sentences.lowerBound...min(plan.sentences.upperBound, GradeNorms.sentenceCap)
        if !range.contains(sentences) {
            out.append(Finding(step: .longueur, rule: "longueur_phrases", message:
                "Le texte compte \(sentences) phrase\(sentences > 1 ? "s" : "") ; il en faut entre \(range.lowerBound) et \(range.upperBound)."))
        }
        for s in a.text.sentences.indices {
            let n = a.text.wordCount(ofSentence: s)
            if n > plan.maxWordsPerSentence {
                out.append(Finding(step: .longueur, rule: "longueur_phrase", message:
                    "La phrase \(s + 1) compte \(n) mots ; une phrase ne doit pas dépasser \(plan.maxWordsPerSentence) mots en \(plan.grade.rawValue)."))
            }
        }
        return out
    }
}
