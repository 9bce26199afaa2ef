import DicteeCore
import DicteeTestSupport
import Foundation
import French
import PrivacyFilter
import Testing
@testable import Dictation
@testable import Generation

/// The real validator (Lexique, Hunspell, Grammalecte); a missing piece fails the test.
enum TestValidator {
    static let root = repositoryRoot
    nonisolated(unsafe) static var cached: Validator?
    static let lock = NSLock()

    static func shared() throws -> Validator {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let url = root.appendingPathComponent("Data/lexique-3.83.bin")
        guard FileManager.default.fileExists(atPath: url.path), GrammarChecker.isAvailable() else {
            Issue.record("Data/lexique-3.83.bin or Grammalecte (python3-grammalecte) is missing: run Scripts/setup")
            throw CancellationError()
        }
        let v = Validator(lexicon: try Lexicon(contentsOf: url), spelling: try SpellChecker.french(),
                          grammar: .checker(GrammarChecker()), registers: Whitelist.bundledRegisters)
        cached = v
        return v
    }
}

/// A scripted model: answers (or errors) in order, the last one repeated; records every request.
final class ScriptedModel: LanguageModel, @unchecked Sendable {
    enum Step {
        case answer(String, FinishReason)
        case fail(ModelError)
    }
    let id = "fake-model"
    let contextLength: Int
    let tokens: Int?
    /// Prompt tokens it says it kept from the previous request, from the second request on (a
    /// model with a KV cache; 0: one that cannot say).
    let cached: Int
    var steps: [Step]
    var requests: [ModelRequest] = []
    /// The content of every answer given, in order.
    var answers: [String] = []

    init(_ steps: [Step], contextLength: Int = 4096, tokens: Int? = 500, cached: Int = 0) {
        self.steps = steps
        self.contextLength = contextLength
        self.tokens = tokens
        self.cached = cached
    }

    func countTokens(_ text: String) -> Int? { tokens }

    func complete(_ request: ModelRequest) throws(ModelError) -> ModelAnswer {
        requests.append(request)
        let step = steps.count > 1 ? steps.removeFirst() : steps[0]
        switch step {
        case .answer(let content, let finish):
            answers.append(content)
            return ModelAnswer(content: content, promptTokens: 400, completionTokens: 120, cachedTokens: requests.count > 1 ? cached : 0,
                               finishReason: finish, seconds: 0.5)
        case .fail(let error):
            throw error
        }
    }
}

/// A scripted checker beside the scripted model: it judges a draft by a closure (by default, a
/// text of fewer than 20 words fails `longueur`) and records every draft it saw. No Lexique, no
/// Hunspell, no Grammalecte.
final class ScriptedChecker: DraftChecker, @unchecked Sendable {
    static let tooShort = Finding(step: .longueur, rule: "longueur_mots", message: "Le texte compte trop peu de mots ; il en faut entre 40 et 65.")
    let judge: @Sendable (Draft, DictationPlan) -> [Finding]
    let lock = NSLock()
    private var seen: [Draft] = []
    var checked: [Draft] { lock.withLock { seen } }

    init(_ judge: @escaping @Sendable (Draft, DictationPlan) -> [Finding] = { draft, _ in
        draft.text.split(separator: " ").count < 20 ? [ScriptedChecker.tooShort] : []
    }) {
        self.judge = judge
    }

    func check(_ draft: Draft, plan: DictationPlan) -> [Finding] {
        lock.withLock { seen.append(draft) }
        return judge(draft, plan)
    }

    func sites(of draft: Draft, plan: DictationPlan) -> [TrapSite] { [] }

    func verbTenses(of draft: Draft, plan: DictationPlan) -> [Set<SchoolTense>] { [] }
}

