import DicteeCore
import French

/// A moment as a dictation talks about it: its canonical French noun phrase with its article
/// ("la sortie piscine", "le cours de judo", "l'anniversaire de Tom", "les vacances") and the
/// grammar needed to combine it with prepositions (Docs/domain.md §6).
///
/// Shared by the handwritten library's renderer (`LibraryText`) and the validator's `moment` step.
public struct MomentPhrase: Sendable, Hashable {
    /// The phrase with its article, possibly with a friend's first name ("l'anniversaire de Tom").
    public var phrase: String
    /// Gender, number and head noun of the phrase.
    public var grammar: PhraseGrammar
    /// The friend's first name inside the phrase, if any (a "mot donné", a proper noun).
    public var friendName: String?
    /// The library kind of a parent's label (`sortie`, `fete`, `general`...: `LabelPhrase`);
    /// `nil` for a canonical phrase of the whitelist, whose kinds come from `moment-kinds.tsv`.
    public var kind: String?

    /// - Parameters:
    ///   - phrase: the canonical phrase with its article, the friend's name already in it
    ///     ("l'anniversaire de Tom").
    ///   - grammar: gender, number and head noun of the phrase.
    ///   - friendName: the friend's first name as it appears in `phrase`, if any.
    ///   - kind: the library kind of a parent's label; `nil` for a whitelist phrase.
    public init(phrase: String, grammar: PhraseGrammar, friendName: String? = nil, kind: String? = nil) {
        self.phrase = phrase
        self.grammar = grammar
        self.friendName = friendName
        self.kind = kind
    }

    /// The prepositions that contract with the article.
    public enum Preposition: String, Sendable { case a = "à", de }

    /// The article as written at the start of `phrase` (`le`, `la`, `l'`, `les`), lower case;
    /// empty when the phrase has none.
    public var article: String { split.article }

    /// The phrase without its article: "sortie piscine", "anniversaire de Tom".
    public var phraseWithoutArticle: String { split.rest }

    /// Article and rest, without Foundation (the validator calls this for every draft).
    var split: (article: String, rest: String) {
        var scalars = Substring(phrase).unicodeScalars.drop { $0 == " " }
        let lower = String(String.UnicodeScalarView(scalars.prefix(4))).lowercased()
        for (a, length) in [("les ", 4), ("le ", 3), ("la ", 3), ("l'", 2), ("l\u{2019}", 2)] where lower.hasPrefix(a) {
            scalars = scalars.dropFirst(length).drop { $0 == " " }
            return (a == "l\u{2019}" ? "l'" : String(a.prefix(while: { $0 != " " })), String(String.UnicodeScalarView(scalars)))
        }
        return ("", phrase)
    }

    /// The phrase after `à` or `de`: à + le = au, à + les = aux, de + le = du, de + les = des;
    /// `la` and `l'` stay ("à la sortie", "de l'anniversaire").
    /// - Parameters:
    ///   - p: `à` or `de`.
    /// - Returns: the preposition and the phrase, e.g. "au cours de judo", "des vacances",
    ///   "à la sortie piscine", "de l'anniversaire de Tom".
    public func contracted(with p: Preposition) -> String {
        let rest = phraseWithoutArticle
        switch (p, article) {
        case (.a, "le"): return "au " + rest
        case (.a, "les"): return "aux " + rest
        case (.de, "le"): return "du " + rest
        case (.de, "les"): return "des " + rest
        case (.de, "l'"): return "de l'" + rest
        case (.de, _): return "de " + phrase
        case (.a, _): return "à " + phrase
        }
    }

    /// The phrase with a demonstrative: "cette sortie piscine", "ce cours", "cet anniversaire",
    /// "ces vacances".
    public var demonstrative: String {
        let rest = phraseWithoutArticle
        if grammar.number == .plural { return "ces " + rest }
        if grammar.gender == .feminine { return "cette " + rest }
        return (article == "l'" ? "cet " : "ce ") + rest
    }

    /// Uncontracted forms a writer must not use, with the right one: ("à le cours de judo",
    /// "au cours de judo").
    public var wrongContractions: [(wrong: String, right: String)] {
        let rest = phraseWithoutArticle
        switch article {
        case "le": return [("à le " + rest, contracted(with: .a)), ("de le " + rest, contracted(with: .de))]
        case "les": return [("à les " + rest, contracted(with: .a)), ("de les " + rest, contracted(with: .de))]
        default: return []
        }
    }

    /// `phrase` with an upper-case first letter (sentence start).
    public var capitalized: String { phrase.prefix(1).uppercased() + phrase.dropFirst() }
}
