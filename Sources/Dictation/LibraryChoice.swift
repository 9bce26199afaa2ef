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

extension Library {
    /// The library text to serve for `plan` (the cards before a model exists, and the fallback
    /// after five failed attempts): a text of the child's grade that fits the moment's kinds,
    /// the one sharing the most targets with the plan, avoiding `recentlyUsed`, ties by id. The
    /// rendering is validated with the text's own skills as targets (3 sites each, as the
    /// library proof requires) and the plan's child and moment; a text whose rendering fails is
    /// skipped.
    /// - Parameters:
    ///   - plan: what the next dictation should be.
    ///   - validator: the validator (with Grammalecte in production).
    ///   - recentlyUsed: ids of library texts the child saw lately, chosen last.
    /// - Returns: the serving, or `nil` when no text of the grade fits the moment and passes.
    public func serving(for plan: DictationPlan, validator: Validator, recentlyUsed: Set<String> = []) -> LibraryServing? {
        let candidates = texts(for: plan.grade, fitting: plan.moment.phrase).sorted { a, b in
            let usedA = recentlyUsed.contains(a.id), usedB = recentlyUsed.contains(b.id)
            if usedA != usedB { return !usedA }
            let overlapA = a.skills.filter(plan.targets.contains).count, overlapB = b.skills.filter(plan.targets.contains).count
            if overlapA != overlapB { return overlapA > overlapB }
            return a.id < b.id
        }
        for text in candidates {
            guard let rendered = try? text.render(firstName: plan.child.firstName, gender: plan.child.gender, moment: plan.moment) else { continue }
            let proven = DictationPlan(child: plan.child, moment: plan.moment, targets: text.skills, sitesPerTarget: 3)
            let draft = Draft(text: rendered)
            if validator.check(draft, plan: proven).isEmpty {
                return LibraryServing(text: text, draft: draft, plan: proven)
            }
        }
        return nil
    }
}