/// The retry loop (feedback, runaway, refusal diagnosis, fallback after 5) with a scripted model
/// and a scripted checker.
@Suite struct GenerationSessionTests {
    static let lea = Child(firstName: "Léa", gender: .feminine, grade: .ce2)
    static let piscine = MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
    static let plan = DictationPlan(child: lea, moment: piscine, targets: [.homophonesAA, .accordPPEtre])
    /// The plan about the outing of Saturday 28 November 2026, written on Tuesday 1 December
    /// (past) or on Wednesday 25 November (upcoming).
    static func dated(_ time: MomentTime) -> DictationPlan {
        var p = plan
        let day = CalendarDate(year: 2026, month: 11, day: 28)
        p.date = MomentDate(start: day, end: day, written: day.adding(days: time == .past ? 3 : -3), time: time)
        return p
    }
    static let good = #"{"titre": "La piscine", "phrases": ["Samedi, Léa est allée à la sortie piscine avec sa classe.", "Elle a mis son maillot bleu et elle a nagé avec ses amies.", "L'eau était chaude.", "À midi, les enfants ont mangé des pommes au bord du bassin.", "Le soir, Léa est rentrée à la maison.", "Elle a raconté sa journée à sa famille."]}"#
    static let tooShort = #"{"titre": "La piscine", "phrases": ["Léa a nagé."]}"#
    static let refusal = #"{"titre": "Désolé", "phrases": ["Je ne peux pas écrire ce texte."]}"#

    func session(_ model: ScriptedModel?, _ checker: ScriptedChecker = ScriptedChecker()) throws -> GenerationSession {
        GenerationSession(model: model, checker: checker, library: try Library.bundled())
    }

    @Test func aFirstInvalidAnswerIsRetriedWithTheCheckersSentencesAndTheSecondIsAccepted() throws {
        let model = ScriptedModel([.answer(Self.tooShort, .stop), .answer(Self.good, .stop)], cached: 300)
        let checker = ScriptedChecker()
        let result = try #require(try session(model, checker).write(Self.dated(.past)))
        #expect(!result.fromLibrary && result.origin == "fake-model")
        #expect(result.draft.text.hasPrefix("Samedi, Léa est allée"))
        #expect(result.draft.title == "La piscine")
        #expect(result.attempts.count == 2)
        #expect(result.attempts[0].failure == .validation([FailedStep(step: .longueur, rules: ["longueur_mots"])]))
        #expect(result.attempts[1].failure == nil)
        #expect(result.attempts.allSatisfy { $0.promptTokens == 400 && $0.completionTokens == 120 && $0.finishReason == "stop" })
        #expect(result.attempts.map(\.cachedTokens) == [0, 300], "the retry's prompt tokens the model kept are recorded")
        #expect(checker.checked.map(\.text) == ["Léa a nagé.", result.draft.text])
        let retry = model.requests[1]
        // A continuation of the first attempt's chat: its answer as the model wrote it, then the
        // checker's French sentences.
        #expect(retry.messages.map(\.role) == ["system", "user", "assistant", "user"])
        #expect(retry.instructions == model.requests[0].instructions && retry.prompt == model.requests[0].prompt)
        #expect(retry.previousAnswer == model.answers[0], "the previous answer is sent back as it was written")
        #expect(retry.feedback?.contains(ScriptedChecker.tooShort.message) == true, "with the checker's French sentences")
        #expect(model.requests[0].temperature == model.requests[1].temperature, "the temperature is not the repair")
        #expect(model.requests.allSatisfy { $0.schema == DictationAnswer.schema })
    }

    /// The validator may say one sentence for several places (one Grammalecte finding per repeated
    /// word): the model reads it once. Attempt n draws with the configured seed + n - 1, so that a
    /// retry whose chat came out the same still gets another text.
    @Test func aRetryTellsEachSentenceOnceAndDrawsWithTheNextSeed() throws {
        let twice = Finding(step: .orthographeGrammaire, rule: "grammalecte:doublon", message: "Grammalecte signale « Léa Léa » : Doublon.")
        let model = ScriptedModel([.answer(Self.good, .stop)])
        let checker = ScriptedChecker { draft, _ in
            draft.text.hasPrefix("Samedi, Léa est allée à la sortie piscine avec sa classe") ? [ScriptedChecker.tooShort, twice, twice] : []
        }
        let writer = GenerationSession(model: model, checker: checker, library: try Library.bundled(), temperature: 0.3, seed: 42)
        let result = try #require(writer.write(Self.dated(.past)))
        #expect(result.fromLibrary && model.requests.count == 5)
        #expect(model.requests.map(\.seed) == [42, 43, 44, 45, 46])
        #expect(model.requests.allSatisfy { $0.temperature == 0.3 })
        let feedback = try #require(model.requests[1].feedback)
        #expect(feedback.components(separatedBy: twice.message).count == 2, "said once: \(feedback)")
        #expect(feedback.contains(ScriptedChecker.tooShort.message))
        #expect(GenerationSession(model: model, checker: checker, library: try Library.bundled()).seed == nil, "no seed unless configured")
        // At most four sentences, the validator's first: the next attempt brings the rest.
        let six = (1...6).map { "Point \($0)." }
        let told = Instructions.feedback(six + ["Point 1."])
        #expect(told.contains("- Point 4.") && !told.contains("Point 5.") && told.contains("Corrige d'abord ces points"))
        #expect(!Instructions.feedback(Array(six.prefix(4))).contains("Corrige d'abord"))
    }

