import DicteeCore
import Foundation
import French

// Step 3, longueur, continued: how the sentences read together. A teacher refuses a text that
// repeats a sentence, or reads like a telegram (short sentences, the same first word again and
// again), even when its word and sentence counts are right (Docs/domain.md §2, "Une dictée qui
// se lit").

extension Validator {
    /// The lowest mean sentence length, in words, of a text of three sentences or more, per grade
    /// (CP 3, CE1 5, CE2 6, CM1 7, CM2 7): below it the text reads like a telegram.
    static func minimumMeanSentenceLength(_ grade: Grade) -> Double {
        switch grade {
        case .cp: 3
        case .ce1: 5
        case .ce2: 6
        case .cm1, .cm2: 7
        }
    }

    /// A "very short" sentence, in words, per grade (CP 2, CE1 3, CE2 and above 4): at most a
    /// third of the sentences (and at most one when there are fewer than six) may be that short.
    static func veryShortSentence(_ grade: Grade) -> Int {
        switch grade {
        case .cp: 2
        case .ce1: 3
        default: 4
        }
    }

    /// Rules `phrase_repetee` (a sentence written twice), `phrases_semblables` (two sentences of
    /// four words or more sharing at least 70 % of their words, Jaccard index of their word sets),
    /// `debuts_repetes` (three sentences in a row starting with the same word, four for a subject
    /// pronoun) and
    /// `style_telegraphique` (mean sentence length or share of very short sentences, from three
    /// sentences on).
    func style(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        let t = a.tagged
        let sentences: [[String]] = a.text.sentences.map { s in s.filter { t[$0].token.kind == .word }.map { t[$0].normalized } }
        var out: [Finding] = []
        var repeated: [Int] = [], similar: [(Int, Int)] = []
        for j in sentences.indices where !sentences[j].isEmpty {
            for i in 0..<j where !sentences[i].isEmpty {
                if sentences[i] == sentences[j] {
                    if !repeated.contains(i) { repeated.append(i) }
                    break
                }
                let x = Set(sentences[i]), y = Set(sentences[j])
                guard min(x.count, y.count) >= 4 else { continue }
                if Double(x.intersection(y).count) / Double(x.union(y).count) >= 0.7, !similar.contains(where: { $0.1 == j }) {
                    similar.append((i, j))
                }
            }
        }
        for i in repeated {
            out.append(Finding(step: .longueur, rule: "phrase_repetee", message:
                "La phrase \(i + 1) est écrite deux fois : « \(shown(a.text.sentences[i].filter { t[$0].token.kind == .word }.map { t[$0].token.text }.joined(separator: " "))) » ; remplace la répétition par une phrase qui raconte autre chose."))
        }
        for (i, j) in similar {
            out.append(Finding(step: .longueur, rule: "phrases_semblables", message:
                "Les phrases \(i + 1) et \(j + 1) disent presque la même chose avec les mêmes mots ; écris plutôt une phrase qui apporte une idée nouvelle."))
        }
        // Three sentences in a row that start with the same word ("Tom est… Tom a… Tom saute…").
        // Four when the word is a subject pronoun: "Elle verra… Elle regardera… Elle a…" is
        // ordinary in a short text.
        let firsts = sentences.map { $0.first }
        var k = 0
        while k + 2 < firsts.count {
            if let w = firsts[k] {
                let run = FrenchWords.subjectPronouns.contains(w) ? 4 : 3
                if k + run <= firsts.count, (k..<(k + run)).allSatisfy({ firsts[$0] == w }) {
                    let shownWord = a.text.sentences[k].first { t[$0].token.kind == .word }.map { t[$0].token.text } ?? w
                    out.append(Finding(step: .longueur, rule: "debuts_repetes", message:
                        "Les phrases \(k + 1) à \(k + run) commencent toutes par « \(shown(shownWord)) » ; varie les débuts (« Ensuite, il… », « À midi, … », « Son copain… ») ou relie deux phrases par « et » ou « puis »."))
                    break
                }
            }
            k += 1
        }
        let counts = a.text.sentences.indices.map { a.text.wordCount(ofSentence: $0) }
        if counts.count >= 3 {
            let mean = Double(counts.reduce(0, +)) / Double(counts.count)
            let short = Validator.veryShortSentence(plan.grade)
            let shortCount = counts.filter { $0 <= short }.count
            let allowedShort = counts.count < 6 ? 1 : counts.count / 3
            let minimum = Validator.minimumMeanSentenceLength(plan.grade)
            if mean < minimum || shortCount > allowedShort {
                let meanText = String(format: "%.1f", mean).replacingOccurrences(of: ".", with: ",")
                out.append(Finding(step: .longueur, rule: "style_telegraphique", message:
                    "Le texte ressemble à un télégramme (\(meanText) mots par phrase en moyenne, \(shortCount) phrase\(shortCount > 1 ? "s" : "") de \(short) mots ou moins) ; en \(plan.grade.rawValue), écris des phrases d'au moins \(Int(minimum)) mots en moyenne, reliées par « et », « puis », « avec », « parce que »."))
            }
        }
        return out
    }
}
