import DicteeCore
import Foundation
import Testing
@testable import Dictation
import French
import PrivacyFilter

/// The handwritten library (Docs/library-format.md): the renderer's marks, the parser's errors,
/// the bundled texts' coverage, and the validator on every rendering.
@Suite struct LibraryTextTests {
    static func moment(_ phrase: String, _ gender: Gender, _ number: PhraseGrammar.Number = .singular, head: String = "x", friend: String? = nil) -> MomentPhrase {
        MomentPhrase(phrase: phrase, grammar: PhraseGrammar(gender: gender, number: number, headNoun: head), friendName: friend)
    }
    static let piscine = moment("la sortie piscine", .feminine, head: "sortie")
    static let judo = moment("le cours de judo", .masculine, head: "cours")
    static let anniversaireTom = moment("l'anniversaire de Tom", .masculine, head: "anniversaire", friend: "Tom")
    static let vacances = moment("les vacances", .feminine, .plural, head: "vacances")

    func render(_ template: String, _ name: String = "Léa", _ gender: Gender = .feminine, moment: MomentPhrase = piscine) throws -> String {
        try LibraryText(id: "t", grade: .cm2, skills: [], kinds: ["sortie"], template: template)
            .render(firstName: name, gender: gender, moment: moment)
    }

    // MARK: marks

    @Test(arguments: [
        ("{Prenom} est parti{e}.", "Léa est partie.", "Tom est parti."),
        ("{g:Il|Elle} est {g:heureux|heureuse}.", "Elle est heureuse.", "Il est heureux."),
        ("C'est {g:un garçon|une fille}.", "C'est une fille.", "C'est un garçon."),
        ("Les amis {de Prenom} rient.", "Les amis de Léa rient.", "Les amis de Tom rient."),
        ("Il dit {que Prenom} chante.", "Il dit que Léa chante.", "Il dit que Tom chante."),
        ("{Moment} {M:est fini|est finie|sont finis|sont finies}.", "La sortie piscine est finie.", "La sortie piscine est finie."),
        ("{Prenom} va {à moment}.", "Léa va à la sortie piscine.", "Tom va à la sortie piscine."),
        ("{Prenom} parle {de moment}.", "Léa parle de la sortie piscine.", "Tom parle de la sortie piscine."),
        ("{Ce moment} a plu {à moment}, {ce moment} aussi.", "Cette sortie piscine a plu à la sortie piscine, cette sortie piscine aussi.",
         "Cette sortie piscine a plu à la sortie piscine, cette sortie piscine aussi."),
        ("{À moment}, {g:il|elle} nage. {De moment}, rien.", "À la sortie piscine, elle nage. De la sortie piscine, rien.",
         "À la sortie piscine, il nage. De la sortie piscine, rien."),
        ("{moment}", "la sortie piscine", "la sortie piscine"),
    ])
    func everyMarkRendersForBothGenders(_ template: String, _ girl: String, _ boy: String) throws {
        #expect(try render(template, "Léa", .feminine) == girl)
        #expect(try render(template, "Tom", .masculine) == boy)
    }

    @Test(arguments: [
        ("Inès", "d'Inès", "qu'Inès"), ("Hugo", "d'Hugo", "qu'Hugo"), ("Hélène", "d'Hélène", "qu'Hélène"),
        ("Élise", "d'Élise", "qu'Élise"), ("Yves", "d'Yves", "qu'Yves"), ("Yanis", "de Yanis", "que Yanis"),
        ("Léa", "de Léa", "que Léa"), ("Tom", "de Tom", "que Tom"),
    ])
    func deAndQueElideBeforeAVowelOrAMuteH(_ name: String, _ de: String, _ que: String) throws {
        #expect(try render("{de Prenom}", name) == de)
        #expect(try render("{que Prenom}", name) == que)
    }

