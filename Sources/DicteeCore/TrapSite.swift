import Foundation

/// A place in a correct text where a child can make the mistake a skill is about: found by
/// `French.TrapAnalyzer`, stored with its dictation, graded by the parent (one type from the
/// analysis to the database).
public struct TrapSite: Sendable, Hashable, Codable {
    /// The skill whose mistake can happen here (Docs/domain.md §1).
    public var skill: SkillID
    /// Unicode scalar offsets in the text, half-open (`c'est` spans both tokens).
    public var start: Int
    /// End of the site: a Unicode scalar offset, exclusive.
    public var end: Int
    /// The word as written (`.`, `!`, `?` for a final mark).
    public var word: String
    /// For homophones: the correct choice (the word as written, lower case); `nil` otherwise.
    public var choice: String?
    /// For homophones: the wrong choices a child may write instead (`a` → `["à"]`).
    public var alternatives: [String]
    /// Once the dictation is graded: whether the child got this site wrong; `nil` before. A
    /// stored dictation numbers its sites 1, 2, 3... in text order (the parent types these
    /// numbers), i.e. by their place in its `sites`.
    public var missed: Bool?

    /// A site of `skill` over the Unicode scalar offsets `start..<end`; `choice` and
    /// `alternatives` only for homophones (e.g. `choice: "à"`, `alternatives: ["a"]`).
    public init(skill: SkillID, start: Int, end: Int, word: String, choice: String? = nil, alternatives: [String] = [],
                missed: Bool? = nil) {
        self.missed = missed
        self.skill = skill
        self.start = start
        self.end = end
        self.word = word
        self.choice = choice
        self.alternatives = alternatives
    }
}
