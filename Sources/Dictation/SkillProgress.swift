import DicteeCore
import Foundation

/// Where a child stands on one skill, with what the planner needs: since when, and the last
/// exposure.
public struct SkillProgress: Sendable, Hashable {
    public var skill: SkillID
    public var state: SkillState
    /// When the skill entered `state` (`nil` for `non_vu`, never exposed).
    public var since: Date?
    /// The last graded exposure, if any.
    public var lastExposure: SkillExposure?

    public init(skill: SkillID, state: SkillState = .nonVu, since: Date? = nil, lastExposure: SkillExposure? = nil) {
        self.skill = skill
        self.state = state
        self.since = since
        self.lastExposure = lastExposure
    }

    /// The state after one more graded exposure of this skill (the transitions of Docs/domain.md §7; README
    /// "Skill states"):
    /// - no error on any of its trap sites: `non_vu` → `en_cours`; `en_cours` → `maitrise` when the
    ///   previous graded exposure of the skill also had no error; `fragile` → `en_cours`;
    ///   `maitrise` stays.
    /// - at least one error: `non_vu` → `en_cours`; `maitrise` → `fragile`; `en_cours` and
    ///   `fragile` stay.
    /// - Parameters:
    ///   - state: the state before the exposure.
    ///   - exposure: the new graded exposure.
    ///   - previous: the previous graded exposure of the same skill, if any.
    /// - Returns: the new state.
    public static func transition(from state: SkillState, exposure: SkillExposure, previous: SkillExposure?) -> SkillState {
        if exposure.isClean {
            switch state {
            case .nonVu: return .enCours
            case .enCours: return previous?.isClean == true ? .maitrise : .enCours
            case .fragile: return .enCours
            case .maitrise: return .maitrise
            }
        } else {
            switch state {
            case .nonVu: return .enCours
            case .enCours: return .enCours
            case .fragile: return .fragile
            case .maitrise: return .fragile
            }
        }
    }

    /// This progress after one more graded exposure (state, `since` when it changes, last
    /// exposure).
    public func applying(_ exposure: SkillExposure) -> SkillProgress {
        precondition(exposure.skill == skill, "an exposure of \(exposure.skill.rawValue) applied to \(skill.rawValue)")
        let next = SkillProgress.transition(from: state, exposure: exposure, previous: lastExposure)
        return SkillProgress(skill: skill, state: next, since: next == state ? since : exposure.gradedAt, lastExposure: exposure)
    }

    /// Replays a history of exposures of one skill, oldest first, from `non_vu`.
    public static func replay(_ skill: SkillID, _ history: [SkillExposure]) -> SkillProgress {
        history.filter { $0.skill == skill }.sorted { $0.gradedAt < $1.gradedAt }
            .reduce(SkillProgress(skill: skill)) { $0.applying($1) }
    }
}
