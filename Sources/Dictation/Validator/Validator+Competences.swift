import DicteeCore
import Foundation
import French

// Step 5, competences: enough trap sites of each target skill.

extension Validator {
    /// How a writer gets trap sites of a skill, in French, for the feedback sentence.
    /// - Parameters:
    ///   - skill: the target skill that lacks sites.
    ///   - grade: the plan's grade; below CE2 the hints for `imparfait_futur_terminaisons` and
    ///     `accord_pp_etre` follow the programme (Docs/domain.md §2: imparfait and passé composé with
    ///     être come in CE2).
    /// - Returns: a French noun phrase that follows "ajoute", e.g. "des verbes au futur (il
    ///   jouera, ils partiront)".
    public static func hint(_ skill: SkillID, grade: Grade = .cm2) -> String {
        if skill == .imparfaitFuturTerminaisons, grade < .ce2 { return "des verbes au futur (il jouera, ils partiront)" }
        if skill == .accordPPEtre, grade < .ce2 { return "des participes passés après être, qui ne sont pas encore au programme de \(grade.rawValue)" }
        return switch skill {
        case .majusculePonctuation: "des phrases complètes avec une majuscule et un point, et des noms propres"
        case .mDevantMBP: "des mots avec « m » devant « b » ou « p » (jambe, tomber, septembre, champion)"
        case .lettresMuettesFinales: "des noms ou adjectifs terminés par une lettre muette (grand, petit, temps, chat)"
        case .homophonesAA: "« a » (verbe avoir) et « à » (préposition)"
        case .homophonesEtEst: "« et » et « est » (verbe être)"
        case .homophonesOnOnt: "« on » et « ont » (verbe avoir)"
        case .homophonesSonSont: "« son » (son sac) et « sont » (verbe être)"
        case .plurielNomsSX: "des noms au pluriel après les, des, mes, ses ou un nombre"
        case .accordSujetVerbe: "des verbes conjugués avec leur sujet (ils jouent, les enfants chantent)"
        case .accordGNAdjectif: "des adjectifs accordés avec un nom (une petite maison) ou après être"
        case .infinitifErParticipeE: "des verbes en -er à l'infinitif (pour jouer) et au participe passé (il a joué)"
        case .imparfaitFuturTerminaisons: "des verbes à l'imparfait ou au futur"
        case .accordPPEtre: "des participes passés après être (elle est partie, ils sont arrivés)"
        case .homophonesCesSesCestSest: "« ces », « ses », « c'est » ou « s'est »"
        case .passeSimple3ePersonne: "des verbes au passé simple à la 3e personne (il joua, ils partirent)"
        }
    }

    func competences(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        guard !plan.targets.isEmpty else { return [] }
        let sites = analyzer.sites(in: a, skills: Set(plan.targets))
        var out: [Finding] = []
        for skill in plan.targets {
            let n = sites.filter { $0.skill == skill }.count
            if n < plan.sitesPerTarget {
                out.append(Finding(step: .competences, message:
                    "Le texte doit travailler « \(skill.label) » au moins \(plan.sitesPerTarget) fois ; \(n == 0 ? "il n'y en a aucune" : n == 1 ? "il n'y en a qu'une" : "il n'y en a que \(n)") : ajoute \(Validator.hint(skill, grade: plan.grade))."))
            }
        }
        return out
    }
}
