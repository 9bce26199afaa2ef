import DicteeCore
import French

/// What the retry loop and the library fallback need of a validator: the findings of a draft, its
/// trap sites, and the tenses of its verbs. ``Validator`` is the real one; tests script a fake, so
/// the retry loop runs without Lexique, Hunspell or Grammalecte.
public protocol DraftChecker: Sendable {
    /// Runs every check on one draft.
    /// - Parameters:
    ///   - draft: the text to check.
    ///   - plan: what the text must satisfy (child, moment, targets, lengths in words).
    /// - Returns: the findings in step order; empty when the draft passes.
    func check(_ draft: Draft, plan: DictationPlan) -> [Finding]

    /// The trap sites of a draft for its plan's child and moment (what the parent grades).
    /// - Parameters:
    ///   - draft: the text (its title is not analysed).
    ///   - plan: gives the names that are proper nouns.
    /// - Returns: the sites sorted by `start` (Unicode scalar offset into `draft.text`), then skill.
    func sites(of draft: Draft, plan: DictationPlan) -> [TrapSite]

    /// The possible school tenses of each finite verb of a draft, in text order (for the library
    /// fallback: no futur about a past moment, no past tense about an upcoming one).
    /// - Parameters:
    ///   - draft: the text (its title is not analysed).
    ///   - plan: gives the names that are proper nouns.
    /// - Returns: one set per finite verb; a verb fits a tense when the set contains it.
    func verbTenses(of draft: Draft, plan: DictationPlan) -> [Set<SchoolTense>]
}

extension Validator: DraftChecker {
    /// The tenses of each finite verb of `draft` (``tenses(in:)`` on its analysis).
    /// - Parameters:
    ///   - draft: the text (its title is not analysed).
    ///   - plan: gives the names that are proper nouns: the child's and the moment's friend's.
    /// - Returns: one set per finite verb, in text order.
    public func verbTenses(of draft: Draft, plan: DictationPlan) -> [Set<SchoolTense>] {
        tenses(in: TextAnalysis(draft.text, lexicon: lexicon, names: names(of: plan))).map(\.tenses)
    }
}
