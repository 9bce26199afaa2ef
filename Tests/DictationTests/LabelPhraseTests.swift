import DicteeCore
import Foundation
import Testing
@testable import Dictation
import French
import PrivacyFilter

/// A parent's label as a French noun phrase (`LabelPhrase`): the rules, the grammar Lexique gives,
/// the kinds, and the contractions the library and the validator build from it.
@Suite struct LabelPhraseTests {
    static let lexicon: Lexicon? = try? Lexicon(contentsOf: TestValidator.root.appendingPathComponent("Data/lexique-3.83.bin"))
    static let names: Set<String> = ["Léa", "Hugo", "Inès", "Tom", "Jules"]
    static let registers = RegisterList(Whitelist.bundledRegisters)

    func analyse(_ text: String) throws -> Result<LabelPhrase, LabelRefusal> {
        guard let lexicon = Self.lexicon else {
            Issue.record("Data/lexique-3.83.bin is missing: run Scripts/setup")
            throw CancellationError()
        }
        return LabelPhrase.analyse(PrivacyFilter.normalisedLabel(text), lexicon: lexicon, names: Self.names, registers: Self.registers)
    }

    /// label, phrase, gender (f/m), number (s/p), head noun, kind.
    @Test(arguments: [
        ("le dîner chez Mamie", "le dîner chez Mamie", "m", "s", "dîner", "repas"),
        ("le dîner extra", "le dîner extra", "m", "s", "dîner", "repas"),  // a noun more often than an adjective
        ("le grand marché", "le grand marché", "m", "s", "marché", "sortie"),
        ("la fête des Lumières", "la fête des Lumières", "f", "s", "fête", "general"),  // a named feast: a festival, not a party
        ("les vacances au ski", "les vacances au ski", "f", "p", "vacances", "sejour"),
        ("l'atelier de poterie", "l'atelier de poterie", "m", "s", "atelier", "activite"),
        ("l’atelier de poterie", "l'atelier de poterie", "m", "s", "atelier", "activite"),
        ("le spectacle de fin d'année", "le spectacle de fin d'année", "m", "s", "spectacle", "spectacle"),
        ("la sortie au parc", "la sortie au parc", "f", "s", "sortie", "sortie"),
        ("le marché de Noël", "le marché de Noël", "m", "s", "marché", "sortie"),
        ("la visite de la ferme", "la visite de la ferme", "f", "s", "visite", "sortie"),
        ("l'après-midi chez Tata", "l'après-midi chez Tata", "m", "s", "après-midi", "general"),
        ("l'école de musique", "l'école de musique", "f", "s", "école", "ecole"),
        ("l'anniversaire de Jules", "l'anniversaire de Jules", "m", "s", "anniversaire", "anniversaire"),
        ("l'anniversaire d'Inès", "l'anniversaire d'Inès", "m", "s", "anniversaire", "anniversaire"),
        ("les jeux au jardin", "les jeux au jardin", "m", "p", "jeux", "general"),
        ("les ateliers de cuisine", "les ateliers de cuisine", "m", "p", "ateliers", "activite"),
        ("le grand marché", "le grand marché", "m", "s", "marché", "sortie"),
        ("Le pique-nique au lac", "le pique-nique au lac", "m", "s", "pique-nique", "pique_nique"),
        ("le  match   de rugby", "le match de rugby", "m", "s", "match", "match"),
        ("la cabane dans les bois", "la cabane dans les bois", "f", "s", "cabane", "plein_air"),
        ("le concert de piano de Hugo", "le concert de piano de Hugo", "m", "s", "concert", "concert"),
        ("l'hôtel de ville", "l'hôtel de ville", "m", "s", "hôtel", "general"),
        ("le cours de poterie", "le cours de poterie", "m", "s", "cours", "activite"),
        // A lesson of something takes that something's kind.
        ("le cours de guitare", "le cours de guitare", "m", "s", "cours", "instrument"),
        ("le stage d'escalade", "le stage d'escalade", "m", "s", "stage", "grimpe"),
        ("le club de judo", "le club de judo", "m", "s", "club", "combat"),
    ])
    func labelsAreNounPhrasesWithTheirGrammarAndKind(_ label: String, _ phrase: String, _ gender: String, _ number: String,
                                                    _ head: String, _ kind: String) throws {
        switch try analyse(label) {
        case .failure(let refusal):
            Issue.record("\(label): refused, \(refusal)")
        case .success(let p):
            #expect(p.phrase == phrase)
            #expect(p.grammar.gender == Gender(rawValue: gender), "\(label)")
            #expect(p.grammar.number.rawValue == number, "\(label)")
            #expect(p.grammar.headNoun == head, "\(label)")
            #expect(p.inferredKind == kind, "\(label)")
            #expect(p.moment().kind == kind)
        }
    }

