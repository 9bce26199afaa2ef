import Foundation

/// How dictee compares a first name or a moment phrase typed by people: case, accents, width,
/// typographic apostrophes and repeated spaces aside ("Ines" is "Inès", "L’Anniversaire de  Zoé"
/// is "l'anniversaire de zoe"). One home for the cards (a phrase naming the child, never two cards
/// for the same moment), a label naming the child it is for, and finding a child by name.
/// (The privacy filter reads calendar text its own, stricter way: `Normalizer`.)
public enum LooseMatch {
    /// `text` folded: lower case, no accents, no width variants, straight apostrophes, single
    /// spaces.
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
            .replacingOccurrences(of: "\u{2019}", with: "'")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether `phrase` holds `firstName` as a whole word (also after an elision: "d'Inès"),
    /// folded; a hyphenated word is one word ("Jean-Noah" is not Noah).
    public static func names(_ phrase: String, firstName: String) -> Bool {
        let name = fold(firstName)
        return fold(phrase).split(whereSeparator: { !$0.isLetter && $0 != "-" }).contains { $0 == name }
    }
}
