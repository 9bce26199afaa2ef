import DicteeCore
import Foundation
import Testing
@testable import Dictation

/// Every transition of the skill states (Docs/domain.md §7-8), and their replay over a history.
@Suite struct SkillProgressTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    func exposure(_ errors: Int, day: Int = 0, skill: SkillID = .homophonesAA) -> SkillExposure {
        SkillExposure(skill: skill, gradedAt: Self.t0.addingTimeInterval(Double(day) * 86_400), sites: 4, errors: errors)
    }

    @Test(arguments: [
        // (before, errors now, previous exposure clean?, after)
        (SkillState.nonVu, 0, nil as Bool?, SkillState.enCours),
        (.enCours, 0, true, .maitrise),
        (.enCours, 0, false, .enCours),
        (.enCours, 0, nil, .enCours),
        (.fragile, 0, true, .enCours),
        (.fragile, 0, false, .enCours),
        (.maitrise, 0, true, .maitrise),
        (.nonVu, 2, nil, .enCours),
        (.maitrise, 1, true, .fragile),
        (.enCours, 3, true, .enCours),
        (.enCours, 1, false, .enCours),
        (.fragile, 4, false, .fragile),
        (.fragile, 1, true, .fragile),
    ])
    func everyTransition(_ before: SkillState, _ errors: Int, _ previousClean: Bool?, _ after: SkillState) {
        let previous = previousClean.map { exposure($0 ? 0 : 1, day: -1) }
        #expect(SkillProgress.transition(from: before, exposure: exposure(errors), previous: previous) == after)
    }

    @Test func replayOverAHistory() {
        // clean → en_cours; clean again → maîtrisé; an error → fragile; clean → en_cours.
        let history = [exposure(0, day: 0), exposure(0, day: 7), exposure(2, day: 14), exposure(0, day: 21)]
        var states: [SkillState] = []
        var p = SkillProgress(skill: .homophonesAA)
        for e in history { p = p.applying(e); states.append(p.state) }
        #expect(states == [.enCours, .maitrise, .fragile, .enCours])
        #expect(p.since == history[3].gradedAt)
        #expect(SkillProgress.replay(.homophonesAA, history.reversed()) == p)
        // An en_cours skill with an error in between needs two clean exposures in a row.
        let bumpy = [exposure(0, day: 0), exposure(1, day: 1), exposure(0, day: 2), exposure(0, day: 3)]
        #expect(SkillProgress.replay(.homophonesAA, Array(bumpy.prefix(3))).state == .enCours)
        #expect(SkillProgress.replay(.homophonesAA, bumpy).state == .maitrise)
    }

    @Test func errorsAreClampedToTheSites() {
        #expect(SkillExposure(skill: .homophonesAA, gradedAt: Self.t0, sites: 2, errors: 9).errors == 2)
        #expect(SkillExposure(skill: .homophonesAA, gradedAt: Self.t0, sites: 2, errors: -1).isClean)
    }
}

/// The planner: target order, and the length and density rule over a sequence of dictations.
@Suite struct PlannerTests {
    static let t0 = SkillProgressTests.t0
    static let moment = MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
    static let lea = Child(firstName: "Léa", gender: .feminine, grade: .ce2)

    func day(_ n: Int) -> Date { Self.t0.addingTimeInterval(Double(n) * 86_400) }

    @Test func aFirstTextAimsAtTheMiddleOfTheGradeWithTheFirstSkillsOfTheProgramme() {
        let plan = Planner.plan(child: Self.lea, moment: Self.moment, progress: [], last: nil)
        // CE2: 40-65 words → aim 52.5, ±10% → 47...58; the first three non_vu skills in order.
        #expect(plan.words == 47...58)
        #expect(plan.targets == [.majusculePonctuation, .mDevantMBP, .lettresMuettesFinales])
        #expect(plan.density == 1.0)
        #expect(plan.sitesPerTarget == 2)  // 1.0 × 5 sentences / 3 targets, rounded up
        #expect(plan.sentences == 4...6 && plan.maxWordsPerSentence == 14)
    }

    @Test func fragileFirstLongestFirstThenNonVuThenEnCours() {
        let progress = [
            SkillProgress(skill: .homophonesEtEst, state: .fragile, since: day(10)),
            SkillProgress(skill: .homophonesAA, state: .fragile, since: day(3)),
            SkillProgress(skill: .plurielNomsSX, state: .enCours, since: day(1)),
            SkillProgress(skill: .majusculePonctuation, state: .maitrise, since: day(1)),
            SkillProgress(skill: .mDevantMBP, state: .maitrise, since: day(1)),
        ]
        let plan = Planner.plan(child: Self.lea, moment: Self.moment, progress: progress, last: nil)
        #expect(plan.targets == [.homophonesAA, .homophonesEtEst, .lettresMuettesFinales])
        // Nothing non_vu left at CP: en_cours comes next; maîtrisé never.
        let cp = Child(firstName: "Léa", gender: .feminine, grade: .cp)
        let cpPlan = Planner.plan(child: cp, moment: Self.moment, progress: [
            SkillProgress(skill: .majusculePonctuation, state: .maitrise), SkillProgress(skill: .mDevantMBP, state: .enCours),
        ], last: nil)
        #expect(cpPlan.targets == [.mDevantMBP])
        // Skills not yet taught are never planned as non_vu.
        #expect(!Planner.targetSkills(grade: .ce1, progress: []).contains(.passeSimple3ePersonne))
    }

    @Test func lengthAndDensityFollowTheLastResultWithinTheGrade() {
        let norms = GradeNorms.of(.ce2)
        var aim = Planner.nextAim(norms: norms, last: nil)
        #expect(aim.words == 52.5 && aim.density == 1.0)
        // Error rates over a sequence of graded dictations: 0% → +10%, 20% → same, 50% → -10%.
        let sequence: [(sites: Int, errors: Int, factor: Double)] = [(10, 0, 1.1), (10, 2, 1.0), (10, 5, 0.9), (10, 0, 1.1), (0, 0, 1.0)]
        for step in sequence {
            let before = aim
            aim = Planner.nextAim(norms: norms, last: PlanOutcome(targetWords: before.words, density: before.density, sites: step.sites, errors: step.errors))
            #expect(abs(aim.words - min(max(before.words * step.factor, 40), 65)) < 1e-9)
            #expect(abs(aim.density - before.density * step.factor) < 1e-9)
        }
        // Never outside the grade: ten easy texts in a row stop at 65 words.
        var words = 52.5, density = 1.0
        for _ in 0..<10 {
            (words, density) = Planner.nextAim(norms: norms, last: PlanOutcome(targetWords: words, density: density, sites: 10, errors: 0))
        }
        #expect(words == 65 && density == 2.5)
        let plan = Planner.plan(child: Self.lea, moment: Self.moment, progress: [],
                                last: PlanOutcome(targetWords: words, density: density, sites: 10, errors: 0))
        #expect(plan.words.upperBound == 65 && plan.words.lowerBound == 59)
        #expect(plan.sitesPerTarget == 5)  // 2.5 × 5 sentences / 3 targets, rounded up
    }

    @Test func thirtyPercentIsNotYetShorterAndTenPercentIsNotYetLonger() {
        let norms = GradeNorms.of(.cm1)
        let mid = Planner.nextAim(norms: norms, last: nil).words
        #expect(Planner.nextAim(norms: norms, last: PlanOutcome(targetWords: mid, density: 1, sites: 10, errors: 3)).words == mid)
        #expect(Planner.nextAim(norms: norms, last: PlanOutcome(targetWords: mid, density: 1, sites: 10, errors: 1)).words == mid)
    }
}
