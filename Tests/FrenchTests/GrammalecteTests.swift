import DicteeCore
import Foundation
import Testing
@testable import French

/// Tests against the real `grammalecte-cli` (Debian package): a missing installation fails them
/// with the install hint, it never skips them. Fake executables (shell scripts) cover the error
/// paths.
@Suite struct GrammalecteTests {
    func grammalecte() throws -> GrammarChecker {
        try #require(GrammarChecker.isAvailable(), "\(GrammarCheckerError.unavailable)")
        return GrammarChecker()
    }

    func issues(_ paragraph: String, acceptedWords: Set<String> = []) throws -> [GrammarIssue] {
        let result = try grammalecte().check([paragraph], acceptedWords: acceptedWords)
        try #require(result.count == 1)
        return result[0]
    }

    /// The text of an issue's span: offsets are Unicode scalar offsets.
    func span(_ issue: GrammarIssue, in text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[issue.start..<issue.end])
        return String(view)
    }

    // MARK: - Agreement errors are caught

    @Test func participleAfterEtreAgreesWithAFeminineName() throws {
        let text = "Léa est allé à la piscine."
        let found = try issues(text)
        let issue = try #require(found.first)
        #expect(found.count == 1)
        #expect(issue.type == "ppas" && !issue.isSpelling)
        #expect(issue.ruleID.contains("ppas_nom_propre_être_accord"))
        #expect(span(issue, in: text) == "allé")
        #expect(issue.suggestions == ["allée"])
    }

    @Test(arguments: ["Les enfants sont arrivé.", "Ils ont mangés des pommes."])
    func participleAgreementErrors(_ text: String) throws {
        let found = try issues(text)
        #expect(found.map(\.type) == ["ppas"], "\(found)")
    }

    @Test func spellingErrorsComeFromTheSpellingList() throws {
        let text = "La grenouile saute dans la maisonn."
        let found = try issues(text)
        #expect(found.map { span($0, in: text) } == ["grenouile", "maisonn"])
        #expect(found.allSatisfy { $0.isSpelling && $0.type == GrammarIssue.spellingType })
    }

    // MARK: - Typography is not an error

    @Test(arguments: ["C'est l'été.", "« Bonjour », dit-il.", "\"Bonjour\", dit-il.", "Il a 1000 euros et 3 km.",
                      "Il pleut mais il fait chaud.", "Nous sommes allés à la piscine , puis au parc ."])
    func typographyIsFilteredOut(_ text: String) throws {
        #expect(try issues(text).isEmpty)
    }

    @Test(arguments: [("Jusqu à demain.", "Jusqu "), ("A Paris, il pleut.", "A"),
                      ("Nous sommes en Janvier.", "Janvier"), ("Le arbre est grand.", "Le ")])
    func spellingLikeRulesAreKept(text: String, flagged: String) throws {
        let found = try issues(text)
        #expect(found.map { span($0, in: text) } == [flagged], "\(found)")
    }

    @Test func stylisticClassification() {
        #expect(GrammarChecker.isStylistic(type: "apos", ruleID: "apostrophe_typographique"))
        #expect(GrammarChecker.isStylistic(type: "typo", ruleID: "typo_guillemets_typographiques_doubles_ouvrants"))
        #expect(GrammarChecker.isStylistic(type: "notype", ruleID: "num_grand_nombre_avec_points"))
        #expect(GrammarChecker.isStylistic(type: "notype", ruleID: "eepi_écriture_épicène_pluriel_e"))
        #expect(!GrammarChecker.isStylistic(type: "typo", ruleID: "typo_apostrophe_manquante"))
        #expect(!GrammarChecker.isStylistic(type: "typo", ruleID: "g2__typo_À_début_phrase__b1_a1_1"))
        #expect(!GrammarChecker.isStylistic(type: "notype", ruleID: "doublon"))
        #expect(!GrammarChecker.isStylistic(type: "ppas", ruleID: "gv1__ppas_sujet_être_accord_pluriel__b1_a4_1"))
    }

    // MARK: - Paragraphs and offsets

    @Test func aBatchKeepsItsAlignmentWithAnEmptyMiddleParagraph() throws {
        let result = try grammalecte().check(["Les enfants sont arrivé.", "", "Ils ont mangés des pommes."])
        #expect(result.count == 3)
        #expect(result[0].map(\.type) == ["ppas"])
        #expect(result[1].isEmpty)
        #expect(result[2].map(\.type) == ["ppas"])
    }

    @Test func lineBreaksInsideAParagraphKeepAlignmentAndOffsets() throws {
        let paragraphs = ["Il fait beau.\r\nLes enfants sont\narrivé.", "", "\n", "C’est l’été.", "Léa est allé à la piscine."]
        let result = try grammalecte().check(paragraphs)
        #expect(result.count == 5)
        #expect(result[0].map { span($0, in: paragraphs[0]) } == ["arrivé"])
        #expect(result[1].isEmpty && result[2].isEmpty && result[3].isEmpty)
        #expect(result[4].map { span($0, in: paragraphs[4]) } == ["allé"])
    }

    @Test func offsetsAreUnicodeScalarOffsets() throws {
        // An emoji is one scalar (two UTF-16 units); a decomposed é is two scalars.
        for text in ["Le 😀 chat. Les enfants sont arrivé.", "Le cafe\u{301} est chaud. Les enfants sont arrivé."] {
            let issue = try #require(try issues(text).first)
            #expect(span(issue, in: text) == "arrivé")
        }
        let issue = try #require(try issues("Le 😀 chat. Les enfants sont arrivé.").first)
        #expect(issue.start == 28 && issue.end == 34)
    }

    @Test func manyParagraphsInOneProcess() throws {
        // 500 texts of about 60 words, an error planted in every seventh: enough output to fill a
        // pipe many times over, so stdout must be drained while the process runs.
        let sentences = [
            "Les enfants ont mangé des crêpes au chocolat après le match.",
            "Il faisait très beau et le soleil brillait sur la plage.",
            "Papa a préparé un gâteau aux pommes pour l’anniversaire de mamie.",
            "Nous avons joué au ballon dans le jardin jusqu’au soir.",
            "Le chien courait derrière les oiseaux en aboyant joyeusement.",
            "Demain, toute la famille partira en vacances à la montagne.",
        ]
        let paragraphs = (0..<500).map { index in
            (0..<6).map { sentences[($0 + index) % 6] }.joined(separator: " ")
                + (index.isMultiple(of: 7) ? " Les filles sont arrivé." : "")
        }
        let result = try grammalecte().check(paragraphs)
        #expect(result.count == 500)
        for (index, issues) in result.enumerated() {
            #expect(issues.map(\.type) == (index.isMultiple(of: 7) ? ["ppas"] : []), "paragraph \(index)")
        }
    }

    // MARK: - First names

    @Test func unknownFirstNamesAreSpellingErrorsUnlessAccepted() throws {
        let text = "Zélinda et Aylin-Rose sont allées au parc avec Kaïs."
        #expect(try issues(text).map { span($0, in: text) } == ["Zélinda", "Aylin-Rose", "Kaïs"])
        #expect(try issues(text, acceptedWords: ["Zélinda", "Aylin-Rose", "Kaïs"]).isEmpty)
        // Exact match: a name in lower case is still an error.
        #expect(try issues("Hier, zélinda a chanté.", acceptedWords: ["Zélinda"]).count == 1)
        // Accepted words are compared in NFC.
        #expect(try issues("Ze\u{301}linda chante.", acceptedWords: ["Zélinda"]).isEmpty)
    }

    @Test func unknownAndEpiceneNamesAreNotCheckedForGender() throws {
        // Grammalecte takes a name's gender from its lexicon: "Nour" is epicene, "Zélinda" unknown.
        for text in ["Nour est allé au parc.", "Nour est allée au parc."] {
            #expect(try issues(text).isEmpty, "\(text)")
        }
        for text in ["Zélinda est allé au parc.", "Zélinda est allée au parc."] {
            #expect(try issues(text, acceptedWords: ["Zélinda"]).isEmpty, "\(text)")
        }
        #expect(try issues("Maël est allée au parc.").map(\.type) == ["ppas"])
    }

    @Test(arguments: Gender.allCases)
    func genderProxyCarriesTheChildsGender(_ gender: Gender) throws {
        let name = GrammarChecker.genderProxy(for: gender)
        let right = gender == .feminine ? "allée" : "allé"
        let wrong = gender == .feminine ? "allé" : "allée"
        #expect(try issues("\(name) est \(right) à la piscine.").isEmpty)
        let found = try issues("\(name) est \(wrong) à la piscine.")
        #expect(found.map(\.type) == ["ppas"])
        #expect(found.first?.suggestions == [right])
    }

    // MARK: - Failures

    @Test func aMissingExecutableIsUnavailable() {
        let checker = GrammarChecker(executable: URL(fileURLWithPath: "/nonexistent/grammalecte-cli"))
        #expect(throws: GrammarCheckerError.unavailable) { try checker.check(["Il fait beau."]) }
        #expect(!GrammarChecker.isAvailable(executable: URL(fileURLWithPath: "/nonexistent/grammalecte-cli")))
        #expect(GrammarCheckerError.unavailable.description
            == "grammalecte-cli is not installed (apt-get install grammalecte-cli); without it no text can pass the grammar check")
    }

    @Test func garbageOutputIsUnreadable() throws {
        let script = FakeExecutable("garbage")
        let error = #expect(throws: GrammarCheckerError.self) {
            try GrammarChecker(executable: script.url).check(["Il fait beau."])
        }
        guard case .unreadableOutput = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func outputForOtherParagraphsIsUnreadable() throws {
        let script = FakeExecutable("other-paragraph")
        let error = #expect(throws: GrammarCheckerError.self) {
            try GrammarChecker(executable: script.url).check(["Il fait beau."])
        }
        guard case .unreadableOutput = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func aSlowProcessTimesOutAndIsKilledWithItsChildren() throws {
        // `sleep` runs as a child of the shell and holds the pipes: the whole group must die.
        let script = FakeExecutable("sleep")
        let started = Date()
        #expect(throws: GrammarCheckerError.timeout(seconds: 0.5)) {
            try GrammarChecker(executable: script.url, timeout: 0.5).check(["Il fait beau."])
        }
        #expect(Date().timeIntervalSince(started) < 8)
    }

    @Test func aFailingProcessReportsItsStatusAndFirstErrorLine() throws {
        let script = FakeExecutable("failing")
        #expect(throws: GrammarCheckerError.failed(status: 3, message: "boom")) {
            try GrammarChecker(executable: script.url).check(["Il fait beau."])
        }
        // A Python traceback is summed up by its last line, which names the exception.
        let traceback = "Traceback (most recent call last):\n  File \"x\"\nValueError: bad\n"
        #expect(GrammarChecker.standardErrorSummary(Data(traceback.utf8)) == "ValueError: bad")
    }

    @Test func bigOutputOnBothPipesDoesNotDeadlock() throws {
        // 1 MB on stderr before anything on stdout, then about 150 kB of JSON on stdout.
        let script = FakeExecutable("big-output")
        let result = try GrammarChecker(executable: script.url, timeout: 20).check(Array(repeating: "x", count: 2000))
        #expect(result.count == 2000 && result.allSatisfy(\.isEmpty))
    }
}

/// A shell script standing in for grammalecte-cli: a file of `Fixtures/fake-grammalecte/`,
/// committed rather than written during the run (a script written while another test thread
/// starts a process can fail to start with ETXTBSY: the child briefly holds the write descriptor).
struct FakeExecutable {
    let url: URL

    init(_ name: String) {
        url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fake-grammalecte/\(name).sh")
    }
}
