import Dictation
import DicteeCore
import DicteeTestSupport
import Foundation
import Testing

/// The week-by-week states of the progress page are the live rule replayed: at every boundary, the
/// state `SkillProgress.replay` (what `dictee skills` shows) gives for the exposures graded before it.
@Suite struct SkillTimelineTests {
    static let day: TimeInterval = 86_400
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    static func exposure(_ skill: SkillID, day: Double, sites: Int = 2, errors: Int) -> SkillExposure {
        SkillExposure(dictationID: Int64(day * 10), skill: skill, gradedAt: start.addingTimeInterval(day * Self.day), sites: sites, errors: errors)
    }

    @Test("a known sequence: en cours, maîtrisé after two clean, fragile after a mistake, en cours again")
    func knownSequence() {
        let a = SkillID.homophonesAA
        let history = [
            Self.exposure(a, day: 1, errors: 1),   // non vu → en cours
            Self.exposure(a, day: 8, errors: 0),   // en cours, previous not clean → en cours
            Self.exposure(a, day: 9, errors: 0),   // two clean in a row → maîtrisé
            Self.exposure(a, day: 15, errors: 2),  // maîtrisé → fragile
            Self.exposure(a, day: 22, errors: 0),  // fragile → en cours (week 4)
        ]
        // Boundaries: the end of each of five weeks from day 0.
        let boundaries = (1...5).map { Self.start.addingTimeInterval(Double($0 * 7) * Self.day) }
        let timelines = SkillTimeline.build(history, boundaries: boundaries)
        #expect(timelines.map(\.skill) == SkillID.allCases)
        let t = timelines.first { $0.skill == a }!
        #expect(t.states == [.enCours, .maitrise, .fragile, .enCours, .enCours])
        #expect(t.exposures.map(\.errors) == [1, 0, 0, 2, 0])
        // A skill never met stays non vu.
        #expect(timelines.first { $0.skill == .accordSujetVerbe }!.states == Array(repeating: .nonVu, count: 5))
    }

    @Test("an exposure graded exactly at a boundary counts for the next period")
    func boundaryIsExclusive() {
        let e = Self.exposure(.homophonesEtEst, day: 7, errors: 0)
        let t = SkillTimeline.build([e], boundaries: [e.gradedAt, e.gradedAt.addingTimeInterval(1)])
            .first { $0.skill == .homophonesEtEst }!
        #expect(t.states == [.nonVu, .enCours])
    }

    @Test("over seeded histories, every boundary's state is SkillProgress.replay of the exposures before it")
    func sameAsTheLiveRule() {
        var random = SeededGenerator(seed: 16)
        for _ in 0..<200 {
            var history: [SkillExposure] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let skill = SkillID.allCases.randomElement(using: &random)!
                let sites = Int.random(in: 1...4, using: &random)
                // Graded at distinct seconds over ten weeks, in any order.
                history.append(SkillExposure(skill: skill, gradedAt: Self.start.addingTimeInterval(Double(Int.random(in: 0...6_048_000, using: &random))),
                                             sites: sites, errors: Bool.random(using: &random) ? 0 : Int.random(in: 0...sites, using: &random)))
            }
            history.shuffle(using: &random)
            let boundaries = (0...10).map { Self.start.addingTimeInterval(Double($0 * 7) * Self.day + 1) }
            let timelines = SkillTimeline.build(history, boundaries: boundaries)
            for t in timelines {
                for (k, boundary) in boundaries.enumerated() {
                    let live = SkillProgress.replay(t.skill, history.filter { $0.gradedAt < boundary })
                    #expect(t.states[k] == live.state, "\(t.skill.rawValue) at week \(k)")
                }
                #expect(t.exposures == history.filter { $0.skill == t.skill }.sorted { $0.gradedAt < $1.gradedAt })
            }
        }
    }
}
