import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import PrivacyFilter

/// One row of Fixtures/privacy/held-titles.tsv: a title and its location, and what the filter must
/// decide (`unlabeled` for a held word, `moment` for a near miss, `disqualified` when a disqualifier
/// is there too).
struct HeldTitle: CustomStringConvertible, Sendable {
    var title, location, decision: String
    var description: String { location.isEmpty ? title : "\(title) @ \(location)" }

    static var all: [HeldTitle] {
        fixtureRows("Fixtures/privacy/held-titles.tsv", columns: 3).map { f in
            HeldTitle(title: f[0], location: f[1], decision: f[2])
        }
    }
}

/// Issue 15, the adversary's worst finding: a generic form beside a sensitive word that none of the
/// 62 disqualifiers names ("Sortie maternité", "Dispersion des cendres en mer") made a cheerful
/// moment of a sad day. `Whitelists/held.txt` keeps such events for the parent.
@Suite("PrivacyFilter: held words keep the event for the parent, never a moment")
struct HeldWordsTests {
    let filter = PrivacyFilter()

    @Test("the table: held titles wait for the parent, near misses stay moments", arguments: HeldTitle.all)
    func table(_ row: HeldTitle) {
        let c = filter.classify(title: row.title, location: row.location)
        #expect(c.decision.rawValue == row.decision, "\(row)")
        if c.decision != .moment { #expect(c.phrase == nil && c.firstName == nil) }
    }

    @Test("the table is not empty and has both kinds of rows")
    func tableSize() {
        let rows = HeldTitle.all
        #expect(rows.filter { $0.decision == "unlabeled" }.count >= 40)
        #expect(rows.filter { $0.decision == "moment" }.count >= 10)
    }

    @Test("held.txt takes the mort, maladie, medical and justice words of registers.txt, but its exceptions")
    func categories() {
        let words = Set(filter.whitelist.heldWords.map(\.text))
        for word in ["mort", "cercueil", "malade", "cancer", "maternité", "accouchement", "consultation", "thérapie",
                     "séparation", "procès"] {
            #expect(words.contains(word), "\(word)")
        }
        for word in ["convocation", "police", "policier", "mortelle", "cure", "noyade", "tombe", "pharmacie"] {
            #expect(!words.contains(word), "\(word) is an exception")
        }
        // The other registers are the validator's only: "les armes" of a fencing class, "l'église".
        #expect(!words.contains("arme") && !words.contains("église"))
    }

    /// Every form of every held word (as parsed: folded, an accent-only form with its accents),
    /// and a word built around every stem.
    static func heldSamples() -> [String] {
        let w = Whitelist.bundled
        var samples = w.heldWords.flatMap { rule in
            rule.variants.map { $0.map { $0.hasPrefix("=") ? String($0.dropFirst()) : $0 }.joined(separator: " ") }
        }
        samples += w.heldStems.map { "para" + $0.text + "ique" }
        return samples
    }

    @Test("property: a held word beside any whitelist form, name, time or case is never a moment")
    func property() {
        var rng = SeededGenerator(seed: 15)
        let forms = Whitelist.bundled.forms.map(\.form)
        let held = Self.heldSamples()
        #expect(held.count > 250)
        let templates: [(String, String) -> String] = [
            { f, h in "\(f) \(h)" }, { f, h in "\(h) - \(f)" }, { f, h in "\(f.uppercased()) (\(h.uppercased()))" },
            { f, h in "\(f) 10h30 avec Tom, \(h)" }, { f, h in "\(f) de Zoé \(h)" }, { f, h in "\(h) puis \(f) 14h" },
        ]
        var checked = 0
        for word in held {
            for _ in 0..<4 {
                let form = forms[Int(rng.next() % UInt64(forms.count))]
                let title = templates[Int(rng.next() % UInt64(templates.count))](form, word)
                let c = filter.classify(title: title)
                #expect(c.decision != .moment, "\(title) became \(c.phrase ?? "")")
                // The same word as the place of a plain moment.
                let placed = filter.classify(title: form, location: "Rendez-vous : \(word)")
                #expect(placed.decision != .moment, "\(form) @ \(word) became \(placed.phrase ?? "")")
                checked += 1
            }
        }
        #expect(checked > 1_000)
    }

    @Test("a held word in the description alone does not hold the event (an allergy, a certificate to bring)")
    func descriptionIsNotRead() {
        let c = filter.classify(title: "Anniv de Zoé", description: "Attention : allergie aux noix, pas de pharmacie près de la salle")
        #expect(c.decision == .moment)
    }

    @Test("held.txt's rows are checked: unknown kind, unknown category, an exception no category holds, a short stem")
    func malformed() {
        let registers = "mort\tmort\nmort\tdeuil\njustice\tconvocation\n"
        func parse(_ held: String) throws(WhitelistError) -> Whitelist {
            try Whitelist(moments: "", disqualifiers: "", registers: registers, held: held)
        }
        #expect(throws: WhitelistError.malformed(file: "held.txt", line: 2)) { try parse("category\tmort\nmot\tx\n") }
        #expect(throws: WhitelistError.malformed(file: "held.txt", line: 1)) { try parse("category\tsport\n") }
        #expect(throws: WhitelistError.malformed(file: "held.txt", line: 2)) { try parse("category\tmort\nexcept\tconvocation\n") }
        #expect(throws: WhitelistError.malformed(file: "held.txt", line: 1)) { try parse("stem\tpsy\n") }
        #expect(throws: WhitelistError.malformed(file: "held.txt", line: 1)) { try parse("word\tannulé | \n") }
        let w = try? parse("category\tmort\ncategory\tjustice\nexcept\tconvocation\nword\tannulé | annulée\nstem\ttherap\n")
        #expect(Set(w?.heldWords.map(\.text) ?? []) == ["mort", "deuil", "annulé"])
        #expect(w?.heldStems.map(\.tokens) == [["therap"]])
    }

    @Test("one edit apart: a letter added, removed, replaced, or two neighbours swapped")
    func oneEdit() {
        func apart(_ a: String, _ b: String) -> Bool { PrivacyFilter.oneEditApart(Array(a), Array(b)) }
        #expect(apart("dentise", "dentiste") && apart("dentsite", "dentiste") && apart("psycologue", "psychologue"))
        #expect(apart("hopitl", "hopital") && apart("grimpe", "grippe") && apart("docteurs", "docteur"))
        #expect(!apart("dentiste", "dentiste") && !apart("denitset", "dentiste") && !apart("dentis", "dentiste"))
        #expect(!apart("cinema", "clinique") && !apart("abcd", "badc"))
    }
}

@Suite("PrivacyFilter: a misspelt sensitive word keeps the event for the parent")
struct MisspeltWordsTests {
    @Test("misspelt disqualifiers and held words wait for the parent", arguments: [
        "Foot puis dentise", "Danse + dentsite", "Piscine ortodontiste", "Piscine psycologue", "Tennis psychologe",
        "Anniv enterement papi", "Rando enterrment", "Anniv de Tom hopitl", "Judo puis pediatr", "Sortie maternitée",
    ])
    func misspelt(_ title: String) throws {
        let filter = PrivacyFilter(commonWords: try checkoutLexicon())
        #expect(filter.classify(title: title).decision == .unlabeled, "\(title)")
    }

