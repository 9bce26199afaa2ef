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
        var plan = DictationPlan(child: child, moment: Self.piscine, targets: [.accordPPEtre, .homophonesAA])
        let saturday = CalendarDate(year: 2026, month: 11, day: 28)
        plan.date = MomentDate(start: saturday, end: saturday, written: saturday.adding(days: 3), time: .past)
        let served = try #require(library.serving(for: plan, checker: validator))
        #expect(served.text.grade == .ce2)
        #expect(served.text.fits(library.fittingKinds(of: "la sortie piscine")))
        let best = library.texts(for: .ce2, fitting: "la sortie piscine").filter { $0.time.suits(.past) }.map { $0.skills.filter(plan.targets.contains).count }.max()
        #expect(served.text.skills.filter(plan.targets.contains).count == best)
        #expect(served.draft.text.contains("Inès") && served.draft.text.contains("sortie piscine"))
        #expect(validator.check(served.draft, plan: served.plan).isEmpty)
        // A text seen lately comes last: the next serving is another text.
        let next = try #require(library.serving(for: plan, checker: validator, used: [served.text.id: 0]))
        #expect(next.text.id != served.text.id)
        // When every fitting text was had, the one had longest ago comes back first.
        let fitting = library.texts(for: .ce2, fitting: plan.moment).filter { $0.time.suits(.past) }.map(\.id)
        var used: [String: Int64] = [:]
        for (k, id) in fitting.enumerated() { used[id] = Int64(100 + k) }
        used[next.text.id] = 1
        #expect(library.serving(for: plan, checker: validator, used: used)?.text.id == next.text.id)
    }

    @Test func everyGradeAndPhraseHasAServing() throws {
        let library = try Library.bundled()
        let validator = try TestValidator.shared()
        for grade in Grade.allCases {
            let child = Child(firstName: "Hugo", gender: .masculine, grade: grade)
            for m in ["la sortie piscine", "le cours de judo", "les vacances", "l'anniversaire", "la fête de l'école"] {
                let grammar = try #require(LibraryValidationTests.phrases.first { $0.phrase == m }?.grammar)
                var plan = Planner.plan(child: child, moment: MomentPhrase(phrase: m, grammar: grammar), progress: [], last: nil)
                for (offset, time) in [(-3, MomentTime.past), (4, .upcoming)] {
                    let written = CalendarDate(year: 2026, month: 12, day: 1)
                    plan.date = MomentDate(start: written.adding(days: offset), end: written.adding(days: offset), written: written, time: time)
                    #expect(library.serving(for: plan, checker: validator) != nil, "\(grade.rawValue) \(m) \(time)")
                }
            }
        }
    }
}

/// The served text is told at the moment's time and names its day: a past moment gets a `past`
/// or `any` text, an upcoming one a `coming` or `any` text, and the rendering passes the
/// validator's `moment_date` rule for that date.
@Suite struct LibraryTimeTests {
    @Test func aPastMomentGetsAPastTextAndAnUpcomingOneAComingText() throws {
        let library = try Library.bundled()
        let validator = try TestValidator.shared()
        let written = CalendarDate(year: 2026, month: 12, day: 1)
        for grade in Grade.allCases {
            let child = Child(firstName: "Léa", gender: .feminine, grade: grade)
            for m in ["l'anniversaire", "la sortie piscine", "le cours de judo", "le concert"] {
                let grammar = try #require(LibraryValidationTests.phrases.first { $0.phrase == m }?.grammar)
                var plan = Planner.plan(child: child, moment: MomentPhrase(phrase: m, grammar: grammar), progress: [], last: nil)
                for (offset, time) in [(-3, MomentTime.past), (4, .upcoming), (-12, .past), (0, .upcoming), (-1, .past)] {
                    plan.date = MomentDate(start: written.adding(days: offset), end: written.adding(days: offset), written: written, time: time)
                    let served = try #require(library.serving(for: plan, checker: validator), "\(grade.rawValue) \(m) \(offset)")
                    #expect(served.text.time.suits(time), "\(served.text.id) for \(time)")
                    #expect(served.plan.date == plan.date)
                    #expect(validator.check(served.draft, plan: served.plan).isEmpty)
                    if served.text.namesDay {
                        let said = served.text.skills.contains(.passeSimple3ePersonne) ? plan.date!.narrativeDayPhrase : plan.date!.dayPhrase
                        #expect(served.draft.text.lowercased().contains(said), "\(served.draft.text)")
                    }
                }
            }
        }
    }

    @Test func aTextThatNamesTheDayIsNotServedWithoutADate() throws {
        let library = try Library.bundled()
        let validator = try TestValidator.shared()
        let child = Child(firstName: "Tom", gender: .masculine, grade: .ce2)
        let grammar = try #require(LibraryValidationTests.phrases.first { $0.phrase == "le cours de judo" }?.grammar)
        let plan = Planner.plan(child: child, moment: MomentPhrase(phrase: "le cours de judo", grammar: grammar), progress: [], last: nil)
        if let served = library.serving(for: plan, checker: validator) { #expect(!served.text.namesDay) }
    }
}
