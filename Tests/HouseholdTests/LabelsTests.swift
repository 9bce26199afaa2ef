import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import Dictation
@testable import Household

/// `Labels.check`: the one check of a parent's label (normalisation, disqualifiers, the noun
/// phrase, the kind).
@Suite struct LabelsTests {
    static let environment = ["DICTEE_LEXICON": repositoryRoot.appendingPathComponent("Data/lexique-3.83.bin").path]

    @Test func aLabelIsCheckedNormalisedAndGivenItsKind() throws {
        let lexicon = try Labels.lexicon(environment: Self.environment)
        let checked = try Labels.check("  le\u{200B} dîner   chez Mamie ", kind: nil, names: ["Léa"], lexicon: lexicon).get()
        #expect(checked == CheckedLabel(phrase: "le dîner chez Mamie",
                                        grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "dîner"),
                                        kind: "repas", firstName: "Mamie"))
        #expect(checked.moment.contracted(with: .a) == "au dîner chez Mamie")
        #expect(try Labels.check("la sortie au parc", kind: "Plein_air", names: [], lexicon: lexicon).get().kind == "plein_air")
        #expect(try Labels.check("le spectacle de Léa", kind: nil, names: ["Léa"], lexicon: lexicon).get().firstName == "Léa")
    }

    @Test func refusalsNameTheRule() throws {
        let lexicon = try Labels.lexicon(environment: Self.environment)
        func rule(_ text: String, kind: String? = nil) -> String? {
            if case .failure(let r) = Labels.check(text, kind: kind, names: ["Léa"], lexicon: lexicon) { return r.rule }
            return nil
        }
        #expect(rule("le rendez-vous chez le dentiste") == "disqualified")
        #expect(rule("l'anniversaire de mamie à l'hôpital") == "disqualified")
        #expect(rule("le cours de judo 10h") == "digits")
        #expect(rule("la pharmacie de garde") == "register")
        #expect(rule("la visite médicale") == "disqualified")
        #expect(rule("\u{200B}") == "empty")
        #expect(rule("le dîner chez Mamie", kind: "soirée") == "unknown_kind")
        guard case .failure(let d) = Labels.check("le rendez-vous chez le dentiste", kind: nil, names: [], lexicon: lexicon) else { return }
        #expect(!d.description.contains("dentiste"), "the disqualifier's text is never repeated")
    }

    @Test("the parents' rules keep adults' events out when nobody chose; a parent's label is a choice")
    func parentsRulesDoNotRefuseALabel() throws {
        let lexicon = try Labels.lexicon(environment: Self.environment)
        #expect(try Labels.check("le marché de Noël", kind: nil, names: [], lexicon: lexicon).get().kind == "sortie")
        #expect(try Labels.check("la réunion de l'école", kind: nil, names: [], lexicon: lexicon).get().phrase == "la réunion de l'école")
        #expect(try Labels.check("la fête des Lumières", kind: nil, names: [], lexicon: lexicon).get().kind == "general")
    }

    @Test("health beyond the disqualifiers' short forms, religion and family justice are refused")
    func sensitiveRegisters() throws {
        let lexicon = try Labels.lexicon(environment: Self.environment)
        // The full forms of kiné and ostéo are forms of those disqualifiers now (D17, D18).
        for text in ["la kinésithérapie", "la séance d'ostéopathie"] {
            guard case .failure(let r) = Labels.check(text, kind: nil, names: [], lexicon: lexicon) else {
                Issue.record("'\(text)' was accepted")
                continue
            }
            #expect(r.rule == "disqualified", "\(text): \(r.rule)")
        }
        for text in ["la grippe", "le plâtre", "la mosquée", "le catéchisme",
                     "la communion", "la messe", "l'audience", "la séparation", "le jugement", "le caté", "la paroisse",
                     "la rééducation", "la convocation"] {
            guard case .failure(let r) = Labels.check(text, kind: nil, names: [], lexicon: lexicon) else {
                Issue.record("'\(text)' was accepted")
                continue
            }
            #expect(r.rule == "register", "\(text): \(r.rule)")
        }
    }

    @Test func aMissingLexiconIsLexiconMissing() {
        #expect(throws: HouseholdError.lexiconMissing) { try Labels.lexicon(environment: ["DICTEE_LEXICON": "/nonexistent/lexique.bin"]) }
    }
}