    @Test func aValidationFailureRecordsEachStepOnceWithItsRulesInOrder() throws {
        let findings = [
            Finding(step: .temps, message: "Le verbe est au futur."),
            Finding(step: .orthographeGrammaire, rule: "elision_consonne", message: "Pas d'apostrophe."),
            Finding(step: .orthographeGrammaire, rule: "hunspell", message: "Mal orthographié."),
            Finding(step: .orthographeGrammaire, rule: "elision_consonne", message: "Pas d'apostrophe, ailleurs."),
        ]
        let model = ScriptedModel([.answer(Self.good, .stop)])
        let result = try #require(try session(model, ScriptedChecker { draft, _ in draft.text.hasPrefix("Samedi, Léa est allée à la sortie piscine avec sa classe") ? findings : [] })
            .write(Self.dated(.past)))
        #expect(result.attempts.count == 5 && result.fromLibrary, "the model's text never passes: five attempts, then the library")
        #expect(result.attempts.allSatisfy { $0.failure == .validation([
            FailedStep(step: .temps, rules: ["temps"]),
            FailedStep(step: .orthographeGrammaire, rules: ["elision_consonne", "hunspell"]),
        ]) })
        #expect(findings.allSatisfy { model.requests[1].chat.contains($0.message) }, "every sentence is fed back")
    }

    @Test func fiveInvalidAnswersFallBackToTheLibrarySilently() throws {
        let model = ScriptedModel([.answer(Self.tooShort, .stop)])
        let checker = ScriptedChecker()
        let result = try #require(try session(model, checker).write(Self.dated(.past)))
        #expect(result.fromLibrary && result.origin.hasPrefix("library:ce2-"))
        #expect(model.requests.count == GenerationSession.maximumAttempts)
        #expect(result.attempts.map(\.number) == [1, 2, 3, 4, 5])
        #expect(result.attempts.allSatisfy { $0.failure == .validation([FailedStep(step: .longueur, rules: ["longueur_mots"])]) })
        #expect(result.draft.title == "La sortie piscine", "a library text gets the moment as its title")
        #expect(checker.checked.count == 6, "five drafts, then the library's rendering is checked too")
        #expect(result.plan.sitesPerTarget == 3, "the library text is proven with its own skills, 3 sites each")
    }

    @Test func aLibraryRenderingTheCheckerRefusesIsSkipped() throws {
        let library = try Library.bundled()
        let candidates = library.texts(for: .ce2, fitting: Self.piscine.phrase)
        try #require(candidates.count >= 2)
        let refused = ScriptedChecker { draft, plan in plan.sitesPerTarget == 3 && draft.text.count % 2 == 0 ? [ScriptedChecker.tooShort] : [] }
        let result = try session(nil, refused).write(Self.dated(.past))
        if let result { #expect(result.draft.text.count % 2 == 1) }
        #expect(try session(nil, ScriptedChecker { _, _ in [ScriptedChecker.tooShort] }).write(Self.dated(.past)) == nil,
                "no text passes: nothing to serve")
    }

    @Test func aModelThatAlwaysRefusesGetsFiveAttemptsWithoutTheMomentThenWithoutTheContentRuleThenTheLibrary() throws {
        let model = ScriptedModel([.fail(.refused("content safety"))])
        let result = try #require(try session(model).write(Self.dated(.past)))
        #expect(result.fromLibrary && result.origin.hasPrefix("library:ce2-"))
        #expect(result.draft.text.contains("Léa") && result.draft.text.contains("sortie piscine"))
        #expect(result.attempts.count == 5 && model.requests.count == 5)
        #expect(result.attempts.allSatisfy { $0.failure == .refusal })
        #expect(result.attempts.map(\.removed) == [[], [.moment], [.contentRule], [.moment, .contentRule], [.moment, .contentRule]])
        #expect(model.requests[0].chat.contains("la sortie piscine"))
        #expect(!model.requests[1].chat.contains("piscine"), "the second attempt leaves the moment out")
        #expect(model.requests[1].instructions.contains("joyeux et bienveillant"))
        #expect(model.requests[2].chat.contains("la sortie piscine"))
        #expect(!model.requests[2].instructions.contains("joyeux et bienveillant"), "the third leaves the content rule out")
        #expect(result.diagnosis == nil, "nothing unlocked it")
    }

    @Test func aRefusalUnlockedByLeavingTheMomentOutIsDiagnosedAndTheLibraryServes() throws {
        let model = ScriptedModel([.answer(Self.refusal, .stop), .answer(Self.good, .stop)])
        let checker = ScriptedChecker()
        let result = try #require(try session(model, checker).write(Self.dated(.past)))
        #expect(result.diagnosis == "sans_moment")
        #expect(result.fromLibrary)
        #expect(result.attempts.map(\.failure) == [.refusal, .refusal], "a text without the moment is no dictation about it")
        #expect(!checker.checked.contains { $0.text.contains("Elle a mis son maillot bleu") }, "the answer without the moment is never validated")
    }

    @Test func aRefusalUnlockedByLeavingTheContentRuleOutCanStillPass() throws {
        let model = ScriptedModel([.fail(.refused("x")), .fail(.refused("x")), .answer(Self.good, .stop)])
        let result = try #require(try session(model).write(Self.dated(.past)))
        #expect(result.diagnosis == "sans_regle_de_contenu")
        #expect(!result.fromLibrary && result.attempts.count == 3)
        #expect(result.attempts.map(\.failure) == [.refusal, .refusal, nil])
    }

    @Test func aContentFilterFinishIsARefusal() throws {
        let model = ScriptedModel([.answer(Self.good, .other("content_filter")), .answer(Self.good, .stop)])
        let result = try #require(try session(model).write(Self.dated(.past)))
        #expect(result.attempts.first?.failure == .refusal && result.attempts.first?.finishReason == "content_filter")
        #expect(result.attempts[1].removed == [.moment])
    }

    @Test func aRunawayIsAFailedAttemptWhoseFeedbackSaysTheTextWasFarTooLong() throws {
        let model = ScriptedModel([.answer(#"{"titre": "La piscine", "phrases": ["Léa"#, .length)])
        let result = try #require(try session(model).write(Self.dated(.upcoming)))
        #expect(result.fromLibrary && result.attempts.count == 5)
        #expect(result.attempts.allSatisfy { $0.failure == .runaway && $0.finishReason == "length" })
        #expect(model.requests[1].chat.contains("beaucoup trop long"))
    }

    @Test func aServerThatHangsIsNotARunawayAndIsNotAskedAgainAfterTwoTimeouts() throws {
        let hangs = ScriptedModel([.fail(.timeout(120))])
        let writer = try session(hangs)
        let first = try #require(writer.write(Self.dated(.past)))
        // One attempt, recorded as a timeout (not "trop long"); the library serves this text.
        #expect(first.fromLibrary && first.attempts.map(\.failure) == [.timeout] && first.attempts[0].seconds == 120)
        #expect(hangs.requests.count == 1 && !hangs.requests[0].chat.contains("beaucoup trop long"))
        #expect(!writer.modelIsUnresponsive)
        _ = writer.write(Self.dated(.past))
        #expect(writer.modelIsUnresponsive, "two timeouts in the session")
        let third = try #require(writer.write(Self.dated(.past)))
        #expect(third.fromLibrary && third.attempts.isEmpty && hangs.requests.count == 2, "the model is not asked again")
    }

    @Test func anAnswerThatIsNotTheJSONAskedForIsAFormatFailure() throws {
        let model = ScriptedModel([.answer("Voici une dictée : Léa nage.", .stop), .answer(Self.good, .stop)])
        let result = try #require(try session(model).write(Self.dated(.past)))
        #expect(result.attempts.map(\.failure) == [.format, nil])
        #expect(model.requests[1].chat.contains("objet JSON"))
    }

    @Test func aPromptThatDoesNotFitTheContextIsNeverSent() throws {
        let model = ScriptedModel([.answer(Self.good, .stop)], contextLength: 600, tokens: 500)
        let result = try #require(try session(model).write(Self.dated(.past)))
        #expect(model.requests.isEmpty)
        #expect(result.fromLibrary && result.attempts.map(\.failure) == [.context])
        #expect(result.serverError != nil)
        // Without a tokenizer the estimate is conservative (2 bytes a token).
        let estimated = ScriptedModel([.answer(Self.good, .stop)], contextLength: 4096, tokens: nil)
        #expect(try session(estimated).write(Self.dated(.past))?.fromLibrary == false)
    }

    @Test func anUnreachableServerFallsBackAtOnce() throws {
        let model = ScriptedModel([.fail(.unavailable("connection refused"))])
        let result = try #require(try session(model).write(Self.dated(.past)))
        #expect(result.fromLibrary && result.attempts.map(\.failure) == [.server])
        #expect(model.requests.count == 1)
    }

    @Test func withoutAModelTheLibraryServesEveryText() throws {
        let result = try #require(try session(nil).write(Self.dated(.past)))
        #expect(result.fromLibrary && result.attempts.isEmpty)
        #expect(result.draft.title == "La sortie piscine")
    }

    @Test func theInstructionsSayWhatThePlanWantsWithTheNameAndGenderResolved() {
        let system = Instructions.system(for: Self.plan)
        for needle in ["CE2", "Léa", "une fille", "« Léa est partie »", "entre 40 et 65 mots", "4 à 6 phrases", "14 mots",
                       "présent", "imparfait", "homophones a / à", "accord du participe passé avec être", "au moins 2 fois",
                       "\"titre\"", "\"phrases\"", "60 caractères", "joyeux et bienveillant"] {
            #expect(system.contains(needle), "\(needle)")
        }
        #expect(!system.contains("{"  + "Prenom}") && !system.contains("[prénom]"))
        #expect(!system.contains("passé simple"), "not taught in CE2")
        let tom = DictationPlan(child: Child(firstName: "Tom", gender: .masculine, grade: .cp), moment: Self.piscine, targets: [])
        #expect(Instructions.system(for: tom).contains("« Tom est parti »"))
        #expect(Instructions.system(for: tom).contains("être, avoir, aller et des verbes en -er"))
        let prompt = Instructions.prompt(for: Self.dated(.past))
        #expect(prompt.contains("« la sortie piscine »") && prompt.contains("a déjà eu lieu") && prompt.contains("C'était samedi dernier ;"))
        #expect(Instructions.prompt(for: Self.dated(.upcoming)).contains("va bientôt avoir lieu"))
        #expect(Instructions.maxTokens(for: Self.plan) == 65 * 3 + 60 + 8 * 6)
    }

    @Test(arguments: [
        (#"{"titre": "T", "phrases": ["Une phrase."]}"#, true),
        (#"{"titre": "T", "phrases": []}"#, false),
        (#"{"titre": "T", "phrases": ["a.","b.","c.","d.","e.","f.","g.","h.","i.","j.","k.","l.","m."]}"#, false),
        (#"{"titre": "\#(String(repeating: "x", count: 61))", "phrases": ["Une phrase."]}"#, false),
        (#"{"phrases": ["Une phrase."]}"#, false),
        (#"{"titre": "T", "phrases": ["  "]}"#, false),
        (#"{"titre": "T", "phrases": [3]}"#, false),
        ("pas du JSON", false),
    ])
    func theAnswerParser(_ content: String, _ valid: Bool) {
        #expect((DictationAnswer.parse(content) != nil) == valid)
    }

    @Test func theSchemaIsBoundedEverywhere() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(DictationAnswer.schema.utf8)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        #expect(properties["titre"]?["maxLength"] as? Int == 60)
        #expect(properties["phrases"]?["maxItems"] as? Int == 12)
        #expect((properties["phrases"]?["items"] as? [String: Any])?["maxLength"] as? Int == DictationAnswer.maximumSentenceLength)
    }
}

/// What the llama-cpp-python server really sends: raw control characters inside strings.
@Suite struct AnswerParsingTests {
    @Test func rawControlCharactersInsideStringsAreEscapedBeforeParsing() throws {
        let raw = "{\"titre\": \"A\u{17}B\", \"phrases\": [\"x\u{0C}y\\\"z\\\\\", \"\u{1B}\"]}\n"
        let parsed = try #require(DictationAnswer.parse(raw))
        #expect(parsed.titre == "A\u{17}B")
        #expect(parsed.phrases == ["x\u{0C}y\"z\\", "\u{1B}"])
        #expect(DictationAnswer.escapingControlCharacters("{\n\"a\": \"\t\"}") == "{\n\"a\": \"\\u0009\"}", "whitespace between tokens stays")
    }
}

/// Regressions from the adversarial run on generation.
@Suite struct GenerationRegressionTests {
    @Test func aPlainTextRefusalIsARefusal() throws {
        let model = ScriptedModel([.answer("Je ne peux pas écrire ça.", .stop)])
        let session = GenerationSession(model: model, checker: ScriptedChecker(), library: try Library.bundled())
        let result = try #require(session.write(GenerationSessionTests.dated(.past)))
        #expect(result.attempts.allSatisfy { $0.failure == .refusal })
        #expect(result.attempts[1].removed == [.moment])
    }

    @Test func theTitleCannotBringNewWordsAndWhiteSpaceIsFolded() {
        let plan = GenerationSessionTests.plan
        let a = GenerationSession.draft(DictationAnswer(titre: "Le concert de Zoé", phrases: ["Léa\nnage.", "Elle\trit."]), plan: plan)
        #expect(a.title == "La sortie piscine", "Zoé is in neither the text nor the moment")
        #expect(a.text == "Léa nage. Elle rit.")
        let b = GenerationSession.draft(DictationAnswer(titre: "  La\npiscine ", phrases: ["Le\u{0301}a va a\u{0300} la sortie piscine."]), plan: plan)
        #expect(b.title == "La piscine")
        #expect(b.text == "Léa va à la sortie piscine.", "NFC")
        #expect(GenerationSession.draft(DictationAnswer(titre: "   ", phrases: ["Léa nage."]), plan: plan).title == "La sortie piscine")
    }
}

/// The session with the real validator (Lexique, Hunspell, Grammalecte): the model's good answer
/// passes, a short one fails `longueur`, and the library's fallback passes the eight steps.
@Suite struct GenerationWithTheRealValidatorTests {
    @Test func theRealValidatorDrivesTheRetryAndTheFallback() throws {
        let library = try Library.bundled()
        let model = ScriptedModel([.answer(GenerationSessionTests.tooShort, .stop), .answer(GenerationSessionTests.good, .stop)])
        let session = GenerationSession(model: model, checker: try TestValidator.shared(), library: library)
        let result = try #require(session.write(GenerationSessionTests.dated(.past)))
        #expect(!result.fromLibrary && result.attempts.count == 2)
        guard case .validation(let steps) = result.attempts[0].failure else {
            Issue.record("the short text fails the validator: \(String(describing: result.attempts[0].failure))")
            return
        }
        #expect(steps.contains { $0.step == .longueur && $0.rules.contains("longueur_mots") })
        #expect(model.requests[1].chat.contains("Le texte compte"), "with the validator's French sentences")
        let fallback = GenerationSession(model: ScriptedModel([.fail(.refused("x"))]), checker: try TestValidator.shared(), library: library)
        let served = try #require(fallback.write(GenerationSessionTests.dated(.past)))
        #expect(served.fromLibrary && served.attempts.count == 5)
        #expect(try TestValidator.shared().check(served.draft, plan: served.plan).isEmpty)
    }
}

extension ModelRequest {
    /// Every message of the chat, one after the other.
    var chat: String { messages.map(\.content).joined(separator: "\n") }
}
