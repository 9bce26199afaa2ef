import DicteeCore
import Foundation

/// Finds the trap sites of the fifteen skills (../shared/Docs/domain.md §1) in a text, following the
/// definitions of `Docs/trap-sites.md`: deterministic rules over the tokens, Lexique 3.83's
/// readings (`cgram`, `lemme`, `genre`, `nombre`, `infover`, `phon`) and short context windows.
/// A model is never asked.
public struct TrapAnalyzer: Sendable {
    /// The Lexique 3.83 rows the rules read.
    public let lexicon: any WordLookup

    /// - Parameters:
    ///   - lexicon: the Lexique 3.83 rows of each form (wrap it in ``CachedLookup`` for many texts).
    public init(lexicon: some WordLookup) { self.lexicon = lexicon }

    /// Every trap site of every skill, ordered by position then skill.
    /// - Parameters:
    ///   - text: a French text (straight or typographic apostrophes).
    ///   - names: first names the text may contain (the child's, a friend's): proper nouns even at
    ///     the start of a sentence.
    /// - Returns: the sites sorted by `start` (Unicode scalar offset), then by skill order.
    public func sites(in text: String, names: Set<String> = []) -> [TrapSite] {
        sites(in: TextAnalysis(text, lexicon: lexicon, names: names))
    }

    /// Every trap site of a text written for `child` (the child's first name is a proper noun
    /// wherever it stands), plus the friend's name of the moment if any.
    /// - Parameters:
    ///   - text: a French text written for `child`.
    ///   - child: the child; only the first name is used.
    ///   - friendName: the friend's first name in the moment phrase (`l'anniversaire de Tom`).
    /// - Returns: the sites sorted by `start` (Unicode scalar offset), then by skill order.
    public func sites(in text: String, for child: Child, friendName: String? = nil) -> [TrapSite] {
        sites(in: text, names: Set([child.firstName] + (friendName.map { [$0] } ?? [])))
    }

    /// Every trap site of an analysed text.
    /// - Parameters:
    ///   - analysis: the tagged text (its names already set).
    ///   - skills: the skills to look for; all fifteen by default.
    /// - Returns: the sites sorted by `start` (Unicode scalar offset), then by skill order.
    public func sites(in analysis: TextAnalysis, skills: Set<SkillID> = Set(SkillID.allCases)) -> [TrapSite] {
        var out: [TrapSite] = []
        let rules = Rules(a: analysis, lexicon: lexicon)
        for skill in SkillID.allCases where skills.contains(skill) {
            out += rules.sites(for: skill)
        }
        return out.sorted { ($0.start, $0.skill) < ($1.start, $1.skill) }
    }
}

/// Verbs conjugated with être in compound tenses (non-reflexive), for `accord_pp_etre` and the
/// passé composé with être (Docs/domain.md §1, plus the usual school list's compounds).
public let etreVerbs: Set<String> = [
    "aller", "venir", "revenir", "devenir", "partir", "repartir", "arriver", "rester", "tomber", "rentrer",
    "entrer", "retourner", "sortir", "ressortir", "monter", "remonter", "descendre", "redescendre", "naître", "parvenir",
]

struct Rules {
    let a: TextAnalysis
    let lexicon: any WordLookup
    var tokens: [TaggedToken] { a.tagged }

    func site(_ skill: SkillID, _ i: Int, choice: String? = nil, alternatives: [String] = []) -> TrapSite {
        let t = tokens[i].token
        return TrapSite(skill: skill, start: t.start, end: t.end, word: t.text, choice: choice, alternatives: alternatives)
    }

    func sites(for skill: SkillID) -> [TrapSite] {
        switch skill {
        case .majusculePonctuation: majuscules()
        case .mDevantMBP: mDevantMBP()
        case .lettresMuettesFinales: lettresMuettes()
        case .homophonesAA: homophones(["a": ["à"], "à": ["a"]], skill)
        case .homophonesEtEst: homophones(["et": ["est"], "est": ["et"]], skill)
        case .homophonesOnOnt: homophones(["on": ["ont"], "ont": ["on"]], skill)
        case .homophonesSonSont: homophones(["son": ["sont"], "sont": ["son"]], skill)
        case .plurielNomsSX: pluriels()
        case .accordSujetVerbe: accordSujetVerbe()
        case .accordGNAdjectif: accordAdjectifs()
        case .infinitifErParticipeE: infinitifParticipe()
        case .imparfaitFuturTerminaisons: imparfaitFutur()
        case .accordPPEtre: participesEtre()
        case .homophonesCesSesCestSest: cesSes()
        case .passeSimple3ePersonne: passeSimple()
        }
    }

