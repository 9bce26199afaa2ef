import Foundation

/// The fifteen spelling skills of Docs/domain.md §1, by their stable identifiers.
///
/// - Warning: the raw values are stored in the state database and printed in JSON; never rename one.
public enum SkillID: String, CaseIterable, Codable, Hashable, Sendable, Comparable {
    case majusculePonctuation = "majuscule_ponctuation"
    case mDevantMBP = "m_devant_m_b_p"
    case lettresMuettesFinales = "lettres_muettes_finales"
    case homophonesAA = "homophones_a_a"
    case homophonesEtEst = "homophones_et_est"
    case homophonesOnOnt = "homophones_on_ont"
    case homophonesSonSont = "homophones_son_sont"
    case plurielNomsSX = "pluriel_noms_s_x"
    case accordSujetVerbe = "accord_sujet_verbe"
    case accordGNAdjectif = "accord_gn_adjectif"
    case infinitifErParticipeE = "infinitif_er_participe_e"
    case imparfaitFuturTerminaisons = "imparfait_futur_terminaisons"
    case accordPPEtre = "accord_pp_etre"
    case homophonesCesSesCestSest = "homophones_ces_ses_cest_sest"
    case passeSimple3ePersonne = "passe_simple_3e_personne"

    /// The grade where systematic teaching of the skill starts (Docs/domain.md §1: 2015 cycle-2
    /// programme, CE1/CM class plans, DEPP 2016). Where DOMAIN gives two grades (futur CE1 and
    /// imparfait CE2; ces/ses CE2 and c'est/s'est CM1) this is the earlier one.
    public var introducedIn: Grade {
        switch self {
        case .majusculePonctuation, .mDevantMBP: .cp
        case .lettresMuettesFinales, .homophonesAA, .homophonesEtEst, .homophonesOnOnt,
             .homophonesSonSont, .plurielNomsSX, .accordSujetVerbe, .accordGNAdjectif,
             .imparfaitFuturTerminaisons: .ce1
        case .infinitifErParticipeE, .accordPPEtre, .homophonesCesSesCestSest: .ce2
        case .passeSimple3ePersonne: .cm1
        }
    }

    /// Whether the skill is taught at `grade` (at or after its first grade).
    /// - Parameters:
    ///   - grade: CP to CM2.
    /// - Returns: `introducedIn <= grade`.
    public func isTaught(at grade: Grade) -> Bool { introducedIn <= grade }

    /// A short French label for parents, e.g. `homophones a / à`.
    public var label: String {
        switch self {
        case .majusculePonctuation: "majuscules et ponctuation"
        case .mDevantMBP: "m devant m, b, p"
        case .lettresMuettesFinales: "lettres muettes finales"
        case .homophonesAA: "homophones a / à"
        case .homophonesEtEst: "homophones et / est"
        case .homophonesOnOnt: "homophones on / ont"
        case .homophonesSonSont: "homophones son / sont"
        case .plurielNomsSX: "pluriel des noms (-s, -x)"
        case .accordSujetVerbe: "accord sujet-verbe"
        case .accordGNAdjectif: "accord dans le groupe nominal"
        case .infinitifErParticipeE: "infinitif en -er ou participe en -é"
        case .imparfaitFuturTerminaisons: "terminaisons de l'imparfait et du futur"
        case .accordPPEtre: "accord du participe passé avec être"
        case .homophonesCesSesCestSest: "homophones ces / ses / c'est / s'est"
        case .passeSimple3ePersonne: "passé simple (3e personne)"
        }
    }

    /// Orders skills as Docs/domain.md §1 lists them (declaration order), not by raw value.
    /// - Parameters:
    ///   - a: a skill.
    ///   - b: another skill.
    /// - Returns: `true` when `a` comes before `b` in `allCases`.
    public static func < (a: SkillID, b: SkillID) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Where a child stands on one skill (Docs/domain.md §1). There is deliberately no score.
public enum SkillState: String, CaseIterable, Codable, Hashable, Sendable {
    case nonVu = "non_vu", enCours = "en_cours", fragile = "fragile", maitrise = "maitrise"
}
