/// What a lexicon of the language knows about a word, for the privacy filter's name check: a word
/// captured in a name slot ("l'anniversaire de Police") that the lexicon knows as a common noun or
/// an adjective is not a first name. Implemented by `French.Lexicon` (Lexique 3.83); the
/// privacy filter cannot import it, so it receives one through this protocol.
public protocol CommonWordLexicon: Sendable {
    /// Whether `word` (one token, any case: "Leucémie", "meunier") is a common noun (`NOM`) or an
    /// adjective (`ADJ`) in the lexicon. A word the lexicon does not know is not.
    func isCommonNounOrAdjective(_ word: String) -> Bool
}
