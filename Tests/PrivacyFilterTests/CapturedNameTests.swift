import DicteeCore
import DicteeTestSupport
import Foundation
import French
import Testing
@testable import PrivacyFilter

/// Lexique 3.83 from the checkout's `Data/` (Scripts/setup writes it); a missing table fails.
func checkoutLexicon() throws -> Lexicon {
    let url = repositoryRoot.appendingPathComponent("Data").appendingPathComponent(Lexicon.fileName)
    try #require(FileManager.default.fileExists(atPath: url.path), "\(url.path) is missing: run Scripts/setup")
    return try Lexicon(contentsOf: url)
}

@Suite("PrivacyFilter: a word in a name slot that Lexique knows as a common noun or adjective is no name")
struct CapturedNameTests {
    @Test("common nouns, adjectives and surnames in the slot keep no name", arguments: [
        "Anniv de Chaussette", "Anniversaire de Tonneau", "Anniv de Fromage", "Anniv de Cheval", "Anniversaire de Mosquée",
        "Vacances chez Foyer", "Anniversaire de Meunier", "Anniv Tartine", "Anniv de Boulanger", "Week-end chez Voisin",
        "Anniv de Rouge", "Anniv de Grand", "Vacances chez Berger",
        // Written without their accents.
        "Anniv Fenetre", "Anniv de Maitresse", "Anniversaire de Mosquee", "Vacances chez Boulangere",
    ])
    func commonNouns(_ title: String) throws {
        let filter = PrivacyFilter(commonWords: try checkoutLexicon())
        let c = filter.classify(title: title)
        #expect(c.decision == .moment)
        #expect(c.firstName == nil, "\(title) kept \(c.firstName ?? "")")
    }

    @Test("first names stay, also those that are everyday words when capitalised", arguments: [
        ("Anniv de Tom", "Tom"), ("Anniv de Rose", "Rose"), ("Anniv Pierre", "Pierre"), ("Anniversaire de Jade", "Jade"),
        ("Anniv de Charlotte", "Charlotte"), ("Anniv de Maëlys", "Maëlys"), ("Vacances chez Mamie", "Mamie"),
        ("Anniv de Papa", "Papa"), ("Anniv de Kenzo", "Kenzo"), ("Anniv de Nahia", "Nahia"),
        ("Anniv de Colin", "Colin"), ("Anniv d'Iris", "Iris"), ("Anniv Olympe", "Olympe"),
    ])
    func firstNames(_ title: String, _ name: String) throws {
        let filter = PrivacyFilter(commonWords: try checkoutLexicon())
        #expect(filter.classify(title: title).firstName == name)
    }

    @Test("a child of the family keeps the name the family registered, even a common noun")
    func childNamedLikeAWord() throws {
        let filter = PrivacyFilter(family: [FamilyMember(id: 1, firstName: "Lune")], commonWords: try checkoutLexicon())
        #expect(filter.acceptsCapturedName("Lune"))
        #expect(!PrivacyFilter(commonWords: try checkoutLexicon()).acceptsCapturedName("Lune"))
    }

    @Test("without the Lexique table only listed given names are captured")
    func withoutLexicon() {
        let filter = PrivacyFilter()
        #expect(filter.classify(title: "Anniv de Tom").firstName == "Tom")
        #expect(filter.classify(title: "Anniv de Rose").firstName == "Rose")
        #expect(filter.classify(title: "Anniv de Police").firstName == nil)
        #expect(filter.classify(title: "Anniv de Kenzoé").firstName == nil)
    }

    /// Every word of 3 letters or more of the handwritten library's texts
    /// (`Sources/Dictation/Resources/library`), in lower case.
    static func libraryWords() throws -> Set<String> {
        let folder = repositoryRoot.appendingPathComponent("Sources/Dictation/Resources/library")
        var words = Set<String>()
        let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".txt") }
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for word in text.split(whereSeparator: { !$0.isLetter }) where word.count >= 3 { words.insert(word.lowercased()) }
        }
        return words
    }

    /// Property: every capitalised word Lexique knows as a noun or adjective, drawn from the
    /// library's own texts (thousands of everyday words), is refused in every name slot unless the
    /// given-names list has it.
    @Test("property: no common noun or adjective of the library's texts is ever captured as a name")
    func property() throws {
        let lexicon = try checkoutLexicon()
        let filter = PrivacyFilter(commonWords: lexicon)
        let words = try Self.libraryWords().filter { lexicon.isCommonNounOrAdjective($0) }
        try #require(words.count > 1_000, "the library's texts were not found")
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for word in words {
            let name = word.prefix(1).uppercased() + word.dropFirst()
            // Mamie, Papa...: the family words and the parents are kept by design.
            guard PrivacyFilter.isGivenName(name), !filter.whitelist.allGivenNamesFolded.contains(Normalizer.fold(name)),
                  !PrivacyFilter.familyWords.contains(word), !["papa", "maman"].contains(word)
            else { continue }
            let template = ["Anniv de %@", "Anniversaire %@", "Vacances chez %@", "Goûter d'anniversaire de %@"]
                .randomElement(using: &generator)!
            let c = filter.classify(title: template.replacingOccurrences(of: "%@", with: name))
            #expect(c.firstName == nil, "\(name) captured")
            checked += 1
        }
        #expect(checked > 1_000)
    }
}
