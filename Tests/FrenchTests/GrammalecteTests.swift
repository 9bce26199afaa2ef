import DicteeCore
import Foundation
import Testing
@testable import French

/// Tests against the real Grammalecte worker (Debian `python3-grammalecte`, compared with
/// Debian's `grammalecte-cli`): a missing installation fails them with the install hint, it never
/// skips them. Fake workers (shell scripts) cover the error paths.
@Suite struct GrammalecteTests {
    /// One worker for the ordinary checks (they take turns); tests about the worker's life make
    /// their own checker.
    static let shared = GrammarChecker()

    func grammalecte() throws -> GrammarChecker {
        try #require(GrammarChecker.isAvailable(), "\(GrammarCheckerError.unavailable)")
        return Self.shared
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

    @Test func manyParagraphsInOneWorker() throws {
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

    // MARK: - The same answers as grammalecte-cli

    /// Paragraphs covering what the gate sees: agreement, conjugation, homophones, typography,
    /// names known and unknown, capitals, numbers, elision, emoji and decomposed accents,
    /// quotes, a long paragraph, an empty one.
    static let comparisonParagraphs: [String] = [
        "Les enfants sont arrivé.", "Léa est allé à la piscine.", "Tom est allée au parc.",
        "Ils ont mangés des pommes et des poires.", "Il faut que tu viens demain.", "Je suis allé a la plage.",
        "Ces enfants mange leur goûter, puis ils joue dehors.", "C'est l'été, on va à la mer !",
        "« Bonjour », dit-il. \"Salut\", répond-elle.", "Il a 1000 euros et 3 km à faire.",
        "Nous sommes en Janvier, A Paris il pleut.", "Jusqu à demain, presqu'arrivé.", "Le le chat dort.",
        "Zélinda et Aylin-Rose sont allées au parc avec Kaïs.", "La grenouile saute dans la maisonn.",
        "Le 😀 chat. Les enfants sont arrivé.", "Le cafe\u{301} est chaud. Les enfants sont arrivé.",
        "Malgré qu'il pleuve, nous sortons.", "Le 31 février, nous irons au cinéma.", "",
        "Quoi ? Racontes ! Racontes-moi ! Bon sangg, parles ! Oui. Il y a des menteur partout.",
        "Mercredi, Hugo et sa sœur ont préparé un gâteau au chocolat pour l’anniversaire de mamie ; "
            + "ils ont cassé les œufs, mélangé la farine et le sucre, puis ils ont attendu que le four chauffe. "
            + "Quand le gâteau est sorti, toute la maison sentait bon, et papa a dit qu’il n’en avait jamais mangé d’aussi bon.",
        "Samedi matin , nous irons au marché…  Puis nous rentrerons.",
    ]

    /// `grammalecte-cli -f FILE -j [-wss]` on `lines`, one JSON object per line, from the CLI's
    /// `data` array.
    func cliAnswers(_ lines: [String], spellingSuggestions: Bool) throws -> [NSDictionary] {
        let cli = "/usr/bin/grammalecte-cli"
        try #require(FileManager.default.isExecutableFile(atPath: cli), "grammalecte-cli is missing: run Scripts/setup")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-cli-\(UUID().uuidString).txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ChildProcess.run(executable: cli, arguments: ["-f", file.path, "-j"] + (spellingSuggestions ? ["-wss"] : []),
                                          environment: ["PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"], timeout: 300)
        try #require(output.termination == .exited(0))
        let object = try #require(try JSONSerialization.jsonObject(with: output.standardOutput) as? NSDictionary)
        return try #require(object["data"] as? [NSDictionary])
    }

    /// The worker script on `lines`, one answer object per line (the greeting dropped).
    func workerAnswers(_ lines: [String], spellingSuggestions: Bool) throws -> [NSDictionary] {
        let python = try #require(GrammarChecker.locate())
        var input = Data()
        for (index, line) in lines.enumerated() {
            input += try JSONSerialization.data(withJSONObject: ["i": index + 1, "text": line]) + Data("\n".utf8)
        }
        let output = try ChildProcess.run(executable: python.path, arguments: ["-I", "-c", GrammarChecker.workerScript]
                                          + (spellingSuggestions ? ["-wss"] : []), input: input, timeout: 300)
        try #require(output.termination == .exited(0))
        let answers = try output.standardOutput.split(separator: UInt8(ascii: "\n")).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0)) as? NSDictionary)
        }
        try #require(answers.first?["ready"] != nil)
        return Array(answers.dropFirst())
    }

    /// An answer with each spelling error's suggestions sorted: their order among equally good
    /// ones changes from run to run in `grammalecte-cli` itself (Python's randomised string
    /// hashing orders a set), so only the set can be compared.
    static func comparable(_ answer: NSDictionary) -> NSDictionary {
        let copy = answer.mutableCopy() as! NSMutableDictionary
        if let spelling = answer["lSpellingErrors"] as? [NSDictionary] {
            copy["lSpellingErrors"] = spelling.map { error -> NSDictionary in
                let entry = error.mutableCopy() as! NSMutableDictionary
                if let suggestions = error["aSuggestions"] as? [String] { entry["aSuggestions"] = suggestions.sorted() }
                return entry
            }
        }
        return copy
    }

    @Test(arguments: [false, true])
    func theWorkerAnswersExactlyWhatTheCLIPrints(spellingSuggestions: Bool) throws {
        let lines = Self.comparisonParagraphs.map { $0.replacingOccurrences(of: "\n", with: " ") }
        let cli = try cliAnswers(lines, spellingSuggestions: spellingSuggestions)
        let worker = try workerAnswers(lines, spellingSuggestions: spellingSuggestions)
        #expect(cli.count == lines.count && worker.count == lines.count)
        for (index, (expected, got)) in zip(cli, worker).enumerated() {
            #expect(Self.comparable(expected) == Self.comparable(got), "paragraph \(index + 1): \(lines[index])")
        }
        // Not a vacuous comparison: grammar and spelling errors both occur.
        #expect(cli.contains { ($0["lGrammarErrors"] as? [Any])?.isEmpty == false })
        #expect(cli.contains { ($0["lSpellingErrors"] as? [Any])?.isEmpty == false })
    }

    @Test func checkerIssuesAreTheCLIsAfterTheStylisticFilter() throws {
        let lines = Self.comparisonParagraphs
        let cli = try cliAnswers(lines, spellingSuggestions: false)
        let result = try grammalecte().check(lines)
        for (index, answer) in cli.enumerated() {
            let grammar = (answer["lGrammarErrors"] as? [NSDictionary] ?? []).filter {
                !GrammarChecker.isStylistic(type: $0["sType"] as! String, ruleID: $0["sRuleId"] as! String)
            }
            let spelling = answer["lSpellingErrors"] as? [NSDictionary] ?? []
            let expected = (grammar.map { ($0["nStart"] as! Int, $0["nEnd"] as! Int, $0["sRuleId"] as! String) }
                + spelling.map { ($0["nStart"] as! Int, $0["nEnd"] as! Int, GrammarIssue.spellingType) })
                .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            let got = result[index].map { ($0.start, $0.end, $0.ruleID) }
            #expect(got.map { "\($0.0)-\($0.1) \($0.2)" } == expected.map { "\($0.0)-\($0.1) \($0.2)" }, "paragraph \(index + 1)")
        }
    }

    // MARK: - The worker's life

    @Test func oneWorkerAnswersManyChecks() throws {
        _ = try grammalecte()
        let checker = GrammarChecker()
        defer { checker.close() }
        #expect(checker.workerProcessID == nil, "started lazily")
        _ = try checker.check(["Il fait beau."])
        let pid = try #require(checker.workerProcessID)
        for _ in 0..<3 { #expect(try checker.check(["Les enfants sont arrivé."])[0].map(\.type) == ["ppas"]) }
        #expect(checker.workerProcessID == pid, "the same worker")
    }

    @Test func aKilledWorkerIsRestartedAndTheCheckStillAnswers() throws {
        _ = try grammalecte()
        let checker = GrammarChecker()
        defer { checker.close() }
        checker.prepare()
        let first = try #require(checker.workerProcessID)
        #expect(try checker.check(["Les enfants sont arrivé."])[0].map(\.type) == ["ppas"])
        kill(first, SIGKILL)
        let result = try checker.check(["Il fait beau.", "Les enfants sont arrivé."])
        #expect(result.map { $0.map(\.type) } == [[], ["ppas"]])
        let second = try #require(checker.workerProcessID)
        #expect(second != first)
        #expect(!Self.isChild(first), "the killed worker was reaped")
    }

    @Test func aWorkerThatDiesAgainFailsTheCheck() throws {
        // Each fake worker answers one request and exits 1 on the next: the second paragraph
        // kills the first worker, its restart answers it, the third kills the restart.
        let checker = GrammarChecker(executable: FakeExecutable("exits-after-one-answer").url)
        defer { checker.close() }
        #expect(throws: GrammarCheckerError.failed(status: 1, message: "exited with status 1")) {
            try checker.check(["Un.", "Deux.", "Trois."])
        }
        #expect(checker.workerProcessID == nil)
        // Two paragraphs fit: the restart answers the second.
        #expect(try checker.check(["Un.", "Deux."]).count == 2)
    }

    @Test func aWorkerThatHangsFailsAfterTheNoProgressTimeoutWithItsChildren() throws {
        // The fake reads the request and sleeps; `sleep` is its child and holds the pipes.
        let checker = GrammarChecker(executable: FakeExecutable("hang").url, timeout: 0.5)
        let started = Date()
        #expect(throws: GrammarCheckerError.timeout(seconds: 0.5)) { try checker.check(["Il fait beau."]) }
        #expect(Date().timeIntervalSince(started) < 8)
        #expect(checker.workerProcessID == nil, "killed")
    }

    @Test func aWorkerThatIsNeverReadyFailsAfterItsStartUpAllowance() throws {
        let checker = GrammarChecker(executable: FakeExecutable("sleep").url, startupTimeout: 0.5)
        let started = Date()
        #expect(throws: GrammarCheckerError.timeout(seconds: 0.5)) { try checker.check(["Il fait beau."]) }
        #expect(Date().timeIntervalSince(started) < 8)
    }

    @Test func noChildIsLeftAfterClose() throws {
        _ = try grammalecte()
        let checker = GrammarChecker()
        _ = try checker.check(["Il fait beau."])
        let pid = try #require(checker.workerProcessID)
        #expect(Self.isChild(pid))
        checker.close()
        #expect(checker.workerProcessID == nil)
        #expect(!Self.isChild(pid), "reaped: not a child of this process, not a zombie")
        checker.close()  // twice is fine
        // And released without close: deinit reaps.
        var other: GrammarChecker? = GrammarChecker()
        _ = try other!.check(["Il fait beau."])
        let otherPID = try #require(other!.workerProcessID)
        other = nil
        #expect(!Self.isChild(otherPID))
    }

    /// Whether `pid` is a child of this process, running or zombie: listed in
    /// `/proc/self/task/*/children`, or still waitable.
    static func isChild(_ pid: pid_t) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            let children = (try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? ""
            if children.split(separator: " ").contains(Substring(String(pid))) { return true }
        }
        var status: Int32 = 0
        // -1 with ECHILD: no such child. (A waitable zombie would be reaped here; it was a child.)
        return waitpid(pid, &status, WNOHANG) != -1
    }

    // MARK: - Failures

    @Test func aMissingInterpreterIsUnavailable() {
        let checker = GrammarChecker(executable: URL(fileURLWithPath: "/nonexistent/python3"))
        #expect(throws: GrammarCheckerError.unavailable) { try checker.check(["Il fait beau."]) }
        #expect(!GrammarChecker.isAvailable(executable: URL(fileURLWithPath: "/nonexistent/python3")))
        #expect(GrammarCheckerError.unavailable.description
            == "Grammalecte is not installed (apt-get install python3-grammalecte, for /usr/bin/python3); without it no text can pass the grammar check")
    }

    @Test func aPythonWithoutTheModuleIsUnavailable() throws {
        #expect(throws: GrammarCheckerError.unavailable) {
            try GrammarChecker(executable: FakeExecutable("no-module").url).check(["Il fait beau."])
        }
        // The real script on a Python that cannot see the module (-S: no site-packages).
        let python = try #require(GrammarChecker.locate())
        let output = try ChildProcess.run(executable: python.path, arguments: ["-I", "-S", "-c", GrammarChecker.workerScript], timeout: 60)
        #expect(output.termination == .exited(3))
        #expect(String(decoding: output.standardOutput, as: UTF8.self) == "{\"unavailable\": \"ModuleNotFoundError\"}\n")
    }

    @Test func garbageOutputIsUnreadable() throws {
        let error = #expect(throws: GrammarCheckerError.self) {
            try GrammarChecker(executable: FakeExecutable("garbage").url).check(["Il fait beau."])
        }
        guard case .unreadableOutput = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func anAnswerForAnotherRequestIsUnreadable() throws {
        #expect(throws: GrammarCheckerError.unreadableOutput(reason: "answer 2 to request 1")) {
            try GrammarChecker(executable: FakeExecutable("other-paragraph").url).check(["Il fait beau."])
        }
    }

    @Test func aPythonExceptionIsReportedByItsNameOnly() throws {
        let checker = GrammarChecker(executable: FakeExecutable("exception").url)
        defer { checker.close() }
        #expect(throws: GrammarCheckerError.exception(name: "ValueError")) { try checker.check(["Il fait beau."]) }
        #expect(checker.workerProcessID != nil, "the worker is still in step and kept")
        #expect(GrammarCheckerError.exception(name: "ValueError").description == "Grammalecte raised ValueError on a text (the text is not shown)")
    }

    @Test func aWorkerThatCannotStartReportsItsStatusAndFirstErrorLine() throws {
        let script = FakeExecutable("failing")
        #expect(throws: GrammarCheckerError.failed(status: 3, message: "boom")) {
            try GrammarChecker(executable: script.url).check(["Il fait beau."])
        }
        // A Python traceback is summed up by its last line, which names the exception.
        let traceback = "Traceback (most recent call last):\n  File \"x\"\nValueError: bad\n"
        #expect(GrammarChecker.standardErrorSummary(Data(traceback.utf8)) == "ValueError: bad")
    }

    @Test func bigOutputOnBothPipesDoesNotDeadlock() throws {
        // 1 MB on stderr before the greeting, then 2000 answers.
        let script = FakeExecutable("big-output")
        let checker = GrammarChecker(executable: script.url, timeout: 20)
        defer { checker.close() }
        let result = try checker.check(Array(repeating: "x", count: 2000))
        #expect(result.count == 2000 && result.allSatisfy(\.isEmpty))
    }
}

/// A shell script standing in for the Grammalecte worker: a file of `Fixtures/fake-grammalecte/`,
/// committed rather than written during the run (a script written while another test thread
/// starts a process can fail to start with ETXTBSY: the child briefly holds the write descriptor).
struct FakeExecutable {
    let url: URL

    init(_ name: String) {
        url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fake-grammalecte/\(name).sh")
    }
}