    @Test("the check names the rule it is near, a disqualifier first, never the title's own text")
    func namesTheRule() throws {
        let filter = PrivacyFilter(commonWords: try checkoutLexicon())
        #expect(filter.misspelt(in: "Foot puis dentise") == "D15")
        #expect(filter.misspelt(in: "Anniv enterement papi") == "D22")
        #expect(filter.misspelt(in: "Piscine leucemi")?.hasPrefix("H") == true)
    }

    @Test("real words one letter from a sensitive word stay moments", arguments: [
        "Sortie grimpe", "Anniv de Mathis", "Piscine avec Clémence", "Concert de la chorale", "Match de basket",
        "Anniv de Noélie", "Sortie plantes",
    ])
    func realWords(_ title: String) throws {
        let filter = PrivacyFilter(commonWords: try checkoutLexicon())
        #expect(filter.classify(title: title).decision == .moment, "\(title)")
    }

    @Test("without the Lexique table no word is taken for a misspelling")
    func withoutLexicon() {
        #expect(PrivacyFilter().misspelt(in: "Foot puis dentise") == nil)
        #expect(PrivacyFilter().classify(title: "Foot puis dentise").decision == .moment)
    }

    @Test("property: no word of the library's texts is ever taken for a misspelling")
    func libraryWords() throws {
        let lexicon = try checkoutLexicon()
        let filter = PrivacyFilter(commonWords: lexicon)
        let words = try CapturedNameTests.libraryWords()
        #expect(words.count > 1_000)
        var suspects: [String] = []
        for word in words where word.count >= PrivacyFilter.typoLength {
            if let near = filter.misspelt(in: "Piscine \(word)") { suspects.append("\(word) ~ \(near)") }
        }
        #expect(suspects.isEmpty, "\(suspects.prefix(20))")
    }
}