    // MARK: majuscule_ponctuation

    func majuscules() -> [TrapSite] {
        var out: [TrapSite] = []
        for s in a.text.sentences {
            var first = true
            for i in s {
                let t = tokens[i]
                // A full stop, an exclamation or a question mark teaches nothing on paper (it is a
                // dot to tick): the capitals are the sites (Docs/trap-sites.md).
                if t.token.kind == .punctuation { continue }
                if first {
                    first = false
                    out.append(site(.majusculePonctuation, i))
                    continue
                }
                if t.wordClass == .properNoun || FrenchWords.days.contains(t.normalized) || FrenchWords.months.contains(t.normalized) {
                    out.append(site(.majusculePonctuation, i))
                }
            }
        }
        return out
    }

    // MARK: m_devant_m_b_p

    func mDevantMBP() -> [TrapSite] {
        var out: [TrapSite] = []
        for (i, t) in tokens.enumerated() where t.token.kind == .word && t.wordClass != .properNoun {
            let w = Array(t.normalized.unicodeScalars)
            var hit = t.normalized.hasPrefix("emm") || t.normalized.hasPrefix("imm")
            if !hit, w.count >= 3 {
                for k in 0..<(w.count - 2) where w[k + 1] == "m" && (w[k + 2] == "b" || w[k + 2] == "p") {
                    if "aeiouyéèêâîôûœ".unicodeScalars.contains(w[k]) { hit = true; break }
                }
            }
            if hit { out.append(site(.mDevantMBP, i)) }
        }
        return out
    }

    // MARK: lettres_muettes_finales

    /// Lexique's `phon` code for the consonants that a final letter would sound as.
    static let sounded: [Character: Set<Character>] = [
        "d": ["d", "t"], "t": ["t"], "s": ["s", "z"], "x": ["s", "z", "x"], "p": ["p"], "g": ["g", "k"], "c": ["k", "g"],
    ]

    func lettresMuettes() -> [TrapSite] {
        var out: [TrapSite] = []
        for (i, t) in tokens.enumerated() where [.noun, .adjective, .adverb].contains(t.wordClass)
            && !Rules.negationAdverbs.contains(t.normalized) {
            let rows = t.readings.filter { [.noun, .adjective, .adverb].contains($0.partOfSpeech) }
            guard let row = rows.max(by: { $0.formFrequencyBooks < $1.formFrequencyBooks }) else { continue }
            var form = Array(t.normalized)
            if row.number == .plural, let last = form.last, last == "s" || last == "x", form.count > 2 {
                // The plural mark is pluriel_noms_s_x, not a mute letter; what is left must end in
                // a consonant of its own ("petits" → petit).
                form.removeLast()
                if let singular = singularPhonology(of: String(form), row: row), isSilentFinal(form, phon: singular) {
                    out.append(site(.lettresMuettesFinales, i))
                }
                continue
            }
            if isSilentFinal(form, phon: row.phonology) { out.append(site(.lettresMuettesFinales, i)) }
        }
        return out
    }

    /// Negation words are not spelling traps of this kind (`pas`, `plus`, `point`).
    static let negationAdverbs: Set<String> = ["pas", "plus", "point"]

    /// The phonology of the singular form ("petits" → "petit" /p@ti/).
    func singularPhonology(of form: String, row: LexicalEntry) -> String? {
        lexicon.entries(for: form).first { $0.partOfSpeech == row.partOfSpeech && $0.number != .plural }?.phonology
    }

    /// The written final letter is one of d t s x p g c and the last phoneme is not its sound:
    /// "grand" /gR@/ and "temps" /t@/ end in a vowel (silent), "sac" /sak/ ends in k (sounded).
    func isSilentFinal(_ form: [Character], phon: String) -> Bool {
        guard form.count >= 2, let last = form.last, let sounds = Rules.sounded[last], let lastPhon = phon.last else { return false }
        return !sounds.contains(lastPhon)
    }

