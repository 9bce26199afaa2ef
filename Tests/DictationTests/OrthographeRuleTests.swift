import DicteeCore
import Foundation
import Testing
@testable import Dictation
import French

/// Step 8's named rules, each with sentences it must catch and sentences it must leave alone.
@Suite struct OrthographeRuleTests {
    /// The named rules alone on one sentence (the child is Léa), without Hunspell or Grammalecte.
    func rules(_ text: String) throws -> [String] {
        let v = try TestValidator.shared()
        return v.ruleFindings(TextAnalysis(text, lexicon: v.lexicon, names: ["Léa"])).map(\.rule)
    }

    @Test(arguments: [
        ("Léa est fière de elle.", "elision_voyelle", true), ("Léa est fière d'elle.", "elision_voyelle", false),
        ("Tom dit que il a gagné.", "elision_voyelle", true), ("Tom a vu le héros et la onze.", "elision_voyelle", false),
        ("Léa entre dans l'maison.", "elision_consonne", true), ("Léa entre dans l'eau.", "elision_consonne", false),
        ("Il à froid.", "il_a_accent", true), ("Il a froid.", "il_a_accent", false),
        ("Léa à froid.", "nom_a_accent", true), ("Léa va à la piscine.", "nom_a_accent", false),
        ("S'est une belle journée.", "s_est_sans_sujet", true), ("Léa s'est levée.", "s_est_sans_sujet", false),
        ("Léa peu nager vite.", "peu_peut", true), ("Léa peut nager.", "peu_peut", false),
        ("Léa ni voyait rien.", "ni_n_y", true), ("Ni Léa ni ses copains n'ont peur.", "ni_n_y", false),
        ("Léa est restée la longtemps.", "la_la_accent", true), ("Léa la regarde longtemps.", "la_la_accent", false),
        ("Elle a parlé de les pommes.", "contraction_article", true), ("Elle a parlé des pommes.", "contraction_article", false),
        ("Léa est allée a la piscine.", "a_preposition", true), ("Léa est allée à la piscine.", "a_preposition", false),
        ("Les enfants ce sont régalés.", "ce_se", true), ("Les enfants se sont régalés.", "ce_se", false),
        ("Léa mange ça pomme.", "ca_sa", true), ("Léa aime ça.", "ca_sa", false),
        ("Nous a nagé.", "nous_a", true), ("Nous avons nagé.", "nous_a", false), ("Léa et elle sont contentes.", "nous_a", false),
        ("Léa et ses amies nage.", "sujets_coordonnes", true), ("Léa et ses amies nagent.", "sujets_coordonnes", false),
        ("Les enfants nage dans la piscine.", "groupe_nominal_verbe", true), ("Le chat dorment.", "groupe_nominal_verbe", true),
        ("Les enfants nagent dans la piscine.", "groupe_nominal_verbe", false),
        ("Les poneys son dans le pré.", "son_sont", true), ("Le son du piano est doux.", "son_sont", false),
        ("L'eau était chaude est elle a aimé ça.", "est_et", true), ("L'eau était chaude et elle a aimé ça.", "est_et", false),
        ("Léa a nagée longtemps.", "participe_avoir", true), ("Léa a nagé longtemps.", "participe_avoir", false),
    ])
    func eachRuleCatchesItsErrorAndOnlyIt(_ text: String, _ rule: String, _ expected: Bool) throws {
        let found = try rules(text)
        #expect(found.contains(rule) == expected, "\(text): \(found)")
    }

    @Test func everyRuleHasAUniqueIdAndTheTableKeepsItsOrder() {
        let ids = OrthographeRule.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == ["elision_consonne", "elision_voyelle", "il_a_accent", "nom_a_accent", "s_est_sans_sujet", "peu_peut", "ni_n_y", "la_la_accent",
                        "contraction_article", "a_preposition", "ce_se", "ca_sa", "son_sont", "nous_a", "sujets_coordonnes", "groupe_nominal_verbe",
                        "et_est", "est_et", "participe_avoir"])
    }

    @Test func aRuleBuildsItsFrenchSentenceFromTheQuotedWords() throws {
        let v = try TestValidator.shared()
        let f = v.ruleFindings(TextAnalysis("Léa entre dans l'maison.", lexicon: v.lexicon, names: ["Léa"]))
        #expect(f == [Finding(step: .orthographeGrammaire, rule: "elision_consonne",
                              message: "Pas d'apostrophe devant une consonne : « l'maison » s'écrit sans élision.")])
        #expect(OrthographeRule.nousA.message(["nous", "a"]) == "« nous … a » : le verbe ne s'accorde pas avec son sujet « nous ».")
    }

    /// The other rule ids of the eight steps, through the whole validator: (grade, text, rule).
    @Test(arguments: [
        (Grade.ce2, "Léa mange une pome.", "hunspell"),
        (.ce2, "Léa nage", "point_final"),
        (.ce2, "elle nage avec Léa.", "majuscule_debut"),
        (.ce2, "LÉA NAGE.", "capitales"),
        (.ce2, "Léa nage le Soir.", "majuscule_nom_commun"),
        (.ce2, "Léa nage 😀.", "caracteres"),
        (.ce2, "Léa nage.", "longueur_mots"),
        (.ce2, "Léa nage.", "longueur_phrases"),
        (.ce2, "Tom nage.", "prenom_absent"),
        (.ce2, "léa nage.", "prenom_majuscule"),
        (.ce2, "Léa est doux.", "prenom_accord"),
        (.ce2, "Léa nage.", "moment_absent"),
        (.ce2, "Léa part pour la sortie ski.", "moment_autre"),
        (.ce1, "Léa nageait.", "temps"),
        (.cp, "Léa finit son gâteau.", "temps_premier_groupe"),
        (.cm2, "Il boit du whisky.", "registre"),
        (.ce2, "Léa nage.", "competences"),
    ])
    func stepRuleIds(_ grade: Grade, _ text: String, _ rule: String) throws {
        let plan = DictationPlan(child: Child(firstName: "Léa", gender: .feminine, grade: grade), moment: ValidatorTests.piscine,
                                 targets: [.homophonesAA])
        let f = try TestValidator.shared().check(Draft(text: text), plan: plan)
        #expect(f.contains { $0.rule == rule }, "\(text): \(f.map(\.rule))")
        #expect(f.allSatisfy { !$0.rule.isEmpty })
    }

    @Test func grammalecteFindingsCarryItsRuleId() throws {
        let text = ValidatorTests.goodCE2.replacingOccurrences(of: "les enfants ont mangé", with: "les enfants ont mangés")
        let f = try TestValidator.shared().check(Draft(text: text), plan: DictationPlan(child: ValidatorTests.lea, moment: ValidatorTests.piscine,
                                                                                     targets: [.homophonesAA, .accordPPEtre]))
        #expect(f.count == 1 && f[0].rule.hasPrefix("grammalecte:") && f[0].rule.count > "grammalecte:".count, "\(f)")
    }
}
