import DicteeCore
import Foundation
import French

/// The validator's steps, in the order they run. The raw values are a contract: `dictee check
/// --json` prints them and the generation feeds the findings back to the model.
public enum ValidationStep: String, CaseIterable, Codable, Sendable, Hashable {
    case vocabulaire, temps, longueur, registre, competences, prenom, moment
    case orthographeGrammaire = "orthographe_grammaire"
}

/// One failed check: the step and one French sentence telling a writer what to fix.
public struct Finding: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    public var step: ValidationStep
    /// French, addressed to whoever writes the text (the model, or a parent with `dictee check`).
    public var message: String

    /// - Parameters:
    ///   - step: the step that failed.
    ///   - message: one French sentence saying what to fix.
    public init(step: ValidationStep, message: String) {
        self.step = step
        self.message = message
    }

    /// `step: message`, e.g. `prenom: Le prénom s'écrit avec une majuscule : « Léa ».`
    ///
    /// - Warning: messages quote words of the text, so this can hold the child's first name:
    ///   show it to the parent or the model, never write it to a log.
    public var description: String { "\(step.rawValue): \(message)" }
}

/// A text to check: the sentences as written (the model answers with an array of sentences), and
/// an optional title.
public struct Draft: Sendable, Hashable {
    /// The title, if any: checked for registers, spelling and characters, not counted in lengths.
    public var title: String?
    /// The whole text, sentences separated by spaces or line breaks.
    ///
    /// - Warning: it holds the child's first name; never write it to a log.
    public var text: String

    /// - Parameters:
    ///   - title: an optional title.
    ///   - text: the whole text as one string.
    public init(title: String? = nil, text: String) {
        self.title = title
        self.text = text
    }

    /// Joins the sentences with one space.
    /// - Parameters:
    ///   - title: an optional title.
    ///   - sentences: the sentences in order, as the model returns them; each is trimmed of
    ///     surrounding whitespace.
    public init(title: String? = nil, sentences: [String]) {
        self.init(title: title, text: sentences.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: " "))
    }
}

/// How the validator reaches Grammalecte for step 8.
public enum GrammarGate: Sendable {
    /// Run it (one long-lived worker process, text by text).
    case checker(GrammarChecker)
    /// It cannot run (not installed, broken): step 8 fails for every text, with this reason.
    case unavailable(String)
    /// Not run at all: for the benchmark, which measures Grammalecte separately. Step 8 then
    /// checks Hunspell only. Never used by a command that serves texts.
    case skippedForBenchmark
}

/// The deterministic gate between a draft and a child: eight steps (``ValidationStep``), each
/// failure with one French sentence. Nothing here asks a model.
///
/// Sources: DOMAIN.md §2 (tenses, lengths), §3 (Lexique 3.83 frequency bands, mots donnés),
/// §4 (forbidden registers, `Whitelists/registers.txt`), §1 and `Docs/trap-sites.md` (skills),
/// §6 (moment phrase grammar). Spelling: Hunspell with Debian's hunspell-fr-classical; grammar:
/// Grammalecte.
public final class Validator: @unchecked Sendable {
    /// The Lexique 3.83 lookup given to `init`, behind a ``CachedLookup`` (reused when it is one).
    public let lexicon: any WordLookup
    /// Hunspell (hunspell-fr-classical), the spelling half of step 8.
    public let spelling: SpellChecker
    /// Grammalecte, the grammar half of step 8 (or why it does not run).
    public let grammar: GrammarGate
    /// Forbidden-register words (`registers.txt` second column), lower case.
    public let registers: Set<String>
    let analyzer: TrapAnalyzer
    private let cacheLock = NSLock()
    private var spellingCache: [String: Bool] = [:]
    private var phraseCache: [String: [String]] = [:]

