import DicteeCore
import Foundation
import French

// Step 4, registre, continued: anglicisms and calques (`Resources/anglicismes.tsv`), and
// sensitive topics told in several words (`Resources/sujets-sensibles.tsv`), matched on words
// and lemmas, never on substrings.

/// A word sequence of `anglicismes.tsv` or `sujets-sensibles.tsv`: each element is a set of
/// alternatives, each matching a token's lower-case form or one of its Lexique lemmas.
struct ExpressionPattern: Sendable {
    /// The category (`sujets-sensibles.tsv`) or the French to write instead (`anglicismes.tsv`).
    let note: String
    /// The words, each a set of alternatives, lower case, NFC. `<adj>` matches an adjective, a
    /// participle or an adverb ("grave content"); `<fin>`, last, the end of a clause
    /// (punctuation or the end of the text: "c'était le feu !", not "le feu d'artifice").
    let elements: [Set<String>]
    /// The optional third column: `familier` for slang in `anglicismes.tsv` (rule
    /// `registre_familier`); empty otherwise.
    var category: String = ""

    /// Parses `first-column<TAB>second-column` lines, `#` comments; `patternFirst` says which
    /// column is the pattern.
    static func parse(_ text: String, patternFirst: Bool) -> [ExpressionPattern] {
        text.split(whereSeparator: \.isNewline).compactMap { raw in
            let line = String(raw)
            guard !line.hasPrefix("#") else { return nil }
            let parts = line.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count >= 2 else { return nil }
            let pattern = patternFirst ? parts[0] : parts[1]
            let elements = pattern.split(separator: " ").map { Set($0.split(separator: "|").map { Tokenizer.normalize(String($0)) }) }
            return elements.isEmpty ? nil : ExpressionPattern(note: patternFirst ? parts[1] : parts[0], elements: elements, category: parts.count > 2 ? parts[2] : "")
        }
    }

    /// Adverbs that may stand between two words of a pattern ("être très excité").
    /// "un peu" and the size adjectives count as one skippable word ("avait un peu peur", "s'est
    /// fait une grosse bosse").
    static let skippable: Set<String> = ["très", "trop", "si", "vraiment", "tellement", "super", "tout", "toute", "bien", "encore", "pas", "plus", "jamais", "ne", "n'", "beaucoup",
                                         "gros", "grosse", "grosses", "petit", "petite", "petites", "énorme", "énormes"]

    /// The token range (first word, last word) where the pattern matches from word `i`, or `nil`.
    func match(_ t: [TaggedToken], at i: Int) -> ClosedRange<Int>? {
        var k = i
        for (n, alternatives) in elements.enumerated() {
            if alternatives == ["<fin>"] {
                let next = k + 1
                return next >= t.count || (t[next].token.kind == .punctuation && t[next].token.text != "-") ? i...k : nil
            }
            if n > 0 {
                k += 1
                while k < t.count, t[k].token.kind == .punctuation, t[k].token.text != "-" { return nil }
                if k + 1 < t.count, t[k].normalized == "un", t[k + 1].normalized == "peu", !alternatives.contains("un") {
                    k += 2
                } else if k < t.count, ExpressionPattern.skippable.contains(t[k].normalized), !ExpressionPattern.fits(t[k], alternatives) {
                    k += 1
                }
            }
            guard k < t.count, t[k].token.kind == .word, ExpressionPattern.fits(t[k], alternatives) else { return nil }
        }
        return i...k
    }

    static func fits(_ token: TaggedToken, _ alternatives: Set<String>) -> Bool {
        if alternatives.contains("<adj>"),
           [.adjective, .pastParticiple, .adverb].contains(token.wordClass) || token.entries.contains(where: { $0.partOfSpeech == .adjective }) {
            return true
        }
        return alternatives.contains(token.normalized) || token.entries.contains { alternatives.contains($0.lemma) }
    }
}

