import DicteeCore
import Foundation

/// One failed check: the step, the rule of that step that failed, and one French sentence
/// telling a writer what to fix.
public struct Finding: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    public var step: ValidationStep
    /// The id of the failed rule: the step's id for a step with one rule (`vocabulaire`,
    /// `registre`, `competences`), a named sub-rule (`longueur_mots`, `prenom_accord`,
    /// `elision_consonne`: ``OrthographeRule/id``), `hunspell` for spelling, or
    /// `grammalecte:<Grammalecte's rule id>`. Stable: stored with failed attempts.
    public var rule: String
    /// French, addressed to whoever writes the text (the model, or a parent with `dictee check`).
    public var message: String

    /// - Parameters:
    ///   - step: the step that failed.
    ///   - rule: the failed rule's id; `nil` for the step's own id.
    ///   - message: one French sentence saying what to fix.
    public init(step: ValidationStep, rule: String? = nil, message: String) {
        self.step = step
        self.rule = rule ?? step.rawValue
        self.message = message
    }

    /// `step: message`, e.g. `prenom: Le prénom s'écrit avec une majuscule : « Léa ».`
    ///
    /// - Warning: messages quote words of the text, so this can hold the child's first name:
    ///   show it to the parent or the model, never write it to a log.
    public var description: String { "\(step.rawValue): \(message)" }
}

/// A text to check: the sentences as written (the model answers with an array of sentences), and
/// an optional title.
public struct Draft: Sendable, Hashable {
    /// The title, if any: checked for registers, spelling and characters, not counted in lengths.
    public var title: String?
    /// The whole text, sentences separated by spaces or line breaks.
    ///
    /// - Warning: it holds the child's first name; never write it to a log.
    public var text: String

    /// - Parameters:
    ///   - title: an optional title.
    ///   - text: the whole text as one string.
    public init(title: String? = nil, text: String) {
        self.title = title
        self.text = text
    }

    /// Joins the sentences with one space.
    /// - Parameters:
    ///   - title: an optional title.
    ///   - sentences: the sentences in order, as the model returns them; each is trimmed of
    ///     surrounding whitespace.
    public init(title: String? = nil, sentences: [String]) {
        self.init(title: title, text: sentences.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: " "))
    }
}
