import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import Dictation
@testable import French

/// Which trap sites the parent grades (`SiteSelection`): at most three skills, per skill at most
/// the plan's density × the text's sentences, spread over the text; never a full stop.
@Suite struct SiteSelectionTests {
    static func site(_ skill: SkillID, _ start: Int, _ word: String = "x") -> TrapSite {
        TrapSite(skill: skill, start: start, end: start + 1, word: word)
    }

    @Test func theCapIsDensityTimesSentencesRoundedDownAtLeastOne() {
        let four = "Il pleut. Léa rit. Tom court. Le chat dort."
        #expect(SiteSelection.perSkill(text: four, density: 1.0) == 4)
        #expect(SiteSelection.perSkill(text: four, density: 0.5) == 2)
        #expect(SiteSelection.perSkill(text: four, density: 1.1) == 4)
        #expect(SiteSelection.perSkill(text: four, density: 2.5) == 10)
        #expect(SiteSelection.perSkill(text: "Il pleut.", density: 0.5) == 1)
        #expect(SiteSelection.perSkill(text: "", density: 1.0) == 1)
    }

    @Test func theKeptSitesAreSpreadFromFirstToLast() {
        let sites = (0..<9).map { Self.site(.homophonesAA, $0 * 10) }
        #expect(SiteSelection.spread(sites, keeping: 3).map(\.start) == [0, 40, 80])
        #expect(SiteSelection.spread(sites, keeping: 2).map(\.start) == [0, 80])
        #expect(SiteSelection.spread(sites, keeping: 1).map(\.start) == [40])
        #expect(SiteSelection.spread(sites, keeping: 12).count == 9)
    }

    @Test func differentWordsFirstWhenThereAreEnough() {
        let text = "Léa nage. Léa plonge. Tom rit. Léa sort. Inès attend."
        let caps = [("Léa", 0), ("Léa", 10), ("Tom", 22), ("Léa", 31), ("Inès", 41)].map {
            TrapSite(skill: .majusculePonctuation, start: $0.1, end: $0.1 + $0.0.count, word: $0.0)
        }
        // Five sentences, density 0.6: three sites, three different words.
        #expect(SiteSelection.graded(caps, targets: [.majusculePonctuation], text: text, density: 0.6).map(\.word) == ["Léa", "Tom", "Inès"])
        // Density 1.0: five sites, more than the three words: every site.
        #expect(SiteSelection.graded(caps, targets: [.majusculePonctuation], text: text, density: 1.0).count == 5)
    }

    @Test func theTargetsComeFirstThenTheTextsSkillsAtMostThree() {
        let all = [Self.site(.majusculePonctuation, 0), Self.site(.homophonesAA, 5), Self.site(.accordPPEtre, 9),
                   Self.site(.lettresMuettesFinales, 12), Self.site(.homophonesEtEst, 20)]
        let kept = SiteSelection.graded(all, targets: [.accordPPEtre, .plurielNomsSX, .accordPPEtre, .homophonesAA, .homophonesEtEst,
                                                       .majusculePonctuation],
                                        text: "Un. Deux. Trois.", density: 1.0)
        // pluriel_noms_s_x has no site here: the next skills take its place.
        #expect(Set(kept.map(\.skill)) == [.accordPPEtre, .homophonesAA, .homophonesEtEst])
        #expect(kept.map(\.start) == [5, 9, 20])
    }

