import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import Dictation
@testable import French
import PrivacyFilter

/// The validator's eight steps, each with texts that pass and texts that fail, and the French
/// sentence a writer gets back.
@Suite struct ValidatorTests {
    static let lea = Child(firstName: "Léa", gender: .feminine, grade: .ce2)
    static let tom = Child(firstName: "Tom", gender: .masculine, grade: .ce2)
    static let piscine = MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
    static let judo = MomentPhrase(phrase: "le cours de judo", grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "cours"))

    static let goodCE2 = """
        Samedi, Léa est allée à la sortie piscine avec sa classe. Elle a mis son maillot bleu et \
        elle a nagé avec ses amies. L'eau était chaude. À midi, les enfants ont mangé des pommes au \
        bord du bassin. Le soir, Léa est rentrée à la maison. Elle a raconté sa journée à sa famille.
        """

    func plan(_ child: Child = lea, _ moment: MomentPhrase = piscine, _ targets: [SkillID] = [.homophonesAA, .accordPPEtre]) -> DictationPlan {
        DictationPlan(child: child, moment: moment, targets: targets)
    }

    func steps(_ findings: [Finding]) -> [ValidationStep] { findings.map(\.step) }

    @Test func aCorrectTextPassesEveryStep() throws {
        let findings = try TestValidator.shared().check(Draft(text: Self.goodCE2), plan: plan())
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test func findingsComeInStepOrderAndBatchesStayAligned() throws {
        let v = try TestValidator.shared()
        let bad = "léa mangea une grenouile."
        let results = v.check([(Draft(text: Self.goodCE2), plan()), (Draft(text: bad), plan()), (Draft(text: Self.goodCE2), plan())])
        #expect(results.count == 3)
        #expect(results[0].isEmpty && results[2].isEmpty)
        let order = results[1].map { ValidationStep.allCases.firstIndex(of: $0.step)! }
        #expect(order == order.sorted())
        #expect(Set(steps(results[1])).isSuperset(of: [.temps, .longueur, .competences, .prenom, .moment, .orthographeGrammaire]))
    }

    // 1. vocabulaire
    @Test func rareWordsAreListedAndGivenWordsAreAllowed() throws {
        let v = try TestValidator.shared()
        let text = Self.goodCE2.replacingOccurrences(of: "maillot bleu", with: "maillot céruléen")
        let f = v.check(Draft(text: text), plan: plan()).filter { $0.step == .vocabulaire }
        #expect(f.count == 1)
        #expect(f.first?.message.contains("« céruléen »") == true)
        // The moment's words and family words are "mots donnés", however rare.
        let accro = MomentPhrase(phrase: "la sortie accrobranche", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
        let given = Self.goodCE2.replacingOccurrences(of: "la sortie piscine", with: "la sortie accrobranche")
            .replacingOccurrences(of: "son papa", with: "son tonton")
        #expect(v.check(Draft(text: given), plan: plan(Self.lea, accro)).filter { $0.step == .vocabulaire }.isEmpty)
    }

    // 2. temps
    @Test(arguments: [
        (Grade.ce1, "Léa mangeait une pomme.", true),
        (Grade.ce2, "Léa mangeait une pomme.", false),
        (Grade.ce1, "Léa est partie au cours.", true),
        (Grade.ce2, "Léa est partie au cours.", false),
        (Grade.ce1, "Léa a mangé une pomme.", false),
        (Grade.ce1, "Demain, Léa mangera une pomme.", false),
        (Grade.cp, "Demain, Léa mangera une pomme.", true),
        (Grade.ce2, "Léa mangea une pomme.", true),
        (Grade.cm1, "Léa mangea une pomme.", false),
        (Grade.cm1, "Léa avait mangé une pomme.", true),
        (Grade.cm2, "Léa avait mangé une pomme.", false),
        (Grade.cm1, "Léa mangerait une pomme.", true),
        (Grade.cm2, "Léa mangerait une pomme.", false),
        (Grade.cm2, "Il faut que Léa vienne.", true),
        (Grade.cp, "Léa finit sa pomme.", true),
        (Grade.cp, "Léa va à la piscine.", false),
        (Grade.ce2, "La porte est fermée.", false),
    ])
    func tensesFollowTheGrade(_ grade: Grade, _ sentence: String, _ fails: Bool) throws {
        let child = Child(firstName: "Léa", gender: .feminine, grade: grade)
        let f = try TestValidator.shared().check(Draft(text: sentence), plan: plan(child, Self.piscine, [])).filter { $0.step == .temps }
        #expect(f.isEmpty != fails, "\(f)")
    }

    @Test func tenseMessagesNameTheVerbAndTheAllowedTenses() throws {
        let child = Child(firstName: "Léa", gender: .feminine, grade: .ce1)
        let f = try TestValidator.shared().check(Draft(text: "Léa mangeait une pomme."), plan: plan(child, Self.piscine, [])).filter { $0.step == .temps }
        #expect(f.first?.message == "Le verbe « mangeait » est à l'imparfait, un temps qui n'est pas au programme de CE1 ; écris au présent, au futur ou au passé composé avec avoir.")
    }

    // 3. longueur
    @Test func lengthMessagesGiveTheCountAndTheRange() throws {
        let v = try TestValidator.shared()
        let p = DictationPlan(child: Self.lea, moment: Self.piscine, targets: [], words: 55...75, sentences: 1...6, maxWordsPerSentence: 14, sitesPerTarget: 2)
        let text = "Samedi, Léa est allée à la sortie piscine avec sa classe. Elle a nagé avec ses amies dans l'eau. Le soir, elle a raconté sa journée à papa."
        let f = v.check(Draft(text: text), plan: p).filter { $0.step == .longueur }
        #expect(f.map(\.message) == ["Le texte compte 29 mots ; il en faut entre 55 et 75."])
        let long = v.check(Draft(text: Self.goodCE2.replacingOccurrences(of: "Le soir, Léa est rentrée à la maison.", with: "Le soir, Léa est rentrée à la maison avec sa maman et son papa dans la grande voiture.")), plan: plan())
        #expect(long.filter { $0.step == .longueur }.map(\.message).contains("La phrase 5 compte 18 mots ; une phrase ne doit pas dépasser 14 mots en CE2."))
        let many = String(repeating: "Léa nage. ", count: 13)
        let tooMany = v.check(Draft(text: many), plan: p).filter { $0.step == .longueur }.map(\.message)
        #expect(tooMany.contains("Le texte compte 13 phrases ; il en faut entre 1 et 6."))
        // The hard cap: never more than 12 sentences, whatever the plan says.
        let capped = DictationPlan(child: Self.lea, moment: Self.piscine, targets: [], words: 1...200, sentences: 1...20, maxWordsPerSentence: 14, sitesPerTarget: 2)
        #expect(capped.sentences == 1...12)
    }

    // 4. registre
    @Test(arguments: [
        ("Léa a vu un concert.", false), ("Léa fait un calcul.", false), ("Léa a vingt billes.", false),
        ("Léa range son armoire.", false), ("La nuit tombe sur la ville.", false), ("Léa habite ici.", false),
        ("Ils disputent un match.", false), ("Le chat est mort.", true), ("Léa voit une tombe.", true),
        ("Léa a un fusil.", true), ("Le pirate veut tuer le roi.", true), ("Ils ont bu du vin.", true),
        ("Tom est malade.", true), ("Quelle dispute !", true), ("Léa frappe son voisin.", true), ("Léa frappe à la porte.", false),
    ])
    func forbiddenRegistersAreWholeTokensOrLemmas(_ sentence: String, _ fails: Bool) throws {
        let f = try TestValidator.shared().check(Draft(text: sentence), plan: plan()).filter { $0.step == .registre }
        #expect(f.isEmpty != fails, "\(f)")
    }

    // 5. competences
    @Test func eachTargetNeedsItsTrapSites() throws {
        let v = try TestValidator.shared()
        let p = DictationPlan(child: Self.lea, moment: Self.piscine, targets: [.homophonesAA, .homophonesOnOnt, .passeSimple3ePersonne], sitesPerTarget: 2)
        let f = v.check(Draft(text: Self.goodCE2), plan: p).filter { $0.step == .competences }
        #expect(f.count == 2)
        #expect(f.first?.message.hasPrefix("Le texte doit travailler « homophones on / ont » au moins 2 fois ; il n'y en a qu'une") == true)
        #expect(f.last?.message.contains("passé simple") == true)
    }

    // 6. prenom
    @Test func theNameMustAppearCapitalisedAndAgreeWithTheChild() throws {
        let v = try TestValidator.shared()
        let noName = Self.goodCE2.replacingOccurrences(of: "Léa", with: "Elle")
        #expect(v.check(Draft(text: noName), plan: plan()).filter { $0.step == .prenom }.map(\.message)
            == ["Le texte doit parler de l'enfant par son prénom : écris « Léa » au moins une fois."])
        let lower = Self.goodCE2.replacingOccurrences(of: "Le soir, Léa", with: "Le soir, léa").replacingOccurrences(of: "Samedi, Léa", with: "Samedi, léa")
        #expect(v.check(Draft(text: lower), plan: plan()).filter { $0.step == .prenom }.map(\.message) == ["Le prénom s'écrit avec une majuscule : « Léa »."])
        let wrong = Self.goodCE2.replacingOccurrences(of: "Léa est allée", with: "Léa est allé")
        let f = v.check(Draft(text: wrong), plan: plan())
        #expect(f.filter { $0.step == .prenom }.map(\.message) == ["Léa est une fille : écris « Léa est allée » et non « Léa est allé »."])
        // Tom is a boy: "Tom est allée" fails both the agreement check and Grammalecte.
        let boy = wrong.replacingOccurrences(of: "Léa", with: "Tom").replacingOccurrences(of: "Tom est allé ", with: "Tom est allée ")
            .replacingOccurrences(of: "rentrée", with: "rentré").replacingOccurrences(of: "amies", with: "amis")
            .replacingOccurrences(of: "Elle", with: "Il")
        let b = v.check(Draft(text: boy), plan: plan(Self.tom))
        #expect(b.filter { $0.step == .prenom }.map(\.message) == ["Tom est un garçon : écris « Tom est allé » et non « Tom est allée »."])
        #expect(v.check(Draft(text: "Léa ne semble pas contente. Léa s'est levée tôt."), plan: plan()).filter { $0.step == .prenom }.isEmpty)
        #expect(!v.check(Draft(text: "Léa s'est levé tôt."), plan: plan()).filter { $0.step == .prenom }.isEmpty)
    }

    // 7. moment
    @Test func theMomentIsMentionedWithTheRightContraction() throws {
        let v = try TestValidator.shared()
        func momentFindings(_ text: String, _ m: MomentPhrase) -> [String] {
            // moment_sujet (the words of the moment's kinds) has its own tests (MomentDateTests).
            v.check(Draft(text: text), plan: plan(Self.lea, m, [])).filter { $0.step == .moment && $0.rule != "moment_sujet" }.map(\.message)
        }
        #expect(momentFindings("Léa va au cours de judo.", Self.judo).isEmpty)
        #expect(momentFindings("Léa aime son cours.", Self.judo).isEmpty)
        #expect(momentFindings("Léa va à le cours de judo.", Self.judo) == ["Écris « au cours de judo » et non « à le cours de judo »."])
        #expect(momentFindings("Léa joue dans le jardin.", Self.judo)
            == ["Le texte doit parler du moment « le cours de judo » : écris par exemple « au cours de judo » ou au moins « cours » ou « judo »."])
        let vacances = MomentPhrase(phrase: "les vacances", grammar: PhraseGrammar(gender: .feminine, number: .plural, headNoun: "vacances"))
        #expect(momentFindings("Léa pense à les vacances.", vacances) == ["Écris « aux vacances » et non « à les vacances »."])
        #expect(momentFindings("Léa parle des vacances.", vacances).isEmpty)
    }

    // 8. orthographe_grammaire
    @Test func spellingAndGrammarErrorsFail() throws {
        let v = try TestValidator.shared()
        let misspelt = Self.goodCE2.replacingOccurrences(of: "pommes", with: "pomes")
        #expect(v.check(Draft(text: misspelt), plan: plan()).filter { $0.step == .orthographeGrammaire }.first?.message.contains("« pomes »") == true)
        let agreement = Self.goodCE2.replacingOccurrences(of: "les enfants ont mangé", with: "les enfants ont mangés")
        let f = v.check(Draft(text: agreement), plan: plan()).filter { $0.step == .orthographeGrammaire }
        #expect(f.count == 1)
        #expect(f.first?.message.hasPrefix("Grammalecte signale « mangés »") == true)
        // Typography (straight apostrophes, missing non-breaking spaces) is not an error.
        #expect(v.check(Draft(text: Self.goodCE2 + " Quelle belle journée !"), plan: plan()).filter { $0.step == .orthographeGrammaire }.isEmpty)
    }

    @Test func withoutGrammalecteNoTextPasses() throws {
        let base = try TestValidator.shared()
        let v = Validator(lexicon: base.lexicon, spelling: base.spelling, grammar: .unavailable("grammalecte-cli n'est pas installé"), registers: Whitelist.bundledRegisters)
        let f = v.check(Draft(text: Self.goodCE2), plan: plan())
        #expect(f.map(\.step) == [.orthographeGrammaire])
        #expect(f.first?.message.contains("aucun texte ne peut être validé") == true)
        let broken = Validator(lexicon: base.lexicon, spelling: base.spelling,
                               grammar: .checker(GrammarChecker(executable: URL(fileURLWithPath: "/nonexistent/python3"))),
                               registers: Whitelist.bundledRegisters)
        #expect(broken.check(Draft(text: Self.goodCE2), plan: plan()).map(\.step) == [.orthographeGrammaire])
    }

    @Test func stepIdentifiersAreTheContract() {
        #expect(ValidationStep.allCases.map(\.rawValue) == [
            "vocabulaire", "temps", "longueur", "registre", "competences", "prenom", "moment", "orthographe_grammaire",
        ])
    }
}

