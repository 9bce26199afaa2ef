import DicteeCore
import French

/// A library text served for a plan: the text, its rendering for the plan's child and moment, and
/// the plan it was proven against (the text's own skills as targets).
public struct LibraryServing: Sendable {
    public var text: LibraryText
    public var draft: Draft
    /// The plan with the text's own skills as targets: what the served text satisfies.
    public var plan: DictationPlan
}

/// When a moment happens relative to the dictation: a text about yesterday's outing should not be
/// in the futur, nor one about next week's in the passé composé.
public enum MomentTime: Sendable, Hashable {
    case past, upcoming

    /// Tenses that tell the story at the wrong time (the présent fits both).
    var wrongTenses: Set<SchoolTense> {
        switch self {
        case .past: [.futur]
        case .upcoming: [.passeComposeAvoir, .passeComposeEtre, .imparfait, .passeSimple, .plusQueParfait]
        }
    }
}

extension Library {
    /// The library text to serve for `plan` (the cards before a model exists, and the fallback
    /// after five failed attempts): a text of the child's grade that fits the moment's kinds (`kinds(of:)`: a label's
    /// kind and `general`): first one whose verbs suit `time` (no futur about a past moment, no
    /// past tense about an upcoming one), then one not in `recentlyUsed`, then the one sharing the
    /// most targets with the plan,
    /// ties by id. The rendering is validated with the text's own skills as targets (3 sites
    /// each, as the library proof requires) and the plan's child and moment; a text whose
    /// rendering fails is skipped.
    /// - Parameters:
    ///   - plan: what the next dictation should be.
    ///   - checker: the validator (with Grammalecte in production), or a test's fake.
    ///   - recentlyUsed: ids of library texts the child saw lately, chosen last among those whose
    ///     verbs suit `time`.
    ///   - time: whether the moment is past or upcoming (`nil`: no preference).
    /// - Returns: the serving, or `nil` when no text of the grade fits the moment and passes.
    public func serving(for plan: DictationPlan, checker: any DraftChecker, recentlyUsed: Set<String> = [],
                        time: MomentTime? = nil) -> LibraryServing? {
        var rendered: [String: String] = [:]
        var wrongTime: [String: Bool] = [:]
        for text in texts(for: plan.grade, fitting: plan.moment) {
            guard let r = try? text.render(firstName: plan.child.firstName, gender: plan.child.gender, moment: plan.moment) else { continue }
            rendered[text.id] = r
            if let time {
                wrongTime[text.id] = checker.verbTenses(of: Draft(text: r), plan: plan).contains { $0.isSubset(of: time.wrongTenses) && !$0.isEmpty }
            }
        }
        let candidates = texts(for: plan.grade, fitting: plan.moment).filter { rendered[$0.id] != nil }.sorted { a, b in
            // A story told at the wrong time (the past for tomorrow) is worse than a text the
            // child saw lately: the tense decides first.
            let wrongA = wrongTime[a.id] ?? false, wrongB = wrongTime[b.id] ?? false
            if wrongA != wrongB { return !wrongA }
            let usedA = recentlyUsed.contains(a.id), usedB = recentlyUsed.contains(b.id)
            if usedA != usedB { return !usedA }
            let overlapA = a.skills.filter(plan.targets.contains).count, overlapB = b.skills.filter(plan.targets.contains).count
            if overlapA != overlapB { return overlapA > overlapB }
            return a.id < b.id
        }
        for text in candidates {
            let proven = DictationPlan(child: plan.child, moment: plan.moment, targets: text.skills, sitesPerTarget: 3)
            let draft = Draft(text: rendered[text.id]!)
            if checker.check(draft, plan: proven).isEmpty {
                return LibraryServing(text: text, draft: draft, plan: proven)
            }
        }
        return nil
    }
}