    /// Seeded property: whatever the sites, targets and density, the selection is a subset of the
    /// sites, in text order, of at most three skills, each with at most its cap, and keeps every
    /// site of a target skill that has no more than the cap.
    @Test func neverMoreSitesPerSkillThanTheDensityAllows() {
        var g = SeededGenerator(seed: 13)
        let skills = SkillID.allCases
        for _ in 0..<500 {
            let sentences = Int.random(in: 1...9, using: &g)
            let text = (0..<sentences).map { _ in "Léa joue." }.joined(separator: " ")
            let count = Int.random(in: 0...40, using: &g)
            var seen = Set<String>()
            let all = (0..<count).map { _ in
                Self.site(skills.randomElement(using: &g)!, Int.random(in: 0..<text.unicodeScalars.count, using: &g))
            }.filter { seen.insert("\($0.skill.rawValue)@\($0.start)").inserted }
            .sorted { ($0.start, $0.skill) < ($1.start, $1.skill) }
            let targets = (0..<Int.random(in: 0...6, using: &g)).map { _ in skills.randomElement(using: &g)! }
            let density = Double.random(in: Planner.densityRange, using: &g)
            let kept = SiteSelection.graded(all, targets: targets, text: text, density: density)
            let cap = Int((density * Double(sentences)).rounded(.down))
            let bySkill = Dictionary(grouping: kept, by: \.skill)
            #expect(bySkill.count <= Planner.maximumTargets)
            for (skill, mine) in bySkill {
                #expect(mine.count <= max(1, cap), "\(skill): \(mine.count) sites, cap \(cap)")
                #expect(targets.contains(skill))
                let available = all.filter { $0.skill == skill }.count
                #expect(mine.count == min(available, max(1, cap)))
                #expect(Set(mine.map(\.start)).count == mine.count, "no site twice")
            }
            #expect(kept.allSatisfy { k in all.contains(k) })
            #expect(kept.map(\.start) == kept.map(\.start).sorted())
        }
    }

    /// On every CE2 library text, rendered for Léa, with the analyzer's sites: no full stop, no
    /// exclamation or question mark is ever a site, and the child's participles after être are
    /// graded when accord_pp_etre is a target.
    @Test func noFullStopSiteAndTheChildsParticiplesOnTheLibrarysCE2Texts() throws {
        let library = try Library.bundled()
        let validator = try TestValidator.shared()
        let lea = Child(firstName: "Léa", gender: .feminine, grade: .ce2)
        let sortie = MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
        var checked = 0
        for text in library.texts where text.grade == .ce2 {
            let saturday = CalendarDate(year: 2026, month: 11, day: 28)
            let date = MomentDate(start: saturday, end: saturday, written: saturday.adding(days: 3), time: .past)
            guard let rendered = try? text.render(firstName: "Léa", gender: .feminine, moment: sortie, date: date) else { continue }
            let plan = DictationPlan(child: lea, moment: sortie, targets: text.skills)
            let all = validator.sites(of: Draft(text: rendered), plan: plan)
            #expect(!all.contains { [".", "!", "?", "…"].contains($0.word) }, "\(text.id)")
            let kept = SiteSelection.graded(all, targets: [.accordPPEtre] + text.skills, text: rendered, density: 1.0)
            #expect(!kept.contains { $0.word.allSatisfy { $0.isPunctuation } }, "\(text.id)")
            let participles = all.filter { $0.skill == .accordPPEtre }
            if !participles.isEmpty {
                #expect(kept.contains { $0.skill == .accordPPEtre }, "\(text.id)")
            }
            checked += 1
        }
        #expect(checked >= 5)
    }

    @Test func leaEstAlleeAndEstArriveeAreSitesOfTheirSkill() throws {
        let validator = try TestValidator.shared()
        let lea = Child(firstName: "Léa", gender: .feminine, grade: .ce2)
        let sortie = MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
        let text = "Mercredi, Léa est allée à la sortie piscine. Elle est arrivée en avance. Elle a nagé avec ses amies."
        let all = validator.sites(of: Draft(text: text), plan: DictationPlan(child: lea, moment: sortie, targets: [.accordPPEtre]))
        let kept = SiteSelection.graded(all, targets: [.accordPPEtre, .majusculePonctuation], text: text, density: 1.0)
        #expect(kept.filter { $0.skill == .accordPPEtre }.map(\.word) == ["allée", "arrivée"])
        // Four capitals, three different words, three sentences: each word once.
        #expect(kept.filter { $0.skill == .majusculePonctuation }.map(\.word) == ["Mercredi", "Léa", "Elle"])
    }
}
