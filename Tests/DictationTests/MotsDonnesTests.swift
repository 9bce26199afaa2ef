import DicteeCore
import Foundation
import Testing
@testable import Dictation
@testable import French

/// `Validator.motsDonnes(draft:plan:)`: the words written on the board before the dictation, the
/// same rule as the `vocabulaire` step's "mots donnés".
@Suite struct MotsDonnesTests {
    static let lea = Child(firstName: "Léa", gender: .feminine, grade: .ce2)
    static let leaCP = Child(firstName: "Léa", gender: .feminine, grade: .cp)
    static let piscine = MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
    static let tom = MomentPhrase(phrase: "l'anniversaire de Tom", grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "anniversaire"),
                                  friendName: "Tom")

    func words(_ text: String, _ child: Child = lea, _ moment: MomentPhrase = piscine, given: [String] = []) throws -> [String] {
        try TestValidator.shared().motsDonnes(draft: Draft(text: text),
                                              plan: DictationPlan(child: child, moment: moment, targets: [], givenWords: given))
    }

    @Test func namesAndTheMomentsWordsInTextOrderEachOnce() throws {
        let text = "Samedi, Léa est allée à la sortie piscine. La piscine était grande. Léa a nagé."
        #expect(try words(text) == ["Léa", "sortie", "piscine"])
    }

    @Test func theFriendsNameKeepsItsCapitalAndFunctionWordsOfThePhraseAreNotGiven() throws {
        let text = "Aujourd'hui, c'est l'anniversaire de Tom. Léa apporte un cadeau à Tom."
        #expect(try words(text, Self.lea, Self.tom) == ["anniversaire", "Tom", "Léa"])
    }

    @Test func wordsAboveTheGradeAreGivenOnlyWhenTheCheckLetsThemThroughAsGiven() throws {
        // toboggan (mots de l'enfance) is under CE2's band: given; tonton (famille) and papa are
        // common enough for CE2: not listed; the plan's own given word is listed.
        let text = "À la sortie piscine, Léa a glissé sur le toboggan avec son tonton et son papa. Elle a vu une otarie."
        let given = try words(text, Self.lea, Self.piscine, given: ["otarie"])
        #expect(given == ["sortie", "piscine", "Léa", "toboggan", "otarie"])
        // A word that is rare and not given is no mot donné: the check refuses it.
        let refused = "À la sortie piscine, Léa a vu un maillot céruléen."
        #expect(try !words(refused).contains("céruléen"))
        let findings = try TestValidator.shared().check(Draft(text: refused), plan: DictationPlan(child: Self.lea, moment: Self.piscine, targets: []))
        #expect(findings.contains { $0.step == .vocabulaire && $0.message.contains("« céruléen »") })
    }

    @Test func theBandDependsOnTheGrade() throws {
        // A word common enough in CE2 may be above the CP band only when it is a given word; the
        // list never holds a word the check would refuse.
        let text = "Léa va à la sortie piscine avec sa mamie."
        let cp = try words(text, Self.leaCP)
        #expect(cp.prefix(3) == ["Léa", "sortie", "piscine"])
    }
}