    // MARK: homophones

    func homophones(_ pairs: [String: [String]], _ skill: SkillID) -> [TrapSite] {
        var out: [TrapSite] = []
        for (i, t) in tokens.enumerated() where t.token.kind == .word {
            guard let alternatives = pairs[t.normalized] else { continue }
            if t.normalized == "est", t.wordClass == .noun { continue }
            // "c'est"/"s'est" are sites of homophones_ces_ses_cest_sest, not of et/est.
            if t.normalized == "est", i > 0, ["c'", "s'"].contains(tokens[i - 1].normalized), tokens[i - 1].token.end == t.token.start { continue }
            if t.normalized == "son", t.wordClass == .noun { continue }
            out.append(site(skill, i, choice: t.normalized, alternatives: alternatives))
        }
        return out
    }

    func cesSes() -> [TrapSite] {
        var out: [TrapSite] = []
        for (i, t) in tokens.enumerated() where t.token.kind == .word {
            let w = t.normalized
            if w == "ces" || w == "ses" {
                out.append(site(.homophonesCesSesCestSest, i, choice: w, alternatives: ["ces", "ses", "c'est", "s'est"].filter { $0 != w }))
            } else if (w == "c'" || w == "s'"), i + 1 < tokens.count, tokens[i + 1].normalized == "est", tokens[i + 1].token.start == t.token.end {
                let both = w + "est"
                let start = t.token.start, end = tokens[i + 1].token.end
                out.append(TrapSite(skill: .homophonesCesSesCestSest, start: start, end: end,
                                    word: a.text.substring(from: start, to: end), choice: both,
                                    alternatives: ["ces", "ses", "c'est", "s'est"].filter { $0 != both }))
            }
        }
        return out
    }

    // MARK: pluriel_noms_s_x

    static let pluralMarkers: Set<String> = ["les", "des", "mes", "tes", "ses", "nos", "vos", "leurs", "ces", "aux", "plusieurs", "quelques"]

    func pluriels() -> [TrapSite] {
        var out: [TrapSite] = []
        var taken = Set<Int>()
        for (i, t) in tokens.enumerated() {
            let isMarker = Rules.pluralMarkers.contains(t.normalized) && t.wordClass == .determiner
                || FrenchWords.pluralNumerals.contains(t.normalized)
                || (t.token.kind == .number && Int(t.token.text).map { $0 >= 2 } == true)
            guard isMarker else { continue }
            var k = i + 1
            var steps = 0
            while k < tokens.count, steps < 3 {
                let n = tokens[k]
                if n.token.kind == .punctuation { break }
                if n.wordClass == .noun, n.readings.contains(where: { $0.number == .plural || $0.number == nil }),
                   n.entries.contains(where: { $0.partOfSpeech == .noun && $0.number == .plural }) {
                    if !taken.contains(k) { out.append(site(.plurielNomsSX, k)); taken.insert(k) }
                    break
                }
                if n.wordClass == .adjective || FrenchWords.pluralNumerals.contains(n.normalized) || n.token.kind == .number {
                    k += 1; steps += 1; continue
                }
                // A noun reading the tagger did not pick ("les grands" as adjective + noun).
                if n.entries.contains(where: { $0.partOfSpeech == .noun && $0.number == .plural }), n.wordClass != .finiteVerb {
                    if !taken.contains(k) { out.append(site(.plurielNomsSX, k)); taken.insert(k) }
                    break
                }
                break
            }
        }
        return out
    }

    // MARK: accord_sujet_verbe

