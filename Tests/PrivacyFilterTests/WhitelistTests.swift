import DicteeCore
import Foundation
import Testing
@testable import PrivacyFilter
import DicteeTestSupport

@Suite("Whitelist: the rule files an auditor reads")
struct WhitelistTests {
    @Test("exactly 73 forms and 62 disqualifiers, unique ids")
    func counts() {
        let w = Whitelist.bundled
        #expect(w.forms.count == 73)
        #expect(w.disqualifiers.count == 62)
        #expect(Set(w.forms.map(\.id)).count == 73)
        #expect(Set(w.disqualifiers.map(\.id)).count == 62)
    }

    @Test("the forms Docs/domain.md §5 requires are there, with their phrases", arguments: [
        ("piscine", "la sortie piscine"), ("sortie piscine", "la sortie piscine"),
        ("natation", "le cours de natation"), ("anniv", "l'anniversaire"), ("annif", "l'anniversaire"),
        ("goûter d'anniv", "le goûter d'anniversaire"), ("soirée pyjama", "la soirée pyjama"),
        ("ski", "la sortie ski"), ("colo", "la colonie de vacances"), ("sortie", "la sortie"),
        ("foot", "l'entraînement de foot"), ("match de foot", "le match de foot"),
        ("poney", "le cours d'équitation"), ("ciné", "la séance de cinéma"),
        ("zoo", "la visite du zoo"), ("médiathèque", "la bibliothèque"),
        ("plage", "la journée à la plage"), ("rando", "la randonnée"), ("vélo", "la balade à vélo"),
        ("vacances", "les vacances"), ("week-end", "le week-end"), ("chasse aux œufs", "la chasse aux œufs"),
        ("centre aéré", "le centre de loisirs"), ("rentrée", "la rentrée"),
    ])
    func requiredForms(_ form: String, _ phrase: String) {
        let found = Whitelist.bundled.forms.first { $0.form == form }
        if Self.merged.contains(form) {
            // Merged into another form (its id stays unused): the title still gives the phrase.
            #expect(found == nil)
            #expect(PrivacyFilter().classify(title: form).phrase == phrase, "form \(form)")
        } else {
            #expect(found?.phrase == phrase, "form \(form)")
        }
    }

    /// Forms merged away (Whitelists/README.md): the tie rule or hyphen-free matching gives their
    /// phrase through another form.
    static let merged: Set<String> = ["sortie piscine"]