    /// label, the rule that refuses it.
    @Test(arguments: [
        ("LA FÊTE DE L'ÉCOLE!!! 🎉", "emoji"),
        ("la fête 🎈", "emoji"),
        ("la fête ❤", "emoji"),
        ("<script>alert(1)</script>", "markup"),
        ("la fête <b>de l'école</b>", "markup"),
        ("le dîner & les jeux", "markup"),
        ("la fête des 3 ans", "digits"),
        ("les vacances 2026", "digits"),
        ("la fête de l'école!!!", "repeated_punctuation"),
        ("la fête… de l'école", "repeated_punctuation"),
        ("la fête de l'école ?!", "repeated_punctuation"),
        ("la fête de l'école !", "punctuation"),
        ("la fête, enfin", "punctuation"),
        ("la fête de l'école.", "punctuation"),
        ("la fête de l'еcole", "character"),  // Cyrillic е
        ("LA FÊTE DE L'ÉCOLE", "upper_case"),
        ("la Fête de l'école", "upper_case"),
        ("la fête de L'ÉCOLE", "upper_case"),
        ("fete musique", "unknown_word"),
        ("la fete de la musique", "unknown_word"),
        ("le goûter chez Zorglub", "unknown_word"),
        ("le dîner chez mamie et la grande balade en forêt avec les cousins", "too_long"),
        ("sortie au parc", "missing_article"),
        ("une sortie au parc", "missing_article"),
        ("mon anniversaire", "missing_article"),
        ("la visite médicale", "register"),
        ("le bilan de santé", "register"),
        ("la pharmacie", "register"),
        ("le rendez-vous chez le pédiatre", "disqualifier_or_register"),
        ("la fête des morts", "register"),
        ("le vin chaud", "register"),
        ("la bagarre", "register"),
        ("la spectacle de danse", "article_agreement"),
        ("le fête", "article_agreement"),
        ("le atelier", "article_agreement"),
        ("l'dîner", "article_agreement"),
        ("la vacances", "article_agreement"),
        ("les fête", "article_agreement"),
        ("le de chez", "no_head_noun"),
        ("", "empty"),
        ("   ", "empty"),
    ])
    func labelsThatAreNotNounPhrasesAreRefusedByRule(_ label: String, _ rule: String) throws {
        switch try analyse(label) {
        case .success(let p):
            Issue.record("\(label): accepted as \(p.phrase)")
        case .failure(let refusal):
            if rule == "disqualifier_or_register" {
                #expect(["register", "disqualified"].contains(refusal.rule), "\(label): \(refusal)")
            } else {
                #expect(refusal.rule == rule, "\(label): \(refusal)")
            }
            #expect(refusal.description == refusal.description.lowercased() || refusal.description.contains("'"), "\(refusal)")
        }
    }

    @Test func theMedicalRefusalSaysWhy() throws {
        guard case .failure(let refusal) = try analyse("la visite médicale") else {
            Issue.record("accepted"); return
        }
        #expect(refusal == .forbiddenRegister(word: "médicale", category: "medical"))
        #expect(refusal.description == "'médicale' is a medical word (forbidden register 'medical'): dictee never writes about health")
    }

    @Test func namesAreTheFamilysOnly() throws {
        guard case .success(let p) = try analyse("le spectacle de Léa") else { Issue.record("refused"); return }
        #expect(p.names == ["Léa"] && p.moment().friendName == "Léa")
        guard case .success(let q) = try analyse("les vacances chez Papi") else { Issue.record("refused"); return }
        #expect(q.names == ["Papi"])
        #expect(throws: Never.self) { _ = try analyse("la sortie chez Mamie") }
        guard case .failure(let r) = try analyse("la sortie chez Zoé") else { Issue.record("accepted"); return }
        #expect(r == .unknownWord("Zoé"))
    }