enum TestValidator {
    static let root = repositoryRoot
    nonisolated(unsafe) static var cached: Validator?
    static let lock = NSLock()

    /// The real validator: installed Lexique table, Hunspell's French dictionary, Grammalecte.
    /// A missing piece fails the test with what to run (never a silent skip).
    static func shared() throws -> Validator {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let url = root.appendingPathComponent("Data/lexique-3.83.bin")
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record("Data/lexique-3.83.bin is missing: run Scripts/setup")
            throw CancellationError()
        }
        guard GrammarChecker.isAvailable() else {
            Issue.record("Grammalecte (python3-grammalecte) is not installed: run Scripts/setup")
            throw CancellationError()
        }
        let v = Validator(lexicon: try Lexicon(contentsOf: url), spelling: try SpellChecker.french(),
                          grammar: .checker(GrammarChecker()), registers: Whitelist.bundledRegisters)
        cached = v
        return v
    }
}

/// Findings of the adversarial review (wrong passes), each now a failing case.
@Suite struct ValidatorReviewTests {
    static let lea = ValidatorTests.lea
    func findings(_ text: String, grade: Grade = .ce2, gender: Gender = .feminine, name: String = "Léa",
                  moment: MomentPhrase = ValidatorTests.piscine) throws -> [Finding] {
        let child = Child(firstName: name, gender: gender, grade: grade)
        return try TestValidator.shared().check(Draft(text: text), plan: DictationPlan(child: child, moment: moment, targets: []))
    }
    func fails(_ text: String, _ step: ValidationStep, grade: Grade = .ce2, gender: Gender = .feminine, name: String = "Léa",
               moment: MomentPhrase = ValidatorTests.piscine) throws -> Bool {
        // moment_sujet (the words of the moment's kinds) has its own tests (MomentDateTests):
        // these one-sentence texts are not about their moment's activity.
        try findings(text, grade: grade, gender: gender, name: name, moment: moment).contains { $0.step == step && $0.rule != "moment_sujet" }
    }

