import DicteeCore
import Foundation

/// What `dictee history` and the progress page read: the dictations a child was served.
extension StateStore {
    /// The child's dictations served (picked, graded or not), newest first: by the day they were
    /// served, latest first, then by id, highest first. Ready and retired texts are left out.
    /// - Parameters:
    ///   - childID: the child.
    ///   - since: only those served at or after this instant (`nil`: all).
    /// - Returns: the records with their trap sites (`missed` set on graded ones); their ids are
    ///   the ones `dictee show` takes.
    /// - Throws: `StateError.store`.
    public func history(childID: Int64, since: Date? = nil) throws(StateError) -> [DictationRecord] {
        let from = since.map { Self.seconds($0) } ?? Int64.min
        return try dictations(where: "d.child_id = ? AND d.status IN ('served', 'graded') AND d.served_at >= ?",
                              [.integer(childID), .integer(from)])
            .sorted { ($0.servedAt ?? .distantPast, $0.id) > ($1.servedAt ?? .distantPast, $1.id) }
    }
}

/// A skill's missed sites in one graded dictation.
public struct MissedSites: Sendable, Hashable {
    /// The skill.
    public var skill: SkillID
    /// Sites of this skill the child got wrong (at least 1).
    public var count: Int
}

extension DictationRecord {
    /// The skills this dictation trains: those of its trap sites (each graded one is an exposure),
    /// in the order of Docs/domain.md §1.
    public var trainedSkills: [SkillID] {
        let present = Set(sites.map(\.skill))
        return SkillID.allCases.filter { present.contains($0) }
    }

    /// The sites missed, by skill (skills without a mistake left out), in skill order; `nil` when
    /// the dictation is not graded yet.
    public var missedBySkill: [MissedSites]? {
        guard status == .graded else { return nil }
        return trainedSkills.compactMap { skill in
            let n = sites.filter { $0.skill == skill && $0.missed == true }.count
            return n == 0 ? nil : MissedSites(skill: skill, count: n)
        }
    }
}