    /// A validator; nothing is checked until `check`.
    /// - Parameters:
    ///   - lexicon: Lexique 3.83 rows of each form (wrapped in a ``CachedLookup`` unless it is one).
    ///   - spelling: the Hunspell French dictionary.
    ///   - grammar: how to reach Grammalecte.
    ///   - registers: the contents of `Whitelists/registers.txt` (`category<TAB>word` lines,
    ///     `#` comments).
    public init(lexicon: some WordLookup, spelling: SpellChecker, grammar: GrammarGate, registers: String) {
        let cached = lexicon as? CachedLookup ?? CachedLookup(lexicon)
        self.lexicon = cached
        self.spelling = spelling
        self.grammar = grammar
        var words = Set<String>()
        for line in registers.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t")
            if parts.count >= 2 { words.insert(Tokenizer.normalize(String(parts[1]).trimmingCharacters(in: .whitespaces))) }
        }
        self.registers = words
        self.analyzer = TrapAnalyzer(lexicon: cached)
    }

    /// Runs the eight steps on one draft.
    /// - Parameters:
    ///   - draft: the text to check.
    ///   - plan: what the text must satisfy (child, moment, targets, lengths in words).
    /// - Returns: the findings in step order; empty when the draft passes.
    public func check(_ draft: Draft, plan: DictationPlan) -> [Finding] {
        check([(draft, plan)])[0]
    }

    /// Runs the eight steps on many drafts; Grammalecte runs once for the whole batch.
    /// - Parameters:
    ///   - batch: drafts, each with the plan it must satisfy.
    /// - Returns: one findings list per draft, in order.
    public func check(_ batch: [(Draft, DictationPlan)]) -> [[Finding]] {
        var results = batch.map { deterministicFindings($0.0, plan: $0.1) }
        // An agreement with the name is reported once, by `prenom`, in dictee's words.
        let grammarFindings = grammarCheck(batch, nameAgreementReported: results.map { $0.contains { $0.step == .prenom } })
        for i in results.indices { results[i] += grammarFindings[i] }
        return results
    }

    /// The trap sites of a draft for its plan's child and moment.
    /// - Parameters:
    ///   - draft: the text (its title is not analysed).
    ///   - plan: gives the names that are proper nouns: the child's and the moment's friend's.
    /// - Returns: the sites sorted by `start` (Unicode scalar offset into `draft.text`), then skill.
    public func sites(of draft: Draft, plan: DictationPlan) -> [TrapSite] {
        analyzer.sites(in: TextAnalysis(draft.text, lexicon: lexicon, names: names(of: plan)))
    }

    func names(of plan: DictationPlan) -> Set<String> {
        var names: Set<String> = [plan.child.firstName]
        if let friend = plan.moment.friendName { names.insert(friend) }
        return names
    }

    /// Steps 1 to 7 and the Hunspell half of step 8.
    func deterministicFindings(_ draft: Draft, plan: DictationPlan) -> [Finding] {
        let analysis = TextAnalysis(draft.text, lexicon: lexicon, names: names(of: plan))
        var out: [Finding] = []
        out += vocabulaire(analysis, plan)
        out += temps(analysis, plan)
        out += longueur(analysis, plan)
        out += registre(analysis, draft)
        out += competences(analysis, plan)
        out += prenom(analysis, plan)
        out += momentStep(analysis, plan)
        out += orthographe(analysis, draft, plan)
        return out
    }

    // MARK: 1. vocabulaire

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

    /// Family words that are always "mots donnés" (DOMAIN.md §3: shown before the dictation).
    public static var familyWords: Set<String> { standardGivenWords["famille"] ?? [] }

    static let allStandardGivenWords: Set<String> = standardGivenWords.values.reduce(into: Set<String>()) { $0.formUnion($1) }


    /// The normalized words of a phrase, memoized (moment phrases repeat across drafts).
    func phraseWords(_ phrase: String) -> [String] {
        cacheLock.lock()
        if let known = phraseCache[phrase] { cacheLock.unlock(); return known }
        cacheLock.unlock()
        let words = Tokenizer.tokenize(phrase).tokens.filter { $0.kind == .word }.map(\.normalized)
        cacheLock.lock()
        if phraseCache.count < 10_000 { phraseCache[phrase] = words }
        cacheLock.unlock()
        return words
    }

    func givenWords(_ plan: DictationPlan) -> Set<String> {
        var given = Validator.allStandardGivenWords
        for w in phraseWords(plan.moment.phrase) { given.insert(w) }
        for w in plan.givenWords { given.insert(Tokenizer.normalize(w)) }
        for n in names(of: plan) { given.insert(Tokenizer.normalize(n)) }
        return given
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

    // MARK: 2. temps

    /// The tense of each finite verb of the text, compound tenses resolved on their auxiliary.
    /// - Returns: (token index, possible tenses); a verb is allowed when one of them is.
    /// - Parameters:
    ///   - a: the analysed text; `index` in the result is an index into `a.tagged`.
    public func tenses(in a: TextAnalysis) -> [(index: Int, tenses: Set<SchoolTense>)] {
        var out: [(Int, Set<SchoolTense>)] = []
        let t = a.tagged
        for i in t.indices where t[i].wordClass == .finiteVerb {
            let auxLemma = t[i].readings.first { $0.lemma == "avoir" || $0.lemma == "être" }?.lemma
            var participle: Int?
            if auxLemma != nil {
                var k = i + 1
                var steps = 0
                while k < t.count, steps <= 3, t[k].token.kind == .word {
                    if t[k].wordClass == .pastParticiple { participle = k; break }
                    if FrenchWords.innerAdverbs.contains(t[k].normalized) || t[k].wordClass == .subjectPronoun { k += 1; steps += 1; continue }
                    break
                }
            }
            var set = Set<SchoolTense>()
            if let p = participle, ["eu", "été"].contains(t[p].normalized), p + 1 < t.count, t[p + 1].wordClass == .pastParticiple,
               auxLemma == "avoir" || t[p].normalized == "eu" {
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
        return k == i
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
            return Finding(step: .temps, message:
                "\(byTense[tense]!.count > 1 ? "Les verbes \(verbs) sont" : "Le verbe \(verbs) est") \(what), un temps qui n'est pas au programme de \(plan.grade.rawValue) ; écris \(allowedText).")
        }
        if !notFirstGroup.isEmpty {
            out.append(Finding(step: .temps, message:
                "En CP, on conjugue seulement être, avoir, aller et les verbes en -er ; remplace \(notFirstGroup.map { "« \($0) »" }.joined(separator: ", "))."))
        }
        return out
    }

    // MARK: 3. longueur

    func longueur(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        var out: [Finding] = []
        let words = a.text.wordCount
        if !plan.words.contains(words) {
            out.append(Finding(step: .longueur, message:
                "Le texte compte \(words) mot\(words > 1 ? "s" : "") ; il en faut entre \(plan.words.lowerBound) et \(plan.words.upperBound)."))
        }
        let sentences = a.text.sentences.count
        let range = plan.sentences.lowerBound...min(plan.sentences.upperBound, GradeNorms.sentenceCap)
        if !range.contains(sentences) {
            out.append(Finding(step: .longueur, message:
                "Le texte compte \(sentences) phrase\(sentences > 1 ? "s" : "") ; il en faut entre \(range.lowerBound) et \(range.upperBound)."))
        }
        for s in a.text.sentences.indices {
            let n = a.text.wordCount(ofSentence: s)
            if n > plan.maxWordsPerSentence {
                out.append(Finding(step: .longueur, message:
                    "La phrase \(s + 1) compte \(n) mots ; une phrase ne doit pas dépasser \(plan.maxWordsPerSentence) mots en \(plan.grade.rawValue)."))
            }
        }
        return out
    }

    // MARK: 4. registre

    /// Homographs of `registers.txt` that only count as nouns ("la tombe", not "la neige tombe").
    static let nounOnlyRegisterWords: Set<String> = ["tombe", "tombes", "dispute", "disputes"]

    /// The forbidden-register words of a text: whole tokens or lemmas, never substrings.
    /// - Parameters:
    ///   - a: the analysed text; its `names` are never register words.
    /// - Returns: the offending tokens as written, each once, in text order; empty when none.
    public func registerWords(in a: TextAnalysis) -> [String] {
        var found: [String] = []
        let names = a.names
        for t in a.tagged where t.token.kind == .word && !names.contains(t.normalized) {
            let w = t.normalized
            // Every reading counts, whatever the tagger chose (a capitalised "Tue" mid-sentence is
            // still tuer), except the noun-only homographs: "la neige tombe" is not "une tombe".
            // Lemmas of the readings that fit the word's role ("la fumée" is not fumer; "l'équipe
            // attaque" is); every reading when the role is unknown (a capitalised "Tue").
            let rows: [LexicalEntry]
            switch t.wordClass {
            case .noun: rows = t.entries.filter { $0.partOfSpeech == .noun }
            case .adjective: rows = t.entries.filter { $0.partOfSpeech == .adjective || $0.partOfSpeech.isVerb }
            case .finiteVerb, .infinitive, .pastParticiple, .presentParticiple: rows = t.entries.filter { $0.partOfSpeech.isVerb }
            default: rows = t.entries
            }
            var hit = (rows.isEmpty ? t.entries : rows).contains { registers.contains($0.lemma) && !Validator.nounOnlyRegisterWords.contains($0.lemma) }
            if registers.contains(w) {
                hit = hit || !Validator.nounOnlyRegisterWords.contains(w) || t.wordClass == .noun
                    || !t.entries.contains { $0.partOfSpeech.isVerb }
            } else if t.entries.contains(where: { Validator.nounOnlyRegisterWords.contains($0.lemma) && $0.partOfSpeech == .noun }) {
                hit = hit || t.wordClass == .noun
            }
            // Hyphenated compounds: any part ("va-t-en-guerre", "Tue-le").
            // Parts of a hyphenated word only when it is not a dictionary word ("Tue-le", not
            // "à tue-tête" or "sang-froid").
            if !hit, w.utf8.contains(UInt8(ascii: "-")), spelling.analyze(w).isEmpty {
                hit = w.split(separator: "-").contains { part in
                    let p = String(part)
                    return (registers.contains(p) && !Validator.nounOnlyRegisterWords.contains(p))
                        || lexicon.entries(for: p).contains { registers.contains($0.lemma) && !Validator.nounOnlyRegisterWords.contains($0.lemma) }
                }
            }
            if hit, !found.contains(t.token.text) { found.append(t.token.text) }
        }
        return found
    }

    func registre(_ a: TextAnalysis, _ draft: Draft) -> [Finding] {
        var found = registerWords(in: a)
        if let title = draft.title {
            for w in registerWords(in: TextAnalysis(title, lexicon: lexicon)) where !found.contains(w) { found.append(w) }
        }
        guard !found.isEmpty else { return [] }
        return [Finding(step: .registre, message:
            "Un texte pour un enfant n'emploie pas \(found.count > 1 ? "ces mots" : "ce mot") : \(found.map { "« \($0) »" }.joined(separator: ", ")) ; parle d'autre chose.")]
    }

    // MARK: 5. competences

    /// How a writer gets trap sites of a skill, in French, for the feedback sentence.
    /// - Parameters:
    ///   - skill: the target skill that lacks sites.
    ///   - grade: the plan's grade; below CE2 the hints for `imparfait_futur_terminaisons` and
    ///     `accord_pp_etre` follow the programme (DOMAIN.md §2: imparfait and passé composé with
    ///     être come in CE2).
    /// - Returns: a French noun phrase that follows "ajoute", e.g. "des verbes au futur (il
    ///   jouera, ils partiront)".
    public static func hint(_ skill: SkillID, grade: Grade = .cm2) -> String {
        if skill == .imparfaitFuturTerminaisons, grade < .ce2 { return "des verbes au futur (il jouera, ils partiront)" }
        if skill == .accordPPEtre, grade < .ce2 { return "des participes passés après être, qui ne sont pas encore au programme de \(grade.rawValue)" }
        return switch skill {
        case .majusculePonctuation: "des phrases complètes avec une majuscule et un point, et des noms propres"
        case .mDevantMBP: "des mots avec « m » devant « b » ou « p » (jambe, tomber, septembre, champion)"
        case .lettresMuettesFinales: "des noms ou adjectifs terminés par une lettre muette (grand, petit, temps, chat)"
        case .homophonesAA: "« a » (verbe avoir) et « à » (préposition)"
        case .homophonesEtEst: "« et » et « est » (verbe être)"
        case .homophonesOnOnt: "« on » et « ont » (verbe avoir)"
        case .homophonesSonSont: "« son » (son sac) et « sont » (verbe être)"
        case .plurielNomsSX: "des noms au pluriel après les, des, mes, ses ou un nombre"
        case .accordSujetVerbe: "des verbes conjugués avec leur sujet (ils jouent, les enfants chantent)"
        case .accordGNAdjectif: "des adjectifs accordés avec un nom (une petite maison) ou après être"
        case .infinitifErParticipeE: "des verbes en -er à l'infinitif (pour jouer) et au participe passé (il a joué)"
        case .imparfaitFuturTerminaisons: "des verbes à l'imparfait ou au futur"
        case .accordPPEtre: "des participes passés après être (elle est partie, ils sont arrivés)"
        case .homophonesCesSesCestSest: "« ces », « ses », « c'est » ou « s'est »"
        case .passeSimple3ePersonne: "des verbes au passé simple à la 3e personne (il joua, ils partirent)"
        }
    }

    func competences(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        guard !plan.targets.isEmpty else { return [] }
        let sites = analyzer.sites(in: a, skills: Set(plan.targets))
        var out: [Finding] = []
        for skill in plan.targets {
            let n = sites.filter { $0.skill == skill }.count
            if n < plan.sitesPerTarget {
                out.append(Finding(step: .competences, message:
                    "Le texte doit travailler « \(skill.label) » au moins \(plan.sitesPerTarget) fois ; \(n == 0 ? "il n'y en a aucune" : n == 1 ? "il n'y en a qu'une" : "il n'y en a que \(n)") : ajoute \(Validator.hint(skill, grade: plan.grade))."))
            }
        }
        return out
    }

    // MARK: 6. prenom

    func prenom(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        let name = plan.child.firstName.precomposedStringWithCanonicalMapping
        let key = Tokenizer.normalize(name)
        let occurrences = a.tagged.indices.filter { a.tagged[$0].normalized == key }
        if occurrences.isEmpty {
            return [Finding(step: .prenom, message: "Le texte doit parler de l'enfant par son prénom : écris « \(name) » au moins une fois.")]
        }
        var out: [Finding] = []
        if !occurrences.contains(where: { a.tagged[$0].token.text.precomposedStringWithCanonicalMapping == name }) {
            out.append(Finding(step: .prenom, message: "Le prénom s'écrit avec une majuscule : « \(name) »."))
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
                    out.append(Finding(step: .prenom, message:
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
                out.append(Finding(step: .prenom, message:
                    "\(name) est \(child) : écris « \(name) \(verb) \(fixed) » et non « \(name) \(verb) \(wrong) »."))
            } else {
                out.append(Finding(step: .prenom, message:
                    "\(name) est \(child) : accorde « \(shown(wrong)) » au \(gender == .feminine ? "féminin" : "masculin") dans « \(name) \(verb) \(shown(wrong)) »."))
            }
        }
        return out
    }

    /// The participle or adjective agreeing with the name at `i`: "Léa est partie", "Léa n'est
    /// pas contente", "Léa s'est levée", "Léa semble fatiguée".
    func agreementTarget(_ a: TextAnalysis, after i: Int) -> (Int, String)? {
        let t = a.tagged
        var k = i + 1
        while k < t.count, t[k].token.kind == .word, FrenchWords.negations.contains(t[k].normalized) || ["s'", "se", "qui"].contains(t[k].normalized) {
            k += 1
        }
        guard k < t.count, t[k].wordClass == .finiteVerb,
              t[k].readings.contains(where: { ["être", "sembler", "devenir", "rester", "paraître"].contains($0.lemma) }) else { return nil }
        k += 1
        while k < t.count, t[k].token.kind == .word,
              FrenchWords.innerAdverbs.contains(t[k].normalized) || t[k].wordClass == .adverb
                || (t[k].normalized == "un" && k + 1 < t.count && t[k + 1].normalized == "peu") {
            k += 1
        }
        guard k < t.count, t[k].token.kind == .word else { return nil }
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

    /// A word as quoted in a message: at most 40 characters.
    func shown(_ word: String) -> String { word.count > 40 ? String(word.prefix(40)) + "…" : word }

    // MARK: 7. moment

    func momentStep(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        let m = plan.moment
        let words = a.tagged.filter { $0.token.kind == .word }.map(\.normalized)
        // Token sequences, not substrings: "au cours" must not match inside "beau cours".
        func has(_ phrase: String) -> Bool {
            let p = phraseWords(phrase)
            guard !p.isEmpty, p.count <= words.count else { return false }
            for start in 0...(words.count - p.count) where words[start] == p[0] {
                if words[start..<(start + p.count)].elementsEqual(p) { return true }
            }
            return false
        }
        var out: [Finding] = []
        // Wrong contractions of the moment's article: "à le cours", "de les vacances".
        let rest = m.phraseWithoutArticle
        for (wrong, right) in m.wrongContractions where has(wrong) {
            out.append(Finding(step: .moment, message: "Écris « \(right) » et non « \(wrong) »."))
        }
        let head = Tokenizer.normalize(m.grammar.headNoun)
        let restWords = phraseWords(rest)
        let exact = has(m.phrase) || has(rest)
        // "la visite du zoo", "le cours de judo": "au zoo", "du judo" name the moment too.
        var tail: String?
        if m.friendName == nil, restWords.count >= 3, ["de", "du", "d'", "des"].contains(restWords[1]) { tail = restWords.last }
        let mentioned = exact || words.contains(head) || tail.map(words.contains) == true
        if !exact, restWords.first == head, restWords.count >= 2 {
            // Another moment with the same head noun: "cours de danse" for "cours de judo". Read
            // on the tokens themselves, so a sentence end stops it ("son anniversaire. D'abord"),
            // and only a noun that is not a day, a month or an hour makes another moment ("le
            // match de samedi", "la séance de quatorze heures" are this one).
            let t = a.tagged
            let times: Set<String> = ["heure", "heures", "matin", "soir", "midi", "minuit", "après-midi", "semaine", "jour", "fin", "année", "début"]
            func isOtherComplement(_ k: Int) -> Bool {
                k < t.count && t[k].wordClass == .noun && !FrenchWords.days.contains(t[k].normalized)
                    && !FrenchWords.months.contains(t[k].normalized) && !times.contains(t[k].normalized)
            }
            for j in t.indices where t[j].normalized == head && j + 1 < t.count {
                var other: String?
                if ["de", "du", "d'", "des"].contains(restWords[1]) {
                    if ["de", "du", "d'", "des"].contains(t[j + 1].normalized), j + 2 < t.count, t[j + 2].normalized != restWords[2],
                       isOtherComplement(j + 2) {
                        other = t[j].token.text + " " + t[j + 1].token.text + (t[j + 1].token.isElided ? "" : " ") + t[j + 2].token.text
                    }
                } else if isOtherComplement(j + 1), t[j + 1].normalized != restWords[1] {
                    other = t[j].token.text + " " + t[j + 1].token.text
                }
                if let other {
                    out.append(Finding(step: .moment, message: "Le texte parle de « \(shown(other)) », mais le moment est « \(m.phrase) »."))
                    break
                }
            }
        }
        // The head noun's gender: "à la cours de judo".
        if m.grammar.number == .singular {
            let t = a.tagged.filter { $0.token.kind == .word }
            let wrongArticles: Set<String> = m.grammar.gender == .feminine ? ["le", "un", "au", "du", "ce"] : ["la", "une", "cette"]
            for j in words.indices.dropFirst() where words[j] == head && wrongArticles.contains(words[j - 1]) {
                if restWords.count <= 1 || (j + 1 < words.count && words[j + 1] == restWords[1]) {
                    out.append(Finding(step: .moment, message:
                        "« \(m.grammar.headNoun) » est \(m.grammar.gender == .feminine ? "féminin" : "masculin") : écris « \(m.phrase) », pas « \(t[j - 1].token.text) \(t[j].token.text) »."))
                    break
                }
            }
        }
        if !mentioned {
            out.append(Finding(step: .moment, message:
                "Le texte doit parler du moment « \(m.phrase) » : écris par exemple « \(m.contracted(with: .a)) » ou au moins « \(m.grammar.headNoun) »."))
        }
        return out
    }

    // MARK: 8. orthographe_grammaire

    func accepted(_ word: String) -> Bool {
        cacheLock.lock()
        if let known = spellingCache[word] { cacheLock.unlock(); return known }
        cacheLock.unlock()
        let ok = spelling.accepts(word)
        cacheLock.lock()
        spellingCache[word] = ok
        cacheLock.unlock()
        return ok
    }

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
            out.append(Finding(step: .orthographeGrammaire, message:
                "\(wrong.count > 1 ? "Ces mots sont mal orthographiés" : "Ce mot est mal orthographié") : \(wrong.map { "« \($0) »" }.joined(separator: ", ")) ; corrige l'orthographe."))
        }
        out += capitalsAndPunctuation(a, plan)
        out += agreementsAndHomophones(a)
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
        return [Finding(step: .orthographeGrammaire, message:
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
            out.append(Finding(step: .orthographeGrammaire, message: "Une phrase commence par une majuscule : corrige \(noCapital.map { "« \($0) »" }.joined(separator: ", "))."))
        }
        if !noEnd.isEmpty {
            out.append(Finding(step: .orthographeGrammaire, message: "Termine chaque phrase par un point, un point d'exclamation ou un point d'interrogation (phrase \(noEnd.map(String.init).joined(separator: ", ")))."))
        }
        if !shouting.isEmpty {
            out.append(Finding(step: .orthographeGrammaire, message: "N'écris pas de mots en capitales : \(shouting.map { "« \($0) »" }.joined(separator: ", "))."))
        }
        if !capitalised.isEmpty {
            out.append(Finding(step: .orthographeGrammaire, message: "Pas de majuscule à un nom commun au milieu d'une phrase : \(capitalised.map { "« \($0) »" }.joined(separator: ", "))."))
        }
        if !lone.isEmpty {
            out.append(Finding(step: .orthographeGrammaire, message: "Une lettre seule n'est pas un mot : \(lone.map { "« \($0) »" }.joined(separator: ", ")) ; vérifie l'apostrophe ou l'orthographe."))
        }
        return out
    }

    /// For a verb at `verb`, the index of "et" when the words before it are two subjects joined
    /// by "et" at the start of a clause: a name or a determiner group, "et", a name, a pronoun or
    /// a determiner group ("Léa et ses amies", "Le maître et la maîtresse").
    func coordinatedSubjectStart(_ a: TextAnalysis, verb: Int) -> Int? {
        let t = a.tagged
        func groupStart(endingAt end: Int) -> Int? {
            guard end >= 0 else { return nil }
            if t[end].wordClass == .properNoun { return end }
            if ["elle", "lui", "moi", "toi", "eux", "elles"].contains(t[end].normalized) { return end }
            guard t[end].wordClass == .noun else { return nil }
            var k = end - 1
            while k >= 0, t[k].wordClass == .adjective { k -= 1 }
            return k >= 0 && t[k].wordClass == .determiner ? k : nil
        }
        var k = verb - 1
        while k >= 0, t[k].wordClass == .negation || t[k].wordClass == .objectPronoun { k -= 1 }
        guard let second = groupStart(endingAt: k), second >= 2, t[second - 1].normalized == "et",
              let first = groupStart(endingAt: second - 2) else { return nil }
        guard first == 0 || t[first - 1].token.kind == .punctuation else { return nil }
        return second - 1
    }

    /// Proper nouns that are also frequent common words: a capital is right on them.
    static let capitalisedNouns: Set<String> = ["noël", "pâques", "toussaint", "france", "paris"]

    /// Deterministic agreements and homophones Grammalecte lets through: elision before a
    /// consonant ("l'maison"), a subject pronoun with a verb of another person ("nous a"),
    /// "il à", "ça" before a noun, a plural determiner group with a singular verb and back.
    func agreementsAndHomophones(_ a: TextAnalysis) -> [Finding] {
        var out: [Finding] = []
        let t = a.tagged
        func add(_ message: String) { if !out.contains(where: { $0.message == message }) { out.append(Finding(step: .orthographeGrammaire, message: message)) } }
        let persons: [String: String] = ["je": "1s", "j'": "1s", "tu": "2s", "il": "3s", "elle": "3s", "on": "3s", "nous": "1p", "vous": "2p", "ils": "3p", "elles": "3p"]
        let plural: Set<String> = ["les", "mes", "tes", "ses", "nos", "vos", "leurs", "ces", "plusieurs", "quelques"]
        let singular: Set<String> = ["le", "la", "l'", "un", "une", "mon", "ton", "son", "ma", "ta", "sa", "ce", "cet", "cette", "notre", "votre", "chaque"]
        for i in t.indices where t[i].token.kind == .word {
            let w = t[i].normalized
            // Elision only before a vowel or a mute h.
            if t[i].token.isElided, i + 1 < t.count, t[i + 1].token.kind == .word,
               let c = t[i + 1].normalized.unicodeScalars.first, !"aeiouyhàâäéèêëîïôöûùüœæ".unicodeScalars.contains(c) {
                add("Pas d'apostrophe devant une consonne : « \(t[i].token.text)\(shown(t[i + 1].token.text)) » s'écrit sans élision.")
            }
            guard i + 1 < t.count else { continue }
            let next = t[i + 1]
            if t[i].wordClass == .subjectPronoun, ["il", "elle", "on"].contains(w), next.normalized == "à" {
                add("« \(t[i].token.text) à » : après un sujet, c'est le verbe avoir, « \(t[i].token.text) a ».")
            }
            if t[i].wordClass == .properNoun, next.normalized == "à", i + 2 < t.count,
               t[i + 2].entries.contains(where: { $0.partOfSpeech == .noun }), !t[i + 2].entries.contains(where: { $0.partOfSpeech.isDeterminer }),
               !(i > 0 && t[i - 1].token.kind == .word) {
                add("« \(t[i].token.text) à \(t[i + 2].token.text) » : ici c'est le verbe avoir, « \(t[i].token.text) a \(t[i + 2].token.text) ».")
            }
            let clauseStart = i == 0 || t[i - 1].token.kind == .punctuation
            if w == "s'", next.normalized == "est", clauseStart {
                add("« \(t[i].token.text)\(next.token.text) » sans sujet devant : c'est « c'est ».")
            }
            let subjectBefore = i > 0 && (t[i - 1].wordClass == .subjectPronoun || t[i - 1].wordClass == .properNoun)
            if w == "peu", subjectBefore, next.wordClass == .infinitive || next.entries.contains(where: { $0.verbForms.contains { $0.mood == .inf } }) {
                add("« \(t[i - 1].token.text) peu \(next.token.text) » : c'est le verbe pouvoir, « peut ».")
            }
            if w == "ni", subjectBefore, next.entries.contains(where: { $0.partOfSpeech.isVerb }), next.wordClass != .determiner,
               next.wordClass != .properNoun, next.wordClass != .noun {
                add("« \(t[i - 1].token.text) ni » : écris « n'y ».")
            }
            if w == "la", next.token.kind == .punctuation || next.normalized == "longtemps", i > 0, t[i - 1].token.kind == .word,
               t[i - 1].wordClass != .subjectPronoun {
                add("« la » seul, sans nom après, désigne un lieu : écris « là ».")
            }
            if (w == "à" || w == "de"), ["le", "les"].contains(next.normalized), next.wordClass == .determiner, i + 2 < t.count,
               t[i + 2].wordClass == .noun || t[i + 2].wordClass == .adjective {
                let right = w == "à" ? (next.normalized == "le" ? "au" : "aux") : (next.normalized == "le" ? "du" : "des")
                add("« \(t[i].token.text) \(next.token.text) \(shown(t[i + 2].token.text)) » : écris « \(right) \(shown(t[i + 2].token.text)) ».")
            }
            if w == "a", i > 0, [.pastParticiple, .infinitive].contains(t[i - 1].wordClass), next.wordClass == .determiner {
                add("« \(t[i - 1].token.text) a \(next.token.text) » : ici c'est la préposition « à ».")
            }
            if w == "ce", next.normalized == "sont" || next.normalized == "est", i + 2 < t.count, t[i + 2].wordClass == .pastParticiple,
               t[i + 2].entries.contains(where: { $0.partOfSpeech.isVerb && !etreVerbs.contains($0.lemma) }) {
                add("« ce \(next.token.text) \(shown(t[i + 2].token.text)) » : c'est le pronom « se » (se \(next.token.text) \(shown(t[i + 2].token.text))).")
            }
            if w == "ça", next.wordClass == .noun, next.entries.filter { $0.partOfSpeech == .noun }.weight > 2 * next.entries.filter { $0.partOfSpeech.isVerb }.weight {
                add("« ça \(shown(next.token.text)) » : devant un nom, c'est le déterminant « sa ».")
            }
            // A subject pronoun and a verb of another person ("nous a nagé").
            // (Not after "et", "ou", "ni" or a comma: "Léa et elle sont", "toi, moi et elle".)
            let coordinated = i > 0 && (["et", "ou", "ni"].contains(t[i - 1].normalized) || t[i - 1].token.text == ",")
            if t[i].wordClass == .subjectPronoun, !coordinated, let person = persons[w] {
                var k = i + 1
                while k < t.count, t[k].wordClass == .negation || t[k].wordClass == .objectPronoun { k += 1 }
                if k < t.count, t[k].wordClass == .finiteVerb {
                    let all = t[k].entries.filter { $0.partOfSpeech.isVerb }.flatMap(\.verbForms).filter(\.isFinite)
                    if !all.isEmpty, !all.contains(where: { $0.person == person }) {
                        add("« \(t[i].token.text) … \(shown(t[k].token.text)) » : le verbe ne s'accorde pas avec son sujet « \(t[i].token.text) ».")
                    }
                }
            }
            // Two subjects joined by "et" need a plural verb: "Léa et ses amies nagent".
            if t[i].wordClass == .finiteVerb, i >= 3, let et = coordinatedSubjectStart(a, verb: i) {
                let forms = t[i].entries.filter { $0.partOfSpeech.isVerb }.flatMap(\.verbForms).filter { $0.isFinite && $0.mood != .imp }
                if !forms.isEmpty, !forms.contains(where: { $0.person?.hasSuffix("p") == true }) {
                    add("« \(t[et - 1].token.text) et … \(shown(t[i].token.text)) » : deux sujets réunis par « et » demandent un verbe au pluriel.")
                }
            }
            // det + noun + verb: a plural group needs a plural verb, a singular group a singular one.
            if t[i].wordClass == .determiner, plural.contains(w) || singular.contains(w), next.wordClass == .noun,
               i == 0 || (t[i - 1].token.kind == .punctuation && t[i - 1].token.text != ",") || a.text.sentences.contains(where: { $0.lowerBound == i }) {
                var k = i + 2
                while k < t.count, t[k].wordClass == .negation || t[k].wordClass == .objectPronoun { k += 1 }
                if k < t.count, t[k].wordClass == .finiteVerb {
                    let forms = t[k].entries.filter { $0.partOfSpeech.isVerb }.flatMap(\.verbForms).filter { $0.isFinite && $0.mood != .imp }
                    let wanted = plural.contains(w) ? "3p" : "3s"
                    if !forms.isEmpty, !forms.contains(where: { $0.person == wanted }) {
                        add("« \(t[i].token.text) \(next.token.text) \(shown(t[k].token.text)) » : le verbe s'accorde avec son sujet au \(wanted == "3p" ? "pluriel" : "singulier").")
                    }
                }
            }
        }
        return out
    }

    /// Grammalecte on every draft of the batch (its worker process), the child's name replaced by
    /// a first name of the same gender that Grammalecte knows, so that agreements with the name
    /// are checked with the child's gender. Grammalecte's own name-agreement rule
    /// (`ppas_nom_propre`) is left out for a draft where `prenom` already reported one.
    func grammarCheck(_ batch: [(Draft, DictationPlan)], nameAgreementReported: [Bool]) -> [[Finding]] {
        switch grammar {
        case .skippedForBenchmark:
            return batch.map { _ in [] }
        case .unavailable(let reason):
            return batch.map { _ in [Finding(step: .orthographeGrammaire, message:
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
                return batch.map { _ in [Finding(step: .orthographeGrammaire, message:
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
                return list.filter { !$0.isSpelling }.map { issue in
                    let word = unproxied(scalarSlice(paragraph, issue.start, issue.end))
                    let suggestion = issue.suggestions.first.map { " (proposition : « \(unproxied($0)) »)" } ?? ""
                    return Finding(step: .orthographeGrammaire, message:
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