    @Test(arguments: ["« Tue-le ! » crie Léa.", "Papa a TUÉ le chat.", "Le chanteur Mourut.", "Papa est mourant.",
                      "Léa dit cul.", "Le pirate va poigNarder le roi.", "Il boit du whisky."])
    func registersWhateverTheCaseOrForm(_ text: String) throws {
        #expect(try fails(text, .registre, grade: .cm2))
    }

    @Test(arguments: [
        ("Regarde le tapis bleu !", Grade.cp), ("Mets ta robe rose, Léa !", .ce1), ("Léa, viens vite !", .ce2),
        ("Il fallait que les canards mangent.", .ce2), ("Il a eu fini tôt.", .cm2), ("Il faut que nous chantions encore.", .cm2),
    ])
    func imperativeSubjunctiveAndSurcompose(_ text: String, _ grade: Grade) throws {
        #expect(try fails(text, .temps, grade: grade))
    }

    @Test func imperativeIsFineFromCM1() throws {
        #expect(try !fails("Léa, viens vite !", .temps, grade: .cm1))
        #expect(try !fails("Léa chante et danse.", .temps, grade: .ce1))
    }

    @Test(arguments: [
        "Nous a nagé.", "Il à froid.", "Léa à froid.", "Léa mange ça pomme.", "Léa entre dans l'maison.",
        "Les enfants nage dans la piscine.", "Le chat dorment.", "Léa nage\u{202E} vite.", "Léa nage 😀.",
        "Léa nage", "Léa nage. le soir, elle dort.", "LÉA NAGE.", "Léa nage le Soir.", "L\"eau est chaude.",
        "S'est une belle journée.", "Léa peu nager vite.", "Léa est restée la longtemps.", "Léa ni voyait rien.",
        "Léa et ses amies nage.", "Le maître et la maîtresse regarde les enfants.",
    ])
    func agreementsHomophonesCharactersAndPunctuation(_ text: String) throws {
        #expect(try fails(text, .orthographeGrammaire), "\(text)")
    }

