import Dictation
import DicteeCore
import Foundation
import French
import PrivacyFilter

/// A parent's label that may become a moment: the phrase as it will be written, its grammar and
/// its library kind.
public struct CheckedLabel: Sendable, Hashable {
    /// The label normalised, its article in lower case: "le dîner chez Mamie".
    public var phrase: String
    /// Gender, number and head noun, from Lexique (`LabelPhrase`).
    public var grammar: PhraseGrammar
    /// The library kind: the one given (`--kind`), else the head noun's (`label-kinds.tsv`),
    /// else `general`.
    public var kind: String
    /// The first name or family word in the phrase, if any ("Mamie" in "le dîner chez Mamie").
    public var firstName: String?

    /// The moment as the library and the validator take it.
    public var moment: MomentPhrase {
        MomentPhrase(phrase: phrase, grammar: grammar, friendName: firstName, kind: kind)
    }
}

/// The one check of a parent's label, used by `suggestions label`, `review` and `check --moment`.
public enum Labels {
    /// Checks a label: normalised as the store keeps it (`PrivacyFilter.normalisedLabel`: NFC,
    /// invisible characters removed), refused when the privacy filter disqualifies it (the rule
    /// id), then read as a French noun phrase with its article (`LabelPhrase.analyse`: characters,
    /// forbidden registers of `Whitelists/registers.txt`, capitals, Lexique, the article and its
    /// noun), and given a kind.
    /// - Parameters:
    ///   - text: the parent's words.
    ///   - kind: the kind the parent chose (`--kind`), checked against `LabelPhrase.kinds`; `nil`
    ///     infers it from the head noun.
    ///   - names: capitalised words that are names (the family's children's first names, given
    ///     names), compared as written.
    ///   - lexicon: Lexique 3.83 (`Labels.lexicon(environment:)`).
    /// - Returns: the checked label, or the first rule it breaks.
    /// - Warning: a refusal may quote one word of the label: show it to the parent only.
    public static func check(_ text: String, kind: String?, names: Set<String>, lexicon: Lexicon) -> Result<CheckedLabel, LabelRefusal> {
        check(text, kind: kind, names: names, words: lexicon)
    }

    /// `check` with any word table (tests).
    static func check(_ text: String, kind: String?, names: Set<String>, words: some WordLookup) -> Result<CheckedLabel, LabelRefusal> {
        let normalised = PrivacyFilter.normalisedLabel(text)
        guard !normalised.isEmpty else { return .failure(.empty) }
        // Disqualifiers first, and they win (Docs/style.md, Privacy filter).
        // Only the 62 disqualifiers refuse a label: the parents' rules keep the adults' events
        // out when nobody chose, and a label is the parent's choice ("le marché de Noël").
        if let rule = PrivacyFilter().labelDisqualifier(text) { return .failure(.disqualified(rule: rule)) }
        var chosen: String?
        if let kind {
            switch LabelPhrase.checkedKind(kind) {
            case .success(let k): chosen = k
            case .failure(let refusal): return .failure(refusal)
            }
        }
        switch LabelPhrase.analyse(normalised, lexicon: words, names: names, registers: registers) {
        case .failure(let refusal):
            return .failure(refusal)
        case .success(let p):
            // A time the normaliser dropped ("10h") is refused, not silently removed.
            if text.contains(where: \.isNumber) { return .failure(.digits) }
            return .success(CheckedLabel(phrase: p.phrase, grammar: p.grammar, kind: chosen ?? p.inferredKind, firstName: p.names.first))
        }
    }

    /// The capitalised words a family's label may hold as names: the children's first names and
    /// the given names the privacy filter knows (`Whitelists/given-names.txt`).
    public static func names(children: [String]) -> Set<String> {
        Set(children).union(Whitelist.bundled.givenNames.values)
    }

    /// The child among `owners` whose first name is a word of the label, as the cards read it
    /// (`LooseMatch.names`), if any: such a moment would be offered to nobody (a child never gets
    /// a moment naming it, and the label is for it only).
    public static func ownerNamed(in label: String, owners: [String]) -> String? {
        owners.first { LooseMatch.names(label, firstName: $0) }
    }

    /// The forbidden registers of the bundled `Whitelists/registers.txt`.
    static let registers = RegisterList(Whitelist.bundledRegisters)

    /// Lexique 3.83, found as the validator finds it (`Lexicon.locate`: `$DICTEE_LEXICON`, the
    /// checkout's `Data/`, `$XDG_DATA_HOME/dictee/`).
    /// - Throws: `HouseholdError.lexiconMissing` (exit 69 on the command line), or
    ///   `.validatorUnavailable` when the file cannot be loaded.
    public static func lexicon(environment: [String: String], executable: URL? = Bundle.main.executableURL) throws(HouseholdError) -> Lexicon {
        guard let url = Lexicon.locate(environment: environment, executable: executable) else { throw .lexiconMissing }
        do { return try Lexicon(contentsOf: url) } catch {
            if case .missing = error { throw .lexiconMissing }
            throw .validatorUnavailable("\(error)")
        }
    }
}
