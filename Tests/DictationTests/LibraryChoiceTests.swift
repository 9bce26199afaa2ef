import DicteeCore
import French
import Testing
@testable import Dictation

/// Serving a library text for a plan: the path of the cards before a model, and of the fallback.
@Suite struct LibraryChoiceTests {
    static let piscine = MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))

    @Test func theTextSharingTheMostTargetsIsServedValidated() throws {
        let library = try Library.bundled()
        let validator = try TestValidator.shared()
        let child = Child(firstName: "Inès", gender: .feminine, grade: .ce2)
        let plan = DictationPlan(child: child, moment: Self.piscine, targets: [.accordPPEtre, .homophonesAA])
        let served = try #require(library.serving(for: plan, checker: validator))
        #expect(served.text.grade == .ce2)
        #expect(served.text.fits(library.kinds(of: "la sortie piscine")))
        let best = library.texts(for: .ce2, fitting: "la sortie piscine").map { $0.skills.filter(plan.targets.contains).count }.max()
        #expect(served.text.skills.filter(plan.targets.contains).count == best)
        #expect(served.draft.text.contains("Inès") && served.draft.text.contains("sortie piscine"))
        #expect(validator.check(served.draft, plan: served.plan).isEmpty)
        // A text seen lately comes last: the next serving is another text.
        let next = try #require(library.serving(for: plan, checker: validator, recentlyUsed: [served.text.id]))
        #expect(next.text.id != served.text.id)
    }

    @Test func everyGradeAndPhraseHasAServing() throws {
        let library = try Library.bundled()
        let validator = try TestValidator.shared()
        for grade in Grade.allCases {
            let child = Child(firstName: "Hugo", gender: .masculine, grade: grade)
            for m in ["la sortie piscine", "le cours de judo", "les vacances", "l'anniversaire", "la fête de l'école"] {
                let grammar = try #require(LibraryValidationTests.phrases.first { $0.phrase == m }?.grammar)
                let plan = Planner.plan(child: child, moment: MomentPhrase(phrase: m, grammar: grammar), progress: [], last: nil)
                #expect(library.serving(for: plan, checker: validator) != nil, "\(grade.rawValue) \(m)")
            }
        }
    }
}

/// The served text's verbs suit the moment's time when the library allows it.
@Suite struct LibraryTimeTests {
    @Test func aPastMomentGetsNoFuturAndAnUpcomingOneNoPastTenseWhenATextAllows() throws {
        let library = try Library.bundled()
        let validator = try TestValidator.shared()
        var checked = 0
        for grade in [Grade.ce1, .ce2, .cm1] {
            let child = Child(firstName: "Léa", gender: .feminine, grade: grade)
            for m in ["l'anniversaire", "la sortie piscine", "le cours de judo"] {
                let grammar = try #require(LibraryValidationTests.phrases.first { $0.phrase == m }?.grammar)
                let plan = Planner.plan(child: child, moment: MomentPhrase(phrase: m, grammar: grammar), progress: [], last: nil)
                for time in [MomentTime.past, .upcoming] {
                    let served = try #require(library.serving(for: plan, checker: validator, time: time))
                    let fitting = library.texts(for: grade, fitting: m).contains { text in
                        guard let r = try? text.render(firstName: "Léa", gender: .feminine, moment: plan.moment) else { return false }
                        return !Self.hasWrongTense(r, time, validator, plan)
                    }
                    if fitting {
                        #expect(!Self.hasWrongTense(served.draft.text, time, validator, plan), "\(grade.rawValue) \(m) \(time): \(served.draft.text)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked >= 9, "the library should have a fitting text for most cases")
    }

    static func hasWrongTense(_ text: String, _ time: MomentTime, _ validator: Validator, _ plan: DictationPlan) -> Bool {
        let wrong: Set<SchoolTense> = time == .past ? [.futur] : [.passeComposeAvoir, .passeComposeEtre, .imparfait, .passeSimple, .plusQueParfait]
        let analysis = TextAnalysis(text, lexicon: validator.lexicon, names: [plan.child.firstName])
        return validator.tenses(in: analysis).contains { !$0.tenses.isEmpty && $0.tenses.isSubset(of: wrong) }
    }
}