    /// The contractions and demonstratives of label phrases (Docs/domain.md §6).
    @Test(arguments: [
        ("le dîner chez Mamie", "au dîner chez Mamie", "du dîner chez Mamie", "ce dîner chez Mamie"),
        ("les vacances au ski", "aux vacances au ski", "des vacances au ski", "ces vacances au ski"),
        ("le spectacle de fin d'année", "au spectacle de fin d'année", "du spectacle de fin d'année", "ce spectacle de fin d'année"),
        ("la fête des Lumières", "à la fête des Lumières", "de la fête des Lumières", "cette fête des Lumières"),
        ("l'atelier de poterie", "à l'atelier de poterie", "de l'atelier de poterie", "cet atelier de poterie"),
        ("l'école de musique", "à l'école de musique", "de l'école de musique", "cette école de musique"),
        ("les jeux au jardin", "aux jeux au jardin", "des jeux au jardin", "ces jeux au jardin"),
    ])
    func labelPhrasesContract(_ label: String, _ a: String, _ de: String, _ ce: String) throws {
        guard case .success(let p) = try analyse(label) else { Issue.record("\(label) refused"); return }
        let m = p.moment()
        #expect(m.contracted(with: .a) == a)
        #expect(m.contracted(with: .de) == de)
        #expect(m.demonstrative == ce)
    }

    @Test func givenKindsAreCheckedWithTheNearestWord() {
        #expect(LabelPhrase.checkedKind("sortie") == .success("sortie"))
        #expect(LabelPhrase.checkedKind("Fete") == .success("fete"))
        #expect(LabelPhrase.checkedKind("sortei") == .failure(.unknownKind("sortei", nearest: "sortie")))
        guard case .failure(let r) = LabelPhrase.checkedKind("zzz") else { return }
        #expect(r.description.contains("the kinds are activite, animaux, anniversaire"))
    }

    @Test func theKindTableCoversCommonHeadNounsWithKnownKinds() throws {
        let table = try LabelKinds.load()
        #expect(table.kinds.count >= 80)
        let library = try Library.bundled()
        #expect(Set(LabelPhrase.kinds) == Set(library.knownKinds))
        for noun in ["dîner", "repas", "goûter", "fête", "visite", "voyage", "séjour", "journée", "après-midi", "promenade", "balade",
                     "course", "cours", "stage", "atelier", "spectacle", "concert", "match", "tournoi", "sortie", "pique-nique",
                     "marché", "parc", "jardin", "ferme", "château", "cabane"] {
            #expect(table.kinds[noun] != nil, "\(noun)")
        }
        #expect(throws: LibraryError.unknownKind("fête", file: "k.tsv", line: 1)) { try LabelKinds.parse("bal\tfête\n", file: "k.tsv") }
        #expect(throws: LibraryError.malformedKinds(file: "k.tsv", line: 2)) { try LabelKinds.parse("bal\tfete\nbal\tsortie\n", file: "k.tsv") }
    }

    @Test func labelsFitTheirKindAndGeneralTextsAndWhitelistPhrasesKeepTheirs() throws {
        let library = try Library.bundled()
        guard case .success(let p) = try analyse("la fête des voisins") else { Issue.record("refused"); return }
        #expect(library.kinds(of: p.moment()) == ["fete", "general"])
        guard case .success(let lights) = try analyse("la fête des Lumières") else { Issue.record("refused"); return }
        #expect(library.kinds(of: lights.moment()) == ["general"])
        #expect(library.kinds(of: p.moment(kind: "general")) == ["general"])
        let piscine = MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
        #expect(library.kinds(of: piscine) == ["nage"])
        let old = MomentPhrase(phrase: "piscine avec papi", grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "papi"))
        #expect(library.kinds(of: old) == ["general"])
        for grade in Grade.allCases {
            let general = library.texts(for: grade, fitting: p.moment(kind: "general"))
            #expect(general.count >= 2, "\(grade.rawValue): \(general.count) general texts")
            #expect(general.allSatisfy { $0.kinds == ["general"] })
        }
    }

    /// The labels the library is proven with are what `LabelPhrase` makes of them.
    @Test func theLibrarysSampleLabelsAreWhatTheAnalysisGives() throws {
        for sample in Library.sampleLabels {
            guard case .success(let p) = try analyse(sample.phrase) else { Issue.record("\(sample.phrase) refused"); continue }
            #expect(p.moment() == sample, "\(sample.phrase)")
        }
    }
}
