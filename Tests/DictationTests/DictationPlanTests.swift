import DicteeCore
import Testing
@testable import Dictation

/// Grade norms are Docs/domain.md §2's table; plans default to them.
@Suite struct DictationPlanTests {
    @Test(arguments: [
        (Grade.cp, 10...25, 1...3, 8), (.ce1, 20...40, 2...4, 10), (.ce2, 40...65, 4...6, 14),
        (.cm1, 55...80, 5...7, 16), (.cm2, 65...100, 6...9, 18),
    ])
    func normsFollowTheDomainTable(_ grade: Grade, _ words: ClosedRange<Int>, _ sentences: ClosedRange<Int>, _ longest: Int) {
        let n = GradeNorms.of(grade)
        #expect(n.words == words && n.sentences == sentences && n.maxWordsPerSentence == longest)
    }

    @Test func tensesAccumulateFromGradeToGrade() {
        #expect(GradeNorms.of(.cp).tenses == [.present])
        #expect(GradeNorms.of(.ce1).tenses == [.present, .futur, .passeComposeAvoir])
        #expect(GradeNorms.of(.ce2).tenses.isSuperset(of: GradeNorms.of(.ce1).tenses.union([.imparfait, .passeComposeEtre])))
        #expect(GradeNorms.of(.cm1).tenses.isSuperset(of: [.passeSimple, .imperatif]))
        #expect(GradeNorms.of(.cm2).tenses.isSuperset(of: [.plusQueParfait, .conditionnel]))
        for g in Grade.allCases { #expect(!GradeNorms.of(g).tenses.contains(.other)) }
        #expect(GradeNorms.of(.cp).restrictsVerbsToFirstGroup && !GradeNorms.of(.ce1).restrictsVerbsToFirstGroup)
    }

    @Test func aPlanDefaultsToItsGradeAndCapsSentences() {
        let m = MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
        let p = DictationPlan(child: Child(firstName: "Léa", gender: .feminine, grade: .cm1), moment: m, targets: [.homophonesAA])
        #expect(p.words == 55...80 && p.sentences == 5...7 && p.maxWordsPerSentence == 16 && p.sitesPerTarget == 2)
        #expect(p.grade == .cm1)
        let big = DictationPlan(child: p.child, moment: m, targets: [], words: 1...500, sentences: 2...40, maxWordsPerSentence: 30, sitesPerTarget: 1)
        #expect(big.sentences == 2...12)
    }

    @Test func skillsAreTaughtFromTheirGrade() {
        #expect(SkillID.allCases.count == 15)
        #expect(SkillID.passeSimple3ePersonne.introducedIn == .cm1)
        #expect(!SkillID.accordPPEtre.isTaught(at: .ce1) && SkillID.accordPPEtre.isTaught(at: .ce2))
        #expect(SkillID.majusculePonctuation.isTaught(at: .cp))
    }
}
