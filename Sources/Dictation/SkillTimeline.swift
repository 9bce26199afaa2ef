import DicteeCore
import Foundation

/// A skill's state over time, replayed from the graded history with the rule that moves skills
/// today (``SkillProgress/applying(_:)``, i.e. ``SkillProgress/transition(from:exposure:previous:)``):
/// the state at the end of each period is exactly what `dictee skills` would have said then.
///
/// No score: a timeline holds states and, per graded dictation, the sites missed, never a ratio.
public struct SkillTimeline: Sendable, Hashable {
    /// The skill.
    public var skill: SkillID
    /// `states[k]`: the state after every exposure graded before `boundaries[k]` (the boundaries
    /// given to ``build(_:boundaries:)``), from `non_vu`.
    public var states: [SkillState]
    /// The skill's graded exposures, oldest first (one per graded dictation with sites of the
    /// skill: its sites and errors).
    public var exposures: [SkillExposure]

    /// The fifteen timelines, in the order of `SkillID.allCases`.
    /// - Parameters:
    ///   - history: graded exposures of one child, any order, any skills (as `StateStore.exposures`).
    ///   - boundaries: instants, ascending (e.g. the end of each week); an exposure graded
    ///     exactly at a boundary counts for the next one.
    /// - Returns: per skill, one state per boundary; the state after the last boundary is not
    ///   included (``SkillProgress/replay(_:_:)`` gives the current one).
    public static func build(_ history: [SkillExposure], boundaries: [Date]) -> [SkillTimeline] {
        SkillID.allCases.map { skill in
            // The same order as SkillProgress.replay.
            let mine = history.filter { $0.skill == skill }.sorted { $0.gradedAt < $1.gradedAt }
            var progress = SkillProgress(skill: skill)
            var next = 0
            var states: [SkillState] = []
            for boundary in boundaries {
                while next < mine.count, mine[next].gradedAt < boundary {
                    progress = progress.applying(mine[next])
                    next += 1
                }
                states.append(progress.state)
            }
            return SkillTimeline(skill: skill, states: states, exposures: mine)
        }
    }
}
