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
    /// How long a library text the child had is kept from being served again while another text
    /// fits: 8 weeks (56 days).
    public static let repeatGapDays = 56

    /// The library text to serve for `plan` (the cards before a model exists, and the fallback
    /// after five failed attempts): a text of the child's grade that fits the moment's kinds
    /// (`kinds(of:)`: a label's kind and `general`) and whose `time:` suits the moment's
    /// (`plan.date`: a past moment gets `past` and `any` texts, an upcoming one `coming` and
    /// `any`; a moment of several days going on no text that tells its end, `ends: yes`); among them, first one the child has not had (`used`), else the one had longest
    /// ago, a text told at the moment's own time (`past`, `coming`) before a timeless one; then the one sharing the most targets with the plan; ties by id. The rendering (with
    /// the moment's day) is validated with the text's own skills as targets (3 sites each, as
    /// the library proof requires) and the plan's child, moment and date; a text whose rendering
    /// fails is skipped.
    /// - Parameters:
    ///   - plan: what the next dictation should be (`plan.date` `nil`: texts that name no day,
    ///     any time).
    ///   - checker: the validator (with Grammalecte in production), or a test's fake.
    ///   - used: ids of library texts the child had in the last 8 weeks or has waiting, with when
    ///     (any increasing measure: seconds since 1970; a text waiting in the deal counts as the
    ///     latest).
    /// - Returns: the serving, or `nil` when no text of the grade fits the moment and passes.
    public func serving(for plan: DictationPlan, checker: any DraftChecker, used: [String: Int64] = [:]) -> LibraryServing? {
        var rendered: [String: String] = [:]
        let fitting = texts(for: plan.grade, fitting: plan.moment).filter { text in
            guard let date = plan.date else { return !text.namesDay }
            return text.time.suits(date.time) && !(text.tellsEnd && date.isGoingOn)
        }
        for text in fitting {
            guard let r = try? text.render(firstName: plan.child.firstName, gender: plan.child.gender, moment: plan.moment, date: plan.date) else { continue }
            rendered[text.id] = r
        }
        let candidates = fitting.filter { rendered[$0.id] != nil }.sorted { a, b in
            let usedA = used[a.id], usedB = used[b.id]
            if (usedA == nil) != (usedB == nil) { return usedA == nil }
            // A text told at the moment's own time ("{Quand}, Léa ira…") before a timeless one.
            if plan.date != nil, (a.time == .any) != (b.time == .any) { return b.time == .any }
            if let usedA, let usedB, usedA != usedB { return usedA < usedB }
            let overlapA = a.skills.filter(plan.targets.contains).count, overlapB = b.skills.filter(plan.targets.contains).count
            if overlapA != overlapB { return overlapA > overlapB }
            return a.id < b.id
        }
        for text in candidates {
            var proven = DictationPlan(child: plan.child, moment: plan.moment, targets: text.skills, sitesPerTarget: 3)
            proven.date = plan.date
            let draft = Draft(text: rendered[text.id]!)
            if checker.check(draft, plan: proven).isEmpty {
                return LibraryServing(text: text, draft: draft, plan: proven)
            }
        }
        return nil
    }
}