    @Test("the ids of merged forms stay unused, and no id is reused")
    func freedIDs() {
        let ids = Set(Whitelist.bundled.forms.map(\.id))
        for freed in ["M002", "M011", "M061", "M073"] { #expect(!ids.contains(freed), "\(freed)") }
        #expect(ids.allSatisfy { $0.hasPrefix("M") && Int($0.dropFirst())! <= 77 })
        #expect(Whitelist.bundled.parentRules.allSatisfy { $0.id.hasPrefix("P") })
    }

    @Test("merged forms still give their phrase", arguments: [
        ("Sortie piscine", "la sortie piscine", "M001"), ("Sortie ski", "la sortie ski", "M010"),
        ("Weekend", "le week-end", "M051"), ("Balade à vélo", "la balade à vélo", "M049"),
        ("week end", "le week-end", "M051"),
    ])
    func mergedForms(_ title: String, _ phrase: String, _ rule: String) {
        let c = PrivacyFilter().classify(title: title)
        if title == "week end" {
            // Two words are not the hyphenated one: "end" matches nothing, "week" neither.
            #expect(c.decision == .unlabeled)
        } else {
            #expect(c.phrase == phrase)
            #expect(c.rule == rule)
        }
    }

    @Test("name slots: de for birthdays, chez for holidays and week-ends")
    func slots() {
        let w = Whitelist.bundled
        func slot(_ form: String) -> Whitelist.NameSlot? { w.forms.first { $0.form == form }?.slot }
        #expect(slot("anniversaire") == .de)
        #expect(slot("goûter d'anniversaire") == .de)
        #expect(slot("soirée pyjama") == .chez)
        #expect(slot("vacances") == .chez)
        #expect(slot("week-end") == .chez)
        #expect(slot("piscine") == Whitelist.NameSlot.none)
    }

    @Test("the disqualifiers Docs/domain.md §5 requires are there", arguments: [
        "hôpital", "hosto", "clinique", "urgences", "opération", "chirurgie", "IRM", "scanner",
        "prise de sang", "vaccin", "chimio", "médecin", "docteur", "Dr", "dentiste", "orthodontiste",
        "kiné", "ostéo", "orthophoniste", "psy", "psychologue", "enterrement", "obsèques",
        "funérailles", "décès", "deuil", "cimetière", "divorce", "avocat", "juge", "JAF", "tribunal",
        "notaire", "huissier", "gendarmerie", "commissariat", "prison", "garde alternée", "passation",
        "médiation", "chômage", "Pôle emploi", "France Travail", "licenciement",
        "entretien d'embauche", "CAF", "assistante sociale", "résultats", "EHPAD", "maladie",
    ])
    func requiredDisqualifiers(_ word: String) {
        let folded = Normalizer.tokens(word).map { Normalizer.guardFold($0.original) }
        #expect(Whitelist.bundled.disqualifiers.contains { $0.variants.contains(folded) }, "\(word)")
    }

    @Test("no form is also a disqualifier or contains one")
    func disjoint() {
        let w = Whitelist.bundled
        let filter = PrivacyFilter()
        for form in w.forms {
            #expect(filter.firstDisqualifier(in: form.form) == nil, "\(form.id) is disqualified")

        }
    }

    @Test("the binary embeds exactly the files in Whitelists/ (run Scripts/gen-whitelists after editing)")
    func embeddedCopyIsCurrent() throws {
        #expect(WhitelistFiles.moments == (try repositoryFile("Whitelists/moments.tsv")))
        #expect(WhitelistFiles.disqualifiers == (try repositoryFile("Whitelists/disqualifiers.txt")))
        #expect(WhitelistFiles.parents == (try repositoryFile("Whitelists/parents.txt")))
        #expect(WhitelistFiles.givenNames == (try repositoryFile("Whitelists/given-names.txt")))
        #expect(WhitelistFiles.registers == (try repositoryFile("Whitelists/registers.txt")))
        #expect(WhitelistFiles.held == (try repositoryFile("Whitelists/held.txt")))
    }

    @Test("parents' rules: ids P01..., none is also a form, a disqualifier or a given name")
    func parentsFile() {
        let w = Whitelist.bundled
        #expect(w.parentRules.count >= 40)
        // Ids P01… with none missing, the owner words' among them (the to-dos were appended after).
        let ids = (w.parentRules + w.ownerWords).map(\.id)
        #expect(ids.sorted() == (1...ids.count).map { String(format: "P%02d", $0) })
        #expect(w.parentRules.map(\.id) == w.parentRules.map(\.id).sorted())
        let filter = PrivacyFilter()
        for form in w.forms { #expect(filter.firstParentRule(in: form.form) == nil, "\(form.id)") }
        for rule in w.parentRules { #expect(filter.firstDisqualifier(in: rule.text) == nil, "\(rule.id)") }
    }

    @Test("given names: about 2,800 from the Hunspell dictionary, everyday words left out")
    func givenNames() {
        let names = Whitelist.bundled.givenNames
        #expect(names.count > 2_500)
        #expect(names["zoé"] == "Zoé" && names["inès"] == "Inès" && names["jean-pierre"] == "Jean-Pierre")
        for word in ["rose", "pierre", "jade", "noël", "chez", "mamie", "papa", "de", "marine", "mars"] {
            #expect(names[word] == nil, "\(word)")
        }
        #expect(names.values.allSatisfy(PrivacyFilter.isGivenName))
    }

    @Test("digests are the SHA-256 sha256sum prints for each file")
    func digests() throws {
        let w = Whitelist.bundled
        #expect(w.momentsDigest == SHA256.hex(Array(try repositoryFile("Whitelists/moments.tsv").utf8)))
        #expect(SHA256.hex(Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(w.momentsDigest.count == 64 && w.disqualifiersDigest.count == 64)
        // Every rule file that changes decisions, in the audit header's order.
        let files = ["moments.tsv", "disqualifiers.txt", "parents.txt", "given-names.txt", "held.txt", "registers.txt"]
        #expect(w.digests.map(\.file) == files)
        for (file, digest) in w.digests {
            #expect(digest == SHA256.hex(Array(try repositoryFile("Whitelists/" + file).utf8)), "\(file)")
        }
    }

    @Test("malformed files are refused with file and line")
    func malformed() {
        #expect(throws: WhitelistError.malformed(file: "moments.tsv", line: 2)) {
            try Whitelist(moments: "id\tform\tphrase\tgender\tnumber\thead\tslot\nM1\tx\n", disqualifiers: "")
        }
        #expect(throws: WhitelistError.duplicateID(file: "disqualifiers.txt", id: "D1")) {
            try Whitelist(moments: "", disqualifiers: "D1\ta\nD1\tb\n")
        }
    }
}

@Suite("Privacy boundary: only PrivacyFilter creates a Moment")
struct BoundaryTests {
    @Test("no source file outside Sources/PrivacyFilter imports the Moment-making SPI")
    func spiIsPrivate() throws {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 10)
        for file in files where !file.hasPrefix("PrivacyFilter/") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("@_spi(PrivacyFilter) import"), "\(file) imports the SPI")
        }
    }
}