    func accordSujetVerbe() -> [TrapSite] {
        var out: [TrapSite] = []
        for (i, t) in tokens.enumerated() where t.wordClass == .finiteVerb {
            // Imperative only (no subject possible) is not a site.
            if !t.finiteForms.contains(where: { $0.mood != .imp }) { continue }
            let skip = FrenchWords.negationsAndObjectPronouns
            var k = i - 1
            while k >= 0, tokens[k].token.kind == .word, skip.contains(tokens[k].normalized),
                  tokens[k].wordClass == .negation || tokens[k].wordClass == .objectPronoun {
                k -= 1
            }
            guard k >= 0 else { continue }
            let s = tokens[k]
            let hasSubject: Bool
            switch s.wordClass {
            case .subjectPronoun: hasSubject = true
            case .properNoun: hasSubject = true
            case .noun, .adjective: hasSubject = groupStartsWithDeterminer(before: k)
            default: hasSubject = false
            }
            // Inversion: "dit-il", "a-t-elle".
            let inverted = t.token.normalized.utf8.contains(UInt8(ascii: "-")) && ["il", "elle", "on", "ils", "elles", "je", "tu", "nous", "vous"].contains { t.token.normalized.hasSuffix("-" + $0) }
            if hasSubject || inverted { out.append(site(.accordSujetVerbe, i)) }
        }
        return out
    }

    /// The noun group ending at `k` starts with a determiner (det + adjectives/nouns).
    func groupStartsWithDeterminer(before k: Int) -> Bool {
        var j = k
        var steps = 0
        while j >= 0, steps < 5 {
            let t = tokens[j]
            if t.wordClass == .determiner { return true }
            if t.wordClass == .noun || t.wordClass == .adjective || t.wordClass == .pastParticiple { j -= 1; steps += 1; continue }
            // "le chat de Léa" / "les enfants du voisin": a complement inside the group.
            if t.wordClass == .preposition || t.wordClass == .properNoun { j -= 1; steps += 1; continue }
            return false
        }
        return false
    }

    // MARK: accord_gn_adjectif

    static let copulas: Set<String> = ["être", "devenir", "sembler", "paraître", "rester"]

    func accordAdjectifs() -> [TrapSite] {
        var out: [TrapSite] = []
        for (i, t) in tokens.enumerated() {
            let isQualifying = t.entries.contains { $0.partOfSpeech == .adjective }
            guard isQualifying, t.wordClass == .adjective || t.wordClass == .pastParticiple || t.wordClass == .noun else { continue }
            if t.wordClass == .pastParticiple, isEtreParticiple(t) { continue }
            // Attribute after a copula.
            if let copula = precedingCopula(i) {
                if copula == "être", isEtreParticiple(t) { continue }
                out.append(site(.accordGNAdjectif, i))
                continue
            }
            guard t.wordClass == .adjective else { continue }
            // Inside a determiner group: right before a noun, or right after a noun of the group.
            let prev = i > 0 ? tokens[i - 1] : nil
            let next = i + 1 < tokens.count ? tokens[i + 1] : nil
            if let next, next.wordClass == .noun, prev?.wordClass == .determiner || prev?.wordClass == .adjective {
                out.append(site(.accordGNAdjectif, i))
            } else if let prev, prev.wordClass == .noun, groupStartsWithDeterminer(before: i - 1) {
                out.append(site(.accordGNAdjectif, i))
            }
        }
        return out
    }

    func precedingCopula(_ i: Int) -> String? {
        var k = i - 1
        var steps = 0
        while k >= 0, steps < 4 {
            let p = tokens[k]
            if p.token.kind == .punctuation { return nil }
            if FrenchWords.innerAdverbs.contains(p.normalized), p.wordClass != .finiteVerb { k -= 1; steps += 1; continue }
            if p.wordClass == .finiteVerb || p.wordClass == .infinitive || p.wordClass == .pastParticiple {
                // "Léa s'est levée": a reflexive verb's participle, not an attribute.
                if k > 0, FrenchWords.reflexivePronouns.contains(tokens[k - 1].normalized) { return nil }
                return p.readings.first { $0.partOfSpeech.isVerb && Rules.copulas.contains($0.lemma) }?.lemma
            }
            return nil
        }
        return nil
    }

    func isEtreParticiple(_ t: TaggedToken) -> Bool {
        t.entries.contains { $0.partOfSpeech.isVerb && etreVerbs.contains($0.lemma) && $0.verbForms.contains { $0.mood == .par && $0.tense == .pas } }
    }

    // MARK: infinitif_er_participe_e

