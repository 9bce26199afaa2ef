import DicteeCore
import Foundation

/// What the last graded dictation of a child gave, for the planner: the plan's length and density
/// and the errors on all its trap sites.
public struct PlanOutcome: Sendable, Hashable, Codable {
    /// The word count the plan aimed at (the middle of its word range).
    public var targetWords: Double
    /// The plan's density, trap sites per sentence.
    public var density: Double
    /// Trap sites of the dictation, all skills.
    public var sites: Int
    /// Sites the child got wrong.
    public var errors: Int

    public init(targetWords: Double, density: Double, sites: Int, errors: Int) {
        self.targetWords = targetWords
        self.density = density
        self.sites = sites
        self.errors = min(max(errors, 0), sites)
    }

    /// Errors over sites (0 when the dictation had no site).
    public var errorRate: Double { sites == 0 ? 0 : Double(errors) / Double(sites) }
}

/// Plans the next dictation of a child without a single setting (Docs/domain.md §7; README "The planner"):
///
/// - **Targets** (at most 3): the `fragile` skills first, the longest fragile first; then the
///   `non_vu` skills taught at or below the child's grade (earliest grade first, then the
///   Docs/domain.md §1 order); then the `en_cours` skills, the longest without exposure first. `maitrise`
///   skills are not targeted.
/// - **Length**: the first text aims at the middle of the grade's word range (Docs/domain.md §2); then
///   an error rate on the last dictation's trap sites under 10% makes the next one 10% longer,
///   over 30% 10% shorter, always inside the grade's range. The plan's word range is the aim ±10%.
/// - **Density** (trap sites per sentence, all targets together) follows the same rule, from 1.0,
///   between 0.5 and 2.5; `sitesPerTarget` = density × the middle of the grade's sentence range /
///   the number of targets, rounded up, at least 1.
public enum Planner {
    /// The rule's thresholds and step (proportions).
    public static let easy = 0.10, hard = 0.30, step = 0.10
    /// The most target skills a plan has (Docs/domain.md §7-8).
    public static let maximumTargets = 3
    /// Density bounds, trap sites per sentence.
    public static let densityRange = 0.5...2.5

    /// The next plan.
    /// - Parameters:
    ///   - child: the child (grade and gender decide the norms and agreements).
    ///   - moment: the moment the text is about.
    ///   - progress: the child's skills; a skill missing from the list is `non_vu`.
    ///   - last: the last graded dictation's outcome, `nil` for a first text.
    /// - Returns: the plan, with `density` and the aimed word count in the middle of `words`.
    public static func plan(child: Child, moment: MomentPhrase, progress: [SkillProgress], last: PlanOutcome?) -> DictationPlan {
        let norms = GradeNorms.of(child.grade)
        let targets = targetSkills(grade: child.grade, progress: progress)
        let (aim, density) = nextAim(norms: norms, last: last)
        let low = max(norms.words.lowerBound, Int((aim * (1 - step)).rounded()))
        let high = min(norms.words.upperBound, Int((aim * (1 + step)).rounded()))
        let middleSentences = Double(norms.sentences.lowerBound + norms.sentences.upperBound) / 2
        let sitesPerTarget = targets.isEmpty ? 0 : max(1, Int((density * middleSentences / Double(targets.count)).rounded(.up)))
        var plan = DictationPlan(child: child, moment: moment, targets: targets, words: min(low, high)...max(low, high),
                                 sentences: norms.sentences, maxWordsPerSentence: norms.maxWordsPerSentence,
                                 sitesPerTarget: sitesPerTarget)
        plan.density = density
        plan.aimWords = aim
        return plan
    }

    /// At most 3 targets: fragile (longest first), non_vu taught at or below the grade, en_cours.
    public static func targetSkills(grade: Grade, progress: [SkillProgress]) -> [SkillID] {
        var byID: [SkillID: SkillProgress] = [:]
        for p in progress { byID[p.skill] = p }
        let all = SkillID.allCases.map { byID[$0] ?? SkillProgress(skill: $0) }
        let distantPast = Date(timeIntervalSince1970: 0)
        let fragile = all.filter { $0.state == .fragile }
            .sorted { ($0.since ?? distantPast, $0.skill) < ($1.since ?? distantPast, $1.skill) }
        let fresh = all.filter { $0.state == .nonVu && $0.skill.isTaught(at: grade) }
            .sorted { ($0.skill.introducedIn, $0.skill) < ($1.skill.introducedIn, $1.skill) }
        let inProgress = all.filter { $0.state == .enCours }
            .sorted { ($0.lastExposure?.gradedAt ?? distantPast, $0.skill) < ($1.lastExposure?.gradedAt ?? distantPast, $1.skill) }
        return Array((fragile + fresh + inProgress).map(\.skill).prefix(maximumTargets))
    }

    /// The aimed word count and density after `last` (the middle of the range and 1.0 at first).
    public static func nextAim(norms: GradeNorms, last: PlanOutcome?) -> (words: Double, density: Double) {
        let lo = Double(norms.words.lowerBound), hi = Double(norms.words.upperBound)
        guard let last else { return ((lo + hi) / 2, 1.0) }
        let factor = last.sites == 0 ? 1 : last.errorRate < easy ? 1 + step : last.errorRate > hard ? 1 - step : 1
        let words = min(max(last.targetWords * factor, lo), hi)
        let density = min(max(last.density * factor, densityRange.lowerBound), densityRange.upperBound)
        return (words, density)
    }
}
