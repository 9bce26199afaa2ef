import DicteeCore
import Foundation
import French

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
/// failure with one French sentence and the id of the rule that failed. Nothing here asks a model.
///
/// One file per step (`Validator+Vocabulaire.swift`... `Validator+OrthographeGrammaire.swift`);
/// step 8's agreement and homophone heuristics are the named rules of ``OrthographeRule/all``.
///
/// Sources: Docs/domain.md §2 (tenses, lengths), §3 (Lexique 3.83 frequency bands, mots donnés),
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
    let cacheLock = NSLock()
    var spellingCache: [String: Bool] = [:]
    var phraseCache: [String: [String]] = [:]

    /// A validator; nothing is checked until `check`.
    /// - Parameters:
    ///   - lexicon: Lexique 3.83 rows of each form (wrapped in a ``CachedLookup`` unless it is one).
    ///   - spelling: the Hunspell French dictionary.
    ///   - grammar: how to reach Grammalecte.
    ///   - registers: the contents of `Whitelists/registers.txt` (`category<TAB>word` lines,
    ///     `#` comments).
    /// Stops Grammalecte's worker (at the end of a run; a later check starts a new one).
    public func close() {
        if case .checker(let checker) = grammar { checker.close() }
    }

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
        out += longueur(analysis, plan) + style(analysis, plan)
        out += registre(analysis, draft) + expressions(analysis)
        out += competences(analysis, plan)
        out += prenom(analysis, plan)
        out += momentStep(analysis, plan)
        out += orthographe(analysis, draft, plan)
        return out
    }

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
        var given = Validator.allStandardGivenWords.union(Validator.kindGivenWords(plan.moment))
        for w in phraseWords(plan.moment.phrase) { given.insert(w) }
        for w in plan.givenWords { given.insert(Tokenizer.normalize(w)) }
        for n in names(of: plan) { given.insert(Tokenizer.normalize(n)) }
        return given
    }

    /// Whether Hunspell accepts `word`, memoized.
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

    /// A word as quoted in a message: at most 40 characters.
    func shown(_ word: String) -> String { Validator.shown(word) }

    /// A word as quoted in a message: at most 40 characters (then an ellipsis).
    static func shown(_ word: String) -> String { word.count > 40 ? String(word.prefix(40)) + "…" : word }
}
