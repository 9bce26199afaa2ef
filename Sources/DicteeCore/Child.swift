import Foundation

/// French primary school grades, CP (age 6) to CM2 (age 10-11). Docs/domain.md.
public enum Grade: String, CaseIterable, Codable, Hashable, Sendable, Comparable {
    case cp = "CP", ce1 = "CE1", ce2 = "CE2", cm1 = "CM1", cm2 = "CM2"

    /// Parses `CP`...`CM2`, any case.
    public init?(parsing text: String) {
        self.init(rawValue: text.uppercased())
    }

    public static func < (a: Grade, b: Grade) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Grammatical gender used for agreements with the child's name ("Léa est partie").
public enum Gender: String, CaseIterable, Codable, Hashable, Sendable {
    case feminine = "f", masculine = "m"
}

/// A child of the family, for whom dictations are written.
///
/// - Warning: the first name is personal data; it may appear in the audit file and in prompts (it is
///   what the dictation is about), never in logs or error messages.
public struct Child: Hashable, Sendable {
    /// Row id in the state database, `nil` before it is stored.
    public var id: Int64?
    /// The first name as the parent typed it, e.g. `Léa`.
    public var firstName: String
    public var gender: Gender
    public var grade: Grade

    public init(id: Int64? = nil, firstName: String, gender: Gender, grade: Grade) {
        self.id = id
        self.firstName = firstName
        self.gender = gender
        self.grade = grade
    }
}
