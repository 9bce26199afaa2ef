import Foundation

/// One graded exposure of a skill: a dictation the parent graded, with the child's errors on that
/// skill's trap sites. The history of exposures is what the state machine reads; there is no score.
public struct SkillExposure: Sendable, Hashable, Codable {
    /// The graded dictation, when read from the state (`nil` for an exposure made up in a test
    /// or a simulation).
    public var dictationID: Int64?
    public var skill: SkillID
    /// When the parent graded the dictation.
    public var gradedAt: Date
    /// Trap sites of this skill in the dictation.
    public var sites: Int
    /// Sites of this skill the child got wrong (0...sites).
    public var errors: Int

    public init(dictationID: Int64? = nil, skill: SkillID, gradedAt: Date, sites: Int, errors: Int) {
        self.dictationID = dictationID
        self.skill = skill
        self.gradedAt = gradedAt
        self.sites = sites
        self.errors = min(max(errors, 0), sites)
    }

    /// No error on any of the skill's trap sites.
    public var isClean: Bool { errors == 0 }
}