    @Test(arguments: [
        (judo, "au cours de judo", "du cours de judo", "ce cours de judo", "Au cours de judo"),
        (piscine, "à la sortie piscine", "de la sortie piscine", "cette sortie piscine", "À la sortie piscine"),
        (anniversaireTom, "à l'anniversaire de Tom", "de l'anniversaire de Tom", "cet anniversaire de Tom", "À l'anniversaire de Tom"),
        (vacances, "aux vacances", "des vacances", "ces vacances", "Aux vacances"),
        (moment("l'entraînement de foot", .masculine), "à l'entraînement de foot", "de l'entraînement de foot", "cet entraînement de foot", "À l'entraînement de foot"),
        (moment("l'école", .feminine), "à l'école", "de l'école", "cette école", "À l'école"),
        (moment("les vacances chez mamie", .feminine, .plural, friend: "mamie"), "aux vacances chez mamie", "des vacances chez mamie", "ces vacances chez mamie", "Aux vacances chez mamie"),
    ])
    func articlesContractAndTakeTheDemonstrative(_ m: MomentPhrase, _ a: String, _ de: String, _ ce: String, _ capitalA: String) throws {
        #expect(try render("{à moment}", moment: m) == a)
        #expect(try render("{de moment}", moment: m) == de)
        #expect(try render("{ce moment}", moment: m) == ce)
        #expect(try render("{À moment}", moment: m) == capitalA)
        #expect(try render("{Ce moment}", moment: m) == ce.prefix(1).uppercased() + ce.dropFirst())
        #expect(try render("{Moment}", moment: m) == m.phrase.prefix(1).uppercased() + m.phrase.dropFirst())
    }

    @Test(arguments: [(judo, "génial"), (piscine, "géniale"), (moment("les ateliers", .masculine, .plural), "géniaux"), (vacances, "géniales")])
    func momentAgreementsFollowGenderAndNumber(_ m: MomentPhrase, _ expected: String) throws {
        #expect(try render("{M:génial|géniale|géniaux|géniales}", moment: m) == expected)
    }

    @Test func typographicApostrophesInThePhraseComeOutStraight() throws {
        #expect(try render("{ce moment} / {de moment}", moment: Self.moment("l’anniversaire", .masculine)) == "cet anniversaire / de l'anniversaire")
    }

    @Test func aPhraseWithoutArticleOrAnEmptyNameThrows() throws {
        let label = Self.moment("piscine avec papi", .feminine)
        #expect(throws: LibraryError.momentWithoutArticle) { try render("{Prenom} va {à moment}.", moment: label) }
        #expect(try render("{Prenom} aime {moment}.", moment: label) == "Léa aime piscine avec papi.")
        #expect(throws: LibraryError.emptyFirstName) { try render("{Prenom}.", " ") }
    }

    // MARK: parsing

    static let good = """
        # a comment
        === cp-test-01
        grade: CP
        skills: majuscule_ponctuation
        fits: sortie, fete
        time: any
        {Prenom} va {à moment}.
        {g:Il|Elle} est content{e} !

        === cp-test-02
        grade: cp
        skills: majuscule_ponctuation, m_devant_m_b_p
        fits: sejour
        time: coming
        ends: no
        {Prenom} emporte sa lampe.
        """

    @Test func aFileParsesIntoTexts() throws {
        let lib = try Library(parsing: Self.good, file: "cp.txt")
        #expect(lib.texts.map(\.id) == ["cp-test-01", "cp-test-02"])
        let t = lib.texts[0]
        #expect(t.grade == .cp && t.skills == [.majusculePonctuation] && t.kinds == ["sortie", "fete"])
        #expect(t.template == "{Prenom} va {à moment}. {g:Il|Elle} est content{e} !")
        #expect(t.fits(["fete", "ecole"]) && !t.fits(["ecole"]))
        #expect(lib.texts[1].grade == .cp && lib.texts[1].skills == [.majusculePonctuation, .mDevantMBP])
    }

