/// What a lexicon of the language knows about a word, for the privacy filter: a word captured in a
/// name slot ("l'anniversaire de Police") that the lexicon knows as a common noun or an adjective
/// is not a first name, and a word it does not know that is one letter away from a sensitive word
/// ("dentise") is that word misspelt. Implemented by `French.Lexicon` (Lexique 3.83); the
/// privacy filter cannot import it, so it receives one through this protocol.
public protocol CommonWordLexicon: Sendable {
    /// Whether `word` (one token, any case: "Leucémie", "meunier") is a common noun (`NOM`) or an
    /// adjective (`ADJ`) in the lexicon. A word the lexicon does not know is not.
    func isCommonNounOrAdjective(_ word: String) -> Bool
    /// Whether the lexicon has `word` (one token, any case, with or without its accents) as a form
    /// of any part of speech: "grimpe" is a word, "dentise" is not (a misspelt "dentiste").
    func isKnownWord(_ word: String) -> Bool
}
