import Foundation

/// Gender and number of a canonical phrase's head noun, for contractions and agreements
/// (à + le = au, de + les = des; Docs/domain.md §6).
public struct PhraseGrammar: Hashable, Sendable, Codable {
    public enum Number: String, Hashable, Sendable, Codable { case singular = "s", plural = "p" }
    /// Gender of the head noun.
    public var gender: Gender
    public var number: Number
    /// The head noun, e.g. `sortie` in "la sortie piscine".
    public var headNoun: String

    public init(gender: Gender, number: Number, headNoun: String) {
        self.gender = gender
        self.number = number
        self.headNoun = headNoun
    }
}

/// A calendar occurrence that passed the privacy filter: a canonical French noun phrase from the
/// closed whitelist (or a parent's own label), at most one captured first name, and the dates.
///
/// This is the only form in which a calendar event may reach the database, the audit file or a
/// model. Only `PrivacyFilter` creates one: its initializer is behind `@_spi(PrivacyFilter)`, and a
/// test checks that no other module imports that SPI (Docs/architecture.md, privacy boundary).
public struct Moment: Hashable, Sendable {
    /// The full phrase with its article and the name, elided where French elides:
    /// "l'anniversaire d'Anaïs", "la sortie piscine", "les vacances chez mamie".
    public let phrase: String
    /// The canonical phrase without the name: "l'anniversaire".
    public let basePhrase: String
    /// Head noun, gender and number of the phrase.
    public let grammar: PhraseGrammar
    /// The captured first name or family word (`mamie`), if the rule has a name slot.
    public let firstName: String?
    /// The rule that produced it: a whitelist id (`M017`) or `label` for a parent's label.
    public let rule: String
    /// The event (short UID hash), never its text.
    public let eventReference: EventReference
    /// Start and end of the occurrence (dates for all-day ones).
    public let start: EventTime
    public let end: EventTime
    /// Whether it is an occurrence of a recurring series.
    public let isRecurring: Bool
    /// The children the moment belongs to (their ids in the state), sorted: those the title names
    /// ("Judo Noah"), or those the parent's label was given for. Empty: the whole family's.
    public let children: [Int64]
    /// The library kind of a parent's label (`sortie`, `fete`, `general`...); `nil` for a whitelist
    /// form, whose kinds come from its canonical phrase.
    public let kind: String?

    @_spi(PrivacyFilter)
    public init(
        phrase: String, basePhrase: String, grammar: PhraseGrammar, firstName: String?, rule: String,
        eventReference: EventReference, start: EventTime, end: EventTime, isRecurring: Bool,
        children: [Int64] = [], kind: String? = nil
    ) {
        self.children = children.sorted()
        self.kind = kind
        self.phrase = phrase
        self.basePhrase = basePhrase
        self.grammar = grammar
        self.firstName = firstName
        self.rule = rule
        self.eventReference = eventReference
        self.start = start
        self.end = end
        self.isRecurring = isRecurring
    }
}
