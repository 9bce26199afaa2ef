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

    /// The mots donnés of every text: every section but the `kind:` ones.
    static let allStandardGivenWords: Set<String> = standardGivenWords.filter { !$0.key.hasPrefix("kind:") }.values
        .reduce(into: Set<String>()) { $0.formUnion($1) }

    /// The kinds of a moment: a label's own kind, or every kind of its whitelist phrase
    /// (`Library.kinds(of:)` on the bundled `moment-kinds.tsv`, a phrase's own "!" kinds unmarked).
    static func kinds(of m: MomentPhrase) -> Set<String> {
        if let kind = m.kind { return [kind] }
        let listed = MomentTopics.bundled?.kinds.kinds(of: m.phrase) ?? []
        return Set(listed.map { $0.hasPrefix("!") ? String($0.dropFirst()) : $0 })
    }

    /// The mots donnés of the moment's kinds (`[kind:…]` sections of `mots-donnes.txt`).
    static func kindGivenWords(_ m: MomentPhrase) -> Set<String> {
        kinds(of: m).reduce(into: Set<String>()) { $0.formUnion(standardGivenWords["kind:" + $1] ?? []) }
    }

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
    /// `GradeNorms.minimumLemmaFrequency`, a 1990 rectified spelling read as its traditional
    /// one, a form Lexique lacks read through its Hunspell lemma), by token index: those the
    /// check lets through only because they are "mots donnés" (`given`), the others (`rare`),
    /// first names and places that are neither the child's nor the moment's (`invented`), and in
    /// CP the words too hard to write (`cpComplex`). Elided forms, common hyphenated words and
    /// misspelt words (reported by `orthographe_grammaire`) are in no list.
    func outsideBand(_ a: TextAnalysis, _ plan: DictationPlan) -> (given: [Int], rare: [Int], invented: [Int], cpComplex: [Int]) {
        let norms = GradeNorms.of(plan.grade)
        let given = givenWords(plan)
        var out: (given: [Int], rare: [Int], invented: [Int], cpComplex: [Int]) = ([], [], [], [])
        let starts = Set(a.text.sentences.compactMap { s in s.first { a.tagged[$0].token.kind == .word } })
        for (k, t) in a.tagged.enumerated() where t.token.kind == .word && !t.token.isElided {
            let w = t.normalized
            // A form of a given word counts as given: "cerceaux" for "cerceau", "pédalé" for
            // "pédaler" (its lemmas in Lexique).
            let isGiven = given.contains(w) || t.entries.contains { given.contains($0.lemma) }
            if !isGiven, isFirstName(t, sentenceStart: starts.contains(k)) {
                out.invented.append(k)
                continue
            }
            if w.utf8.contains(UInt8(ascii: "-")), hyphenatedWordIsCommon(w, norms) { continue }
            // A misspelt word is reported once, by orthographe_grammaire.
            if !isGiven, t.entries.isEmpty, !accepted(t.token.text), !accepted(w) { continue }
            var frequency = t.entries.reduce(Float(0)) { max($0, $1.lemmaFrequency, $1.formFrequency) }
            if frequency < norms.minimumLemmaFrequency {
                // A 1990 rectified spelling ("connait", "évènement", "plateforme", "s'assoir"):
                // Lexique has the traditional one, as frequent.
                frequency = Validator.traditionalSpellings(of: w).reduce(frequency) { best, v in
                    lexicon.entries(for: v).reduce(best) { max($0, $1.lemmaFrequency, $1.formFrequency) }
                }
            }
            if frequency < norms.minimumLemmaFrequency, t.entries.isEmpty, accepted(w) {
                // A form Lexique lacks ("promèneront", "répéteront"): its lemma's frequency, the
                // lemma as Hunspell analyses it (`st:promener`).
                frequency = max(frequency, hunspellLemmaFrequency(w))
            }
            if !isGiven, plan.grade == .cp, Validator.tooComplexForCP(w), !FrenchWords.days.contains(w), !FrenchWords.months.contains(w) {
                out.cpComplex.append(k)
            }
            guard frequency == 0 || frequency < norms.minimumLemmaFrequency else { continue }
            if isGiven {
                out.given.append(k)
            } else if isProperNoun(t) {
                out.invented.append(k)
            } else {
                out.rare.append(k)
            }
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
        let band = outsideBand(a, plan)
        func texts(_ indices: [Int]) -> [String] {
            var list: [String] = []
            for i in indices where !list.contains(a.tagged[i].token.text) { list.append(a.tagged[i].token.text) }
            return list
        }
        let rare = texts(band.rare), invented = texts(band.invented), cpComplex = texts(band.cpComplex)
        var out: [Finding] = []
        if !invented.isEmpty {
            let list = invented.map { "« \($0) »" }.joined(separator: ", ")
            out.append(Finding(step: .vocabulaire, rule: "nom_propre_invente", message:
                "\(invented.count > 1 ? "Ces noms propres ne sont" : "Ce nom propre n'est") ni le prénom de l'enfant ni un nom du moment : \(list) ; n'invente ni personne ni lieu, écris « un copain », « sa maîtresse », « la ville » ou le prénom de l'enfant."))
        }
        if !cpComplex.isEmpty {
            let list = cpComplex.map { "« \($0) »" }.joined(separator: ", ")
            out.append(Finding(step: .vocabulaire, rule: "graphie_cp", message:
                "\(cpComplex.count > 1 ? "Ces mots sont trop difficiles" : "Ce mot est trop difficile") à écrire en CP (un « m » devant « b », « p » ou « m » et une autre difficulté dans le même mot) : \(list) ; choisis un mot plus simple, par exemple « avec » plutôt que « ensemble », « beaucoup » plutôt que « longtemps »."))
        }
        if !rare.isEmpty {
            let list = rare.map { "« \($0) »" }.joined(separator: ", ")
            let s = rare.count > 1
            out.append(Finding(step: .vocabulaire, message:
                "\(s ? "Ces mots sont trop rares ou inconnus" : "Ce mot est trop rare ou inconnu") pour un élève de \(plan.grade.rawValue) : \(list) ; \(s ? "remplace-les par des mots plus courants" : "remplace-le par un mot plus courant")."))
        }
        return out
    }

    /// A first name Hunspell knows (`po:prn`: Julien, Marie, Louis), capitalised, that is not a
    /// holiday ("Noël") and, at a sentence start, not also a common word ("Rose", "Pierre").
    func isFirstName(_ t: TaggedToken, sentenceStart: Bool) -> Bool {
        guard t.token.isCapitalized, !t.token.isElided, !Validator.capitalisedNouns.contains(t.normalized) else { return false }
        if sentenceStart, accepted(t.token.text.lowercased()) { return false }
        return spelling.analyze(t.token.text).contains { $0.contains("po:prn") }
    }

    /// A first name or a place the dictionary knows only with its capital ("Paul", "Bretagne",
    /// "Lyon"): Hunspell accepts it as written, not in lower case.
    func isProperNoun(_ t: TaggedToken) -> Bool {
        guard t.token.isCapitalized, !t.token.isElided else { return false }
        let lower = t.token.text.lowercased()
        return accepted(t.token.text) && !accepted(lower)
    }

    /// The traditional spellings a 1990 rectified spelling may stand for (Journal officiel,
    /// 6 décembre 1990; the programmes accept both): a circumflex back on i or u ("connait" →
    /// "connaît", "boite" → "boîte"), é for è before a consonant and a vowel ("évènement" →
    /// "événement"), "eoir" for "oir" ("assoir" → "asseoir"), a hyphen back ("plateforme" →
    /// "plate-forme"). Candidates only: Lexique decides which exist.
    static func traditionalSpellings(of w: String) -> [String] {
        let chars = Array(w)
        var out: [String] = []
        for (k, c) in chars.enumerated() {
            var copy = chars
            switch c {
            case "i": copy[k] = "î"
            case "u": copy[k] = "û"
            case "è": copy[k] = "é"
            default: continue
            }
            out.append(String(copy))
        }
        if w.hasSuffix("oir") || w.contains("oir") { out.append(w.replacingOccurrences(of: "oir", with: "eoir")) }
        if !w.contains("-"), chars.count >= 6 {
            for k in 3...(chars.count - 3) { out.append(String(chars[..<k]) + "-" + String(chars[k...])) }
        }
        return out
    }

    /// The graphemes beyond a plain letter-sound match in a word, counted one each: a nasal vowel
    /// (a vowel + m or n before a consonant or at the end: "an", "em", "on"; "emm"/"enn" at the
    /// start), a double consonant, "ch", "ph", "gn", "qu", "ill", è/ê/ë/î/ï/ô/û, and a silent
    /// final "ps"/"ts"/"ds" ("longtemps" 3, "champion" 3, "emmène" 3, "ensemble" 2, "maman" 1).
    static func graphemeDifficulty(_ w: String) -> Int {
        let c = Array(w)
        let vowels: Set<Character> = ["a", "e", "i", "o", "u", "y", "é"]
        var n = 0
        if w.hasPrefix("emm") || w.hasPrefix("enn") { n += 1 }
        for k in c.indices {
            // The silent "-ent" of a verb ("chantent") is not a nasal vowel.
            if c[k] == "n", k == c.count - 2, c.count >= 5, w.hasSuffix("ent") { continue }
            if c[k] == "m" || c[k] == "n", k > 0, vowels.contains(c[k - 1]) {
                let next: Character? = k + 1 < c.count ? c[k + 1] : nil
                if next == nil || (!vowels.contains(next!) && next != "m" && next != "n" && next != "h") { n += 1 }
            }
            if k > 0, c[k] == c[k - 1], "bcdfglmnprstz".contains(c[k]) { n += 1 }
            if "èêëîïôû".contains(c[k]) { n += 1 }
        }
        for g in ["ch", "ph", "gn", "qu", "ill"] { n += w.components(separatedBy: g).count - 1 }
        if w.count >= 4, w.hasSuffix("ps") || w.hasSuffix("ts") || w.hasSuffix("ds") { n += 1 }
        return n
    }

    /// Whether a word is beyond a CP child in the first months (`graphie_cp`, Docs/domain.md §3): a
    /// nasal written with m before b, p or m (the CP skill `m_devant_m_b_p`) in a word that has
    /// two other difficult graphemes ("longtemps", "champion", "emmène"), or one in a word of eight
    /// letters or more ("ensemble", "embrasse"). The skill's simple words pass: "jambe", "tombe",
    /// "lampe", "pompier", "temps", "décembre", "chambre", "combien"; so do "pomme", "enfant",
    /// "chanson".
    static func tooComplexForCP(_ w: String) -> Bool {
        guard hasNasalM(w) else { return false }
        let d = graphemeDifficulty(w)
        return d >= 3 || (d >= 2 && w.count >= 8)
    }

    /// A nasal vowel written with "m" before "b", "p" or "m" ("ensemble", "champion",
    /// "longtemps", "emmène", "tomber", "jambe"): the skill `m_devant_m_b_p`
    /// (Docs/trap-sites.md). A double "m" counts only as the nasal "emm" at the start of a word
    /// ("emmener", "emmêler"), not in "pomme" or "comme".
    static func hasNasalM(_ w: String) -> Bool {
        let c = Array(w)
        guard c.count >= 3 else { return false }
        for k in 1..<(c.count - 1) where c[k] == "m" {
            let before = c[k - 1], after = c[k + 1]
            if "aeiouy".contains(before), after == "b" || after == "p" { return true }
            if before == "e", after == "m", k == 1 { return true }
        }
        return false
    }

    /// The highest Lexique lemma frequency of the lemmas Hunspell gives a word (`st:` fields of
    /// its analyses); 0 when it gives none Lexique knows as a lemma.
    func hunspellLemmaFrequency(_ w: String) -> Float {
        var best: Float = 0
        for analysis in spelling.analyze(w) {
            for field in analysis.split(separator: " ") where field.hasPrefix("st:") {
                let lemma = String(field.dropFirst(3))
                for e in lexicon.entries(for: lemma) where e.lemma == lemma { best = max(best, e.lemmaFrequency) }
            }
        }
        return best
    }
}