    func infinitifParticipe() -> [TrapSite] {
        var out: [TrapSite] = []
        for (i, t) in tokens.enumerated() {
            let w = t.normalized
            let firstGroup = t.entries.filter { $0.partOfSpeech.isVerb && $0.lemma.hasSuffix("er") && $0.lemma != "aller" }
            guard !firstGroup.isEmpty else { continue }
            if t.wordClass == .infinitive, w.hasSuffix("er"), firstGroup.contains(where: { $0.verbForms.contains { $0.mood == .inf } }) {
                out.append(site(.infinitifErParticipeE, i))
            } else if t.wordClass == .pastParticiple, w.hasSuffix("é") || w.hasSuffix("ée") || w.hasSuffix("és") || w.hasSuffix("ées"),
                      firstGroup.contains(where: { $0.verbForms.contains { $0.mood == .par && $0.tense == .pas } }) {
                out.append(site(.infinitifErParticipeE, i))
            }
        }
        return out
    }

    // MARK: imparfait_futur_terminaisons

    func imparfaitFutur() -> [TrapSite] {
        tokens.indices.compactMap { i in
            let t = tokens[i]
            guard t.wordClass == .finiteVerb else { return nil }
            var forms = t.finiteForms.filter { $0.mood == .ind && ($0.tense == .imp || $0.tense == .fut) }
            // The subject pronoun fixes the person: "il dit" is not the (spurious) ind:fut:3p
            // reading Lexique lists for "dit".
            if let person = subjectPerson(i) { forms = forms.filter { $0.person == person } }
            return forms.isEmpty ? nil : site(.imparfaitFuturTerminaisons, i)
        }
    }

    /// The person of the subject pronoun before a verb (skipping ne and object pronouns), if any.
    func subjectPerson(_ i: Int) -> String? {
        var k = i - 1
        while k >= 0, tokens[k].wordClass == .negation || tokens[k].wordClass == .objectPronoun { k -= 1 }
        guard k >= 0, tokens[k].wordClass == .subjectPronoun else { return nil }
        switch tokens[k].normalized {
        case "je", "j'": return "1s"
        case "tu": return "2s"
        case "il", "elle", "on", "c'", "ce": return "3s"
        case "nous": return "1p"
        case "vous": return "2p"
        case "ils", "elles": return "3p"
        default: return nil
        }
    }

    // MARK: accord_pp_etre

    func participesEtre() -> [TrapSite] {
        var out: [TrapSite] = []
        for (i, t) in tokens.enumerated() where isEtreParticiple(t) {
            guard t.wordClass == .pastParticiple || t.wordClass == .adjective || t.wordClass == .noun else { continue }
            // A form of être at most two tokens before, ne/pas/bien/déjà/tout between.
            var k = i - 1
            var steps = 0
            var found: Int?
            while k >= 0, steps < 4 {
                let p = tokens[k]
                if p.token.kind == .punctuation { break }
                if ["ne", "n'", "pas", "bien", "déjà", "tout", "toujours", "jamais", "encore", "plus"].contains(p.normalized) { k -= 1; steps += 1; continue }
                if p.wordClass == .finiteVerb || p.wordClass == .infinitive, p.readings.contains(where: { $0.lemma == "être" }) { found = k }
                break
            }
            guard let e = found, i - e - 1 <= 2 || steps <= 2 else { continue }
            // Reflexive: "s'est levée", "se sont amusés", "me suis".
            var r = e - 1
            while r >= 0, FrenchWords.negations.contains(tokens[r].normalized) { r -= 1 }
            if r >= 0, FrenchWords.reflexivePronouns.contains(tokens[r].normalized) { continue }
            if r >= 0, ["nous", "vous"].contains(tokens[r].normalized), tokens[r].wordClass == .objectPronoun { continue }
            out.append(site(.accordPPEtre, i))
        }
        return out
    }

    // MARK: passe_simple_3e_personne

    func passeSimple() -> [TrapSite] {
        tokens.indices.compactMap { i in
            let t = tokens[i]
            guard t.wordClass == .finiteVerb else { return nil }
            let forms = t.entries.filter { $0.partOfSpeech.isVerb }.flatMap(\.verbForms)
            guard forms.contains(where: { $0.mood == .ind && $0.tense == .pas && $0.isThirdPerson }),
                  !forms.contains(where: { $0.mood == .ind && $0.tense == .pre }) else { return nil }
            return site(.passeSimple3ePersonne, i)
        }
    }
}