extension Validator {
    static func resource(_ name: String, _ ext: String) -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Resources"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return "" }
        return text
    }

    /// `Resources/anglicismes.tsv`: pattern, then the French to write instead.
    static let anglicisms = ExpressionPattern.parse(resource("anglicismes", "tsv"), patternFirst: true)
    /// `Resources/sujets-sensibles.tsv`, without its `sauf` lines.
    static let sensitiveTopics = ExpressionPattern.parse(resource("sujets-sensibles", "tsv"), patternFirst: false).filter { $0.note != "sauf" }
    /// The `sauf` lines of `Resources/sujets-sensibles.tsv`: allowed expressions.
    static let sensitiveExceptions = ExpressionPattern.parse(resource("sujets-sensibles", "tsv"), patternFirst: false).filter { $0.note == "sauf" }

    /// What each sensitive category is about, in French, for the message.
    static let sensitiveLabels: [String: String] = [
        "blessure": "de blessure ni de sang", "pleurs_peur": "de pleurs ni de peur", "punition": "de punition ni de cris",
        "mort": "de mort, même avec des mots doux", "dispute": "de dispute, de moquerie ni de coups", "accident": "d'accident ni de secours",
        "alcool": "d'alcool", "danger": "d'enfant perdu, d'inconnu ni de vol",
    ]

    /// Rules `anglicisme` and `sujet_sensible` of step `registre` (the text only; names are
    /// skipped).
    func expressions(_ a: TextAnalysis) -> [Finding] {
        let t = a.tagged
        var out: [Finding] = []
        var seen = Set<String>()
        func quoted(_ r: ClosedRange<Int>) -> String {
            var s = ""
            for k in r {
                let w = t[k].token.text
                s += s.isEmpty || s.hasSuffix("'") || s.hasSuffix("’") ? w : " " + w
            }
            return shown(s)
        }
        for i in t.indices where t[i].token.kind == .word && !a.names.contains(t[i].normalized) {
            for p in Validator.anglicisms {
                guard let r = p.match(t, at: i) else { continue }
                let q = quoted(r)
                if seen.insert("a:" + q.lowercased()).inserted {
                    if p.category == "familier" {
                        out.append(Finding(step: .registre, rule: "registre_familier", message:
                            "« \(q) » est un mot familier qu'une dictée n'enseigne pas ; écris plutôt : \(p.note)."))
                    } else {
                        out.append(Finding(step: .registre, rule: "anglicisme", message:
                            "« \(q) » est un anglicisme ou une tournure calquée de l'anglais ; en français, écris : \(p.note)."))
                    }
                }
            }
            if Validator.sensitiveExceptions.contains(where: { $0.match(t, at: i) != nil }) { continue }
            // A negated topic is reassurance, not the topic: "Léa n'a pas peur", "il ne pleure
            // plus", "il a appris à tomber sans se faire mal".
            if i > 0, FrenchWords.negations.contains(t[i - 1].normalized) || t[i - 1].normalized == "sans" { continue }
            // The same with the negation before the auxiliary: "elle n'a pas eu peur", "il n'avait
            // jamais eu peur" (ne, the auxiliary, pas/plus/jamais, then the match).
            if i >= 3, FrenchWords.negations.contains(t[i - 3].normalized), ["pas", "plus", "jamais", "point"].contains(t[i - 1].normalized) { continue }
            for p in Validator.sensitiveTopics {
                guard let r = p.match(t, at: i) else { continue }
                let q = quoted(r)
                if seen.insert("s:" + q.lowercased()).inserted {
                    out.append(Finding(step: .registre, rule: "sujet_sensible", message:
                        "Une dictée sur un moment heureux ne parle pas \(Validator.sensitiveLabels[p.note] ?? "de cela") : « \(q) » ; raconte plutôt ce que l'enfant a vu, fait ou aimé."))
                }
            }
        }
        return out
    }
}
