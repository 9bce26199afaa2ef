import DicteeCore
import Foundation
import French

// Step 8, orthographe_grammaire: Grammalecte's false alarms on correct dictation French, left out
// by rule id, each with its reason and the words it applies to (so a real error of the same rule
// family is still reported). Tests: OrthographeRuleTests, "Grammalecte false alarms".

/// One Grammalecte rule left out in a precise case.
public struct GrammalecteFalseAlarm: Sendable {
    /// A part of Grammalecte's rule id (`sRuleId`), e.g. `_se_être_verbe`: the rule family.
    public let rule: String
    /// The flagged words (lower case) it applies to; empty for any.
    public let words: Set<String>
    /// The words that must follow the flagged word (lower case); empty for any. `"<inf>"` stands
    /// for any infinitive (Lexique 3.83).
    public let followedBy: Set<String>
    /// Why this is correct French, for the auditor.
    public let reason: String
}

extension Validator {
    /// The Grammalecte false alarms dictee leaves out (Grammalecte 2.1.2, Debian 12).
    public static let grammalecteFalseAlarms: [GrammalecteFalseAlarm] = [
        GrammalecteFalseAlarm(rule: "_se_être_verbe", words: ["fait"], followedBy: ["mal", "<inf>"],
            reason: "« elle s'est fait mal », « elle s'est fait couper les cheveux » : le participe de se faire suivi d'un infinitif ou de « mal » (complément) reste invariable ; Grammalecte demande « faite »."),
        GrammalecteFalseAlarm(rule: "_se_être_verbe", words: ["rendu"], followedBy: ["compte"],
            reason: "« elle s'est rendu compte » : « compte » est le complément, le participe reste invariable ; Grammalecte demande « rendue »."),
        GrammalecteFalseAlarm(rule: "ppas_avoir_été", words: [], followedBy: ["<adj>"],
            reason: "« Tom a été très fier » : « avoir été » suivi d'un adjectif (attribut) est le passé composé d'être ; Grammalecte lit « fier » comme l'infinitif (se fier) et demande « être allé ». Signalé encore devant un infinitif seul (« il a été voir »)."),
        GrammalecteFalseAlarm(rule: "", words: ["airs"], followedBy: [],
            reason: "« des airs » (des mélodies, avoir des airs de fête) est juste ; l'enseignante a relevé une proposition « èrs » (non reproduite ici avec Grammalecte 2.1.2, gardée par prudence : « airs » est un nom courant que Hunspell accepte)."),
    ]

    /// Whether a Grammalecte issue is one of `grammalecteFalseAlarms`.
    /// - Parameters:
    ///   - issue: the issue, with offsets into `paragraph`.
    ///   - paragraph: the text Grammalecte read (the child's name already replaced).
    ///   - momentWords: the words of the moment's canonical phrase, lower case: an agreement
    ///     rule (`gn_…`) flagging one of them is a false alarm ("sa première sortie accrobranche":
    ///     the phrase is the whitelist's, a noun used as a complement, not an adjective to agree).
    func isGrammalecteFalseAlarm(_ issue: GrammarIssue, in paragraph: String, momentWords: Set<String> = []) -> Bool {
        let word = scalarSlice(paragraph, issue.start, issue.end).lowercased()
        if issue.ruleID.contains("gn_"), momentWords.contains(Tokenizer.normalize(word)) { return true }
        if issue.ruleID.contains("gn_"), agreesWithTheNounBeforeAComplement(Tokenizer.normalize(word), before: scalarSlice(paragraph, 0, issue.start)) { return true }
        let after = scalarSlice(paragraph, issue.end, paragraph.unicodeScalars.count)
        let afterWords = Tokenizer.tokenize(after).tokens.filter { $0.kind == .word }.map(\.normalized)
        let next = afterWords.first
        // The next word past adverbs ("a été très fier"), for `<adj>`.
        let nextPastAdverbs = afterWords.first { !FrenchWords.innerAdverbs.contains($0) }
        return Validator.grammalecteFalseAlarms.contains { alarm in
            guard alarm.rule.isEmpty || issue.ruleID.contains(alarm.rule) else { return false }
            guard alarm.words.isEmpty || alarm.words.contains(word) else { return false }
            if alarm.followedBy.isEmpty { return true }
            guard let next else { return false }
            if alarm.followedBy.contains(next) { return true }
            if alarm.followedBy.contains("<adj>"), let n = nextPastAdverbs, lexicon.entries(for: n).contains(where: { $0.partOfSpeech == .adjective }) { return true }
            return alarm.followedBy.contains("<inf>")
                && lexicon.entries(for: next).contains { $0.partOfSpeech.isVerb && $0.verbForms.contains { $0.mood == .inf } }
        }
    }

    /// An adjective that agrees with the noun before a complement, as French allows: "une crème
    /// au chocolat très douce" (douce is the crème's; Grammalecte's `gn_` rules agree it with
    /// « chocolat »). Only in that shape: noun, then au/aux/du/de/d'/en/de la/à la and a noun,
    /// then adverbs, then the flagged word, which agrees in gender and number with the first noun
    /// and not with the second.
    /// - Parameters:
    ///   - word: the flagged word, normalized.
    ///   - before: the paragraph up to the flagged word.
    func agreesWithTheNounBeforeAComplement(_ word: String, before: String) -> Bool {
        let words = Tokenizer.tokenize(before).tokens.filter { $0.kind == .word }.map(\.normalized)
        var k = words.count - 1
        while k >= 0, FrenchWords.innerAdverbs.contains(words[k]) { k -= 1 }
        guard k >= 2 else { return false }
        func nouns(_ w: String) -> [LexicalEntry] { lexicon.entries(for: w).filter { $0.partOfSpeech == .noun } }
        let complement = nouns(words[k])
        guard !complement.isEmpty else { return false }
        k -= 1
        if ["au", "aux", "du", "de", "d'", "en"].contains(words[k]) {
            k -= 1
        } else if ["la", "l'"].contains(words[k]), k >= 1, ["de", "à"].contains(words[k - 1]) {
            k -= 2
        } else {
            return false
        }
        guard k >= 0 else { return false }
        let head = nouns(words[k])
        let adjective = lexicon.entries(for: word).filter { $0.partOfSpeech == .adjective || $0.partOfSpeech.isVerb && $0.verbForms.contains { $0.mood == .par } }
        func agree(_ a: LexicalEntry, _ n: LexicalEntry) -> Bool {
            (a.gender == nil || n.gender == nil || a.gender == n.gender) && (a.number == nil || n.number == nil || a.number == n.number)
        }
        return adjective.contains { a in head.contains { agree(a, $0) } } && !adjective.contains { a in complement.contains { agree(a, $0) } }
    }
}