    @Test(arguments: [
        ("=== a\ngrade: CP\nskills: majuscule_ponctuation, homophone_a\nfits: sortie\ntime: any\nTexte.", LibraryError.unknownSkill("homophone_a", file: "bad.txt", line: 3)),
        ("=== a\ngrade: CE3\nskills: majuscule_ponctuation\nfits: sortie\ntime: any\nTexte.", .unknownGrade("CE3", file: "bad.txt", line: 2)),
        ("=== a\ngrade: CP\nskills: majuscule_ponctuation\nfits: sortie\ntime: any\n{Prenom} va.\n{Prénom} va.", .unknownMark("Prénom", file: "bad.txt", line: 7)),
        ("=== a\ngrade: CP\nskills: majuscule_ponctuation\nfits: sortie\ntime: any\n{M:a|b} va.", .unknownMark("M:a|b", file: "bad.txt", line: 6)),
        ("=== a\ngrade: CP\nskills: majuscule_ponctuation\nfits: sortie\ntime: any\nTexte.\n{Prenom va.", .unbalancedBrace(file: "bad.txt", line: 7)),
        ("=== a\ngrade: CP\nskills: majuscule_ponctuation\nfits: sortie\ntime: any\nPrenom} va.", .unbalancedBrace(file: "bad.txt", line: 6)),
        ("=== a\ngrade: CP\nskills: majuscule_ponctuation\nfits: sortie\ntime: any\nTexte.\n\n=== a\ngrade: CP\nskills: majuscule_ponctuation\nfits: sortie\ntime: any\nTexte.",
         .duplicateID("a", file: "bad.txt", line: 8)),
        ("=== a\ngrade: CP\nskills: majuscule_ponctuation\nfits: sortie\nTexte.", .missingField("time", file: "bad.txt", line: 1)),
        ("=== a\ngrade: CP\nskills: majuscule_ponctuation\nfits: sortie\ntime: hier\nTexte.", .unknownTime("hier", file: "bad.txt", line: 5)),
        ("=== a\ngrade: CE1\nskills: majuscule_ponctuation, accord_pp_etre\nfits: sortie\ntime: any\nTexte.", .skillNotTaught(.accordPPEtre, .ce1, file: "bad.txt", line: 3)),
        ("=== a\ngrade: CP\nfits: sortie\ntime: any\nTexte.", .missingField("skills", file: "bad.txt", line: 1)),
        ("=== a\ngrade: CP\nskills: majuscule_ponctuation\nfits: sortie\ntime: any\n", .missingField("template", file: "bad.txt", line: 1)),
        ("=== a\ngrade: CP\ngrade: CE1\nskills: majuscule_ponctuation\nfits: sortie\ntime: any\nTexte.", .duplicateField("grade", file: "bad.txt", line: 3)),
        ("Texte.\n=== a", .unexpectedLine(file: "bad.txt", line: 1)),
    ])
    func parseErrorsNameFileAndLine(_ source: String, _ expected: LibraryError) {
        #expect(throws: expected) { try Library(parsing: source, file: "bad.txt") }
        #expect(expected.description.hasPrefix("bad.txt:"))
    }