    @Test(arguments: [
        "Léa et sa cousine rigolent.", "Son sac et son manteau étaient prêts.", "Ses amis et elle étaient contents.",
        "Maman dit : « Reste près de moi ! »", "Le soir, Léa joue à Paris avec papi.", "Léa et Tom nagent.",
        "Léa la regarde longtemps.", "Il sait bien que nous chantons.", "Léa peut nager.",
    ])
    func correctSentencesStayCorrect(_ text: String) throws {
        let f = try findings(text).filter { $0.step == .orthographeGrammaire }
        #expect(f.isEmpty, "\(f)")
    }

    @Test func theMomentMustBeThisMoment() throws {
        let judo = ValidatorTests.judo
        #expect(try fails("Léa va au cours de danse.", .moment, moment: judo))
        #expect(try fails("Léa va à la cours de judo.", .moment, moment: judo))
        #expect(try fails("Léa part pour la sortie ski.", .moment))
        #expect(try !fails("Léa va au cours de judo. Le cours de danse est fini.", .moment, moment: judo))
        let zoo = MomentPhrase(phrase: "la visite du zoo", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "visite"))
        #expect(try !fails("Léa parle du zoo.", .moment, moment: zoo))
    }

    @Test func agreementMessagesOnlySuggestRealWords() throws {
        let f = try findings("Léa est doux.").filter { $0.step == .prenom }.map(\.message)
        #expect(f == ["Léa est une fille : écris « Léa est douce » et non « Léa est doux »."])
        let g = try findings("Léa est gentil.").filter { $0.step == .prenom }.map(\.message)
        #expect(g == ["Léa est une fille : écris « Léa est gentille » et non « Léa est gentil »."])
        let b = try findings("Tom est douce.", gender: .masculine, name: "Tom").filter { $0.step == .prenom }.map(\.message)
        #expect(b == ["Tom est un garçon : écris « Tom est doux » et non « Tom est douce »."])
        #expect(try findings("Léa est vite tombée.").filter { $0.step == .prenom }.isEmpty)
        #expect(try fails("Léa est toute content.", .prenom))
        #expect(try fails("Tom est une bonne amie.", .prenom, gender: .masculine, name: "Tom"))
        #expect(try fails("Tom est la meilleure.", .prenom, gender: .masculine, name: "Tom"))
        #expect(try !fails("Tom est une star.", .prenom, gender: .masculine, name: "Tom"))
        #expect(try !fails("Léa est une bonne amie.", .prenom))
    }

    @Test func childWordsAndHyphenatedWordsAreCommonEnough() throws {
        for text in ["Léa glisse sur le toboggan.", "Léa joue l'après-midi.", "Est-ce que Léa nage ?", "Léa voit papi."] {
            let f = try findings(text, grade: .cp).filter { $0.step == .vocabulaire || $0.step == .orthographeGrammaire }
            #expect(f.isEmpty, "\(text): \(f)")
        }
    }

    /// Correct sentences the second review saw rejected: (grade, sentence, step that must stay quiet).
    @Test(arguments: [
        (Grade.cm1, "Inès fut surprise et son frère en fut ravi.", ValidationStep.temps),
        (.cm2, "Quand son nom fut appelé, Léa se leva.", .temps),
        (.cp, "Adam n'a plus faim.", .temps),
        (.ce1, "Il n'y a plus de gâteau.", .temps),
        (.ce1, "Son professeur l'a pris en photo.", .temps),
        (.ce2, "Le professeur leur a appris une prise.", .temps),
        (.ce1, "Papa les a mis dans le sac.", .temps),
        (.ce1, "Quel beau but !", .temps),
        (.ce2, "Le frère de Léa est venu aussi.", .prenom),
        (.ce2, "Les parents de Léa sont contents.", .prenom),
        (.cp, "Léa est un vrai poisson !", .prenom),
        (.ce2, "La plupart des enfants nagent parce que l'eau est chaude.", .vocabulaire),
        (.ce1, "« Ça y est, je sais ! » dit Léa.", .orthographeGrammaire),
        (.ce1, "Ni Léa ni ses copains n'ont peur.", .orthographeGrammaire),
        (.cm1, "Les spectateurs qui étaient derrière elle se mirent à rire.", .orthographeGrammaire),
        (.cp, "Ses amis chantent à tue-tête.", .registre),
        (.cm1, "La fumée leur piquait les yeux.", .registre),
        (.ce1, "Léa est en CE1.", .orthographeGrammaire),
        (.cm2, "Léa aime les vacances de Pâques.", .vocabulaire),
    ])
    func correctSentencesFromTheSecondReview(_ grade: Grade, _ text: String, _ step: ValidationStep) throws {
        let f = try findings(text, grade: grade).filter { $0.step == step }
        #expect(f.isEmpty, "\(text): \(f)")
    }

    @Test func momentComplementsThatAreTimesOrAcrossASentenceEnd() throws {
        let anniv = MomentPhrase(phrase: "l'anniversaire de Tom", grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "anniversaire"), friendName: "Tom")
        #expect(try !fails("C'est son anniversaire. D'abord, Léa a soufflé les bougies.", .moment, moment: anniv))
        let match = MomentPhrase(phrase: "le match de foot", grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "match"))
        #expect(try !fails("Le match de samedi était super.", .moment, moment: match))
        #expect(try fails("Le match de tennis était super.", .moment, moment: match))
    }

    @Test(arguments: ["Léa est allée a la piscine.", "Elle a parlé de les pommes.", "Les enfants ce sont régalés.", "C'est Léa qui est rentré."])
    func wrongPassesFromTheSecondReview(_ text: String) throws {
        let f = try findings(text).filter { $0.step == .orthographeGrammaire || $0.step == .prenom }
        #expect(!f.isEmpty, "\(text)")
    }
}
