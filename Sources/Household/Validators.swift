import Dictation
import DicteeCore
import Foundation
import French
import PrivacyFilter

/// Builds the validator every text goes through, the one way: the installed Lexique 3.83 table
/// (`Lexicon.locate`), Hunspell's French dictionary (hunspell-fr-classical) and Grammalecte (one
/// worker per run), and the forbidden registers of `Whitelists/registers.txt`.
public enum Validators {
    /// The validator, or why it cannot be built.
    /// - Parameters:
    ///   - environment: where `Lexicon.locate` looks (`DICTEE_LEXICON`, `XDG_DATA_HOME`, `HOME`).
    ///   - executable: the running binary, whose checkout's `Data/` is searched.
    ///   - warn: told when Grammalecte is missing (the validator is still built, and fails
    ///     every text closed).
    /// - Throws: `HouseholdError.lexiconMissing` or `.validatorUnavailable`.
    public static func make(environment: [String: String], executable: URL? = Bundle.main.executableURL,
                            warn: (String) -> Void = { _ in }) throws(HouseholdError) -> Validator {
        // Grammalecte's worker loads (0.5 s of CPU) while the lexicon and Hunspell do.
        let grammar = GrammarChecker.isAvailable() ? GrammarChecker() : nil
        grammar?.prepare()
        var built = false
        defer { if !built { grammar?.close() } }  // no worker outlives a validator that failed
        guard let url = Lexicon.locate(environment: environment, executable: executable) else { throw .lexiconMissing }
        let lexicon: Lexicon
        do { lexicon = try Lexicon(contentsOf: url) } catch { throw .validatorUnavailable("\(error)") }
        let spelling: SpellChecker
        do { spelling = try SpellChecker.french() } catch { throw .validatorUnavailable("\(error)") }
        let gate: GrammarGate
        if let grammar {
            gate = .checker(grammar)
        } else {
            warn("Grammalecte is not installed (apt-get install python3-grammalecte): no text can pass the grammar check")
            gate = .unavailable("Grammalecte n'est pas installé")
        }
        built = true
        return Validator(lexicon: lexicon, spelling: spelling, grammar: gate, registers: Whitelist.bundledRegisters)
    }

    /// A validator for reading words only (the mots donnés of a sheet): Lexique and Hunspell,
    /// Grammalecte never started (its step fails every text, so it never validates one).
    /// - Parameters:
    ///   - environment: where `Lexicon.locate` looks (`DICTEE_LEXICON`, `XDG_DATA_HOME`, `HOME`).
    ///   - executable: the running binary, whose checkout's `Data/` is searched.
    /// - Throws: `HouseholdError.lexiconMissing` or `.validatorUnavailable`.
    public static func forWords(environment: [String: String], executable: URL? = Bundle.main.executableURL) throws(HouseholdError) -> Validator {
        guard let url = Lexicon.locate(environment: environment, executable: executable) else { throw .lexiconMissing }
        let lexicon: Lexicon
        do { lexicon = try Lexicon(contentsOf: url) } catch { throw .validatorUnavailable("\(error)") }
        let spelling: SpellChecker
        do { spelling = try SpellChecker.french() } catch { throw .validatorUnavailable("\(error)") }
        return Validator(lexicon: lexicon, spelling: spelling, grammar: .unavailable("pas de vérification de grammaire pour lire les mots"),
                         registers: Whitelist.bundledRegisters)
    }
}