    /// Across the grade files (`library check --dir`): an id used twice and a kind no phrase has
    /// are named with the file and the line of the text's `===` header.
    @Test func bundledErrorsAcrossFilesNameFileAndLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func text(_ id: String, grade: String, fits: String) -> String {
            "=== \(id)\ngrade: \(grade)\nskills: majuscule_ponctuation\nfits: \(fits)\ntime: any\n{Prenom} aime {moment}.\n\n"
        }
        try (text("cp-a", grade: "CP", fits: "sortie") + text("cp-b", grade: "CP", fits: "sortie"))
            .write(to: dir.appendingPathComponent("cp.txt"), atomically: true, encoding: .utf8)
        try ("# commentaire\n\n" + text("ce1-a", grade: "CE1", fits: "sortie") + text("cp-b", grade: "CE1", fits: "sortie"))
            .write(to: dir.appendingPathComponent("ce1.txt"), atomically: true, encoding: .utf8)
        #expect(throws: LibraryError.duplicateID("cp-b", file: "ce1.txt", line: 10)) {
            try Library.bundled(directory: dir, grades: [.cp, .ce1])
        }
        try ("\n" + text("ce1-a", grade: "CE1", fits: "sortie") + text("ce1-b", grade: "CE1", fits: "planete"))
            .write(to: dir.appendingPathComponent("ce1.txt"), atomically: true, encoding: .utf8)
        #expect(throws: LibraryError.unknownKind("planete", file: "ce1.txt", line: 9)) {
            try Library.bundled(directory: dir, grades: [.cp, .ce1])
        }
        #expect(try Library.bundled(directory: dir, grades: [.cp]).texts.map(\.id) == ["cp-a", "cp-b"])
    }

    @Test func kindsFileErrorsNameTheLine() {
        #expect(throws: LibraryError.malformedKinds(file: "k.tsv", line: 3)) {
            try Library.parseKinds("phrase\tkinds\nla boum\tfete\nle bal fete\n", file: "k.tsv")
        }
        #expect(throws: LibraryError.malformedKinds(file: "k.tsv", line: 2)) {
            try Library.parseKinds("la boum\tfete\nla boum\tsortie\n", file: "k.tsv")
        }
    }

    // MARK: the bundled library


    /// Every canonical phrase of the whitelist, without and with a friend's name.

    @Test func theBundledLibraryParses() throws {
        let lib = try Library.bundled()
        #expect(lib.texts.count >= 75, "\(lib.texts.count) texts")
        #expect(Set(lib.texts.map(\.id)).count == lib.texts.count)
    }

    @Test func everyWhitelistPhraseHasKindsWithOrWithoutAFriend() throws {
        let lib = try Library.bundled()
        for p in Whitelist.bundled.canonicalPhrases {
            #expect(!lib.kinds(of: p.phrase).isEmpty, "\(p.phrase)")
        }
        #expect(lib.phraseKinds.count == Whitelist.bundled.canonicalPhrases.count)
        #expect(lib.kinds(of: "l'anniversaire de Tom") == lib.kinds(of: "l'anniversaire"))
        #expect(lib.kinds(of: "l'anniversaire d'Inès") == lib.kinds(of: "l'anniversaire"))
        #expect(lib.kinds(of: "les vacances chez mamie") == lib.kinds(of: "les vacances"))
        #expect(lib.kinds(of: "le goûter d'anniversaire de Tom") == lib.kinds(of: "le goûter d'anniversaire"))
        #expect(lib.kinds(of: "la sortie piscine") != lib.kinds(of: "la sortie scolaire"))
        #expect(lib.kinds(of: "piscine avec papi").isEmpty)
    }

    @Test func everyTaughtSkillHasTwoTextsAtEveryGrade() throws {
        let lib = try Library.bundled()
        for grade in Grade.allCases {
            for skill in SkillID.allCases where skill.isTaught(at: grade) {
                let n = lib.texts.filter { $0.grade == grade && $0.skills.contains(skill) }.count
                #expect(n >= 2, "\(skill.rawValue) in \(grade.rawValue): \(n) texts")
            }
        }
    }

    @Test func everyPhraseHasTextsAtEveryGrade() throws {
        let lib = try Library.bundled()
        let kinds = Set(lib.knownKinds).subtracting([Library.generalKind])
        for grade in Grade.allCases {
            for kind in kinds {
                #expect(lib.texts.contains { $0.grade == grade && $0.kinds.contains(kind) }, "\(kind) in \(grade.rawValue)")
            }
            for p in Whitelist.bundled.canonicalPhrases {
                #expect(!lib.texts(for: grade, fitting: p.phrase).isEmpty, "\(p.phrase) in \(grade.rawValue)")
            }
        }
    }

    /// Every rendering of the library proof (`Library.renderings`): no mark left, the name kept.
    @Test func noRenderingLeavesABraceOrLosesTheName() throws {
        let all = try Library.bundled().renderings(phrases: LibraryValidationTests.phrases)
        #expect(all.count > 1000)
        for r in all {
            let rendered = r.draft.text
            #expect(!rendered.contains("{") && !rendered.contains("}"), "\(r.text.id): \(rendered)")
            #expect(rendered.contains(r.plan.child.firstName), "\(r.text.id)")
            #expect(!rendered.contains("  "), "\(r.text.id)")
        }
    }
}

// The validator over every rendering: LibraryValidationTests.swift.
