import Dictation
import DicteeCore
import Foundation
import French
import Store

extension Desk {
    /// The "mots donnés" of a stored dictation, for its sheet: ``Validator/motsDonnes(draft:plan:)``
    /// on its text, for its child and its moment (the friend's name of the stored moment when the
    /// moment is still in the calendar; the phrase's words in any case).
    /// - Parameters:
    ///   - d: the dictation.
    ///   - child: its child (name, grade: the vocabulary band).
    ///   - store: the state, to find the moment's friend name.
    ///   - validator: the validator (only its lexicon and Hunspell are used).
    /// - Returns: the words to write on the board, in text order.
    /// - Warning: the list holds the child's first name; show it to the family, never log it.
    public static func motsDonnes(_ d: DictationRecord, child: Child, _ store: StateStore, validator: Validator) -> [String] {
        let stored = (try? store.moments())?.first { $0.occurrenceKey == d.occurrenceKey }
        let grammar = stored?.grammar ?? PhraseGrammar(gender: .masculine, number: .singular,
                                                       headNoun: d.moment.split(separator: " ").last.map(String.init) ?? "")
        let moment = MomentPhrase(phrase: d.moment, grammar: grammar, friendName: stored?.firstName, kind: stored?.kind)
        return validator.motsDonnes(draft: Draft(title: d.title, text: d.text), plan: DictationPlan(child: child, moment: moment, targets: d.targets))
    }
}
