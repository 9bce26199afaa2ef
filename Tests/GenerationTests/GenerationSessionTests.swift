import DicteeCore
import Foundation
import French
import PrivacyFilter
import Testing
@testable import Dictation
@testable import Generation

/// The real validator (Lexique, Hunspell, Grammalecte); a missing piece fails the test.
enum TestValidator {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
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
    var steps: [Step]
    var requests: [ModelRequest] = []

    init(_ steps: [Step], contextLength: Int = 4096, tokens: Int? = 500) {
        self.steps = steps
        self.contextLength = contextLength
        self.tokens = tokens
    }

    func countTokens(_ text: String) -> Int? { tokens }

    func complete(_ request: ModelRequest) throws(ModelError) -> ModelAnswer {
        requests.append(request)
        let step = steps.count > 1 ? steps.removeFirst() : steps[0]
        switch step {
        case .answer(let content, let finish):
            return ModelAnswer(content: content, promptTokens: 400, completionTokens: 120, finishReason: finish, seconds: 0.5)
        case .fail(let error):
            throw error
        }
    }
}

@Suite struct GenerationSessionTests {
    static let lea = Child(firstName: "Léa", gender: .feminine, grade: .ce2)
    static let piscine = MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
    static let plan = DictationPlan(child: lea, moment: piscine, targets: [.homophonesAA, .accordPPEtre])
    static let good = #"{"titre": "La piscine", "phrases": ["Samedi, Léa est allée à la sortie piscine avec sa classe.", "Elle a mis son maillot bleu et elle a nagé avec ses amies.", "L'eau était chaude.", "À midi, les enfants ont mangé des pommes au bord du bassin.", "Le soir, Léa est rentrée à la maison.", "Elle a raconté sa journée à son papa."]}"#
    static let tooShort = #"{"titre": "La piscine", "phrases": ["Léa a nagé."]}"#
    static let refusal = #"{"titre": "Désolé", "phrases": ["Je ne peux pas écrire ce texte."]}"#

    func session(_ model: ScriptedModel?) throws -> GenerationSession {
        GenerationSession(model: model, validator: try TestValidator.shared(), library: try Library.bundled())
    }

    @Test func aFirstInvalidAnswerIsRetriedWithTheValidatorsSentencesAndTheSecondIsAccepted() throws {
        let model = ScriptedModel([.answer(Self.tooShort, .stop), .answer(Self.good, .stop)])
        let result = try #require(try session(model).write(Self.plan, time: .past))
        #expect(!result.fromLibrary && result.origin == "fake-model")
        #expect(result.draft.text.hasPrefix("Samedi, Léa est allée"))
        #expect(result.draft.title == "La piscine")
        #expect(result.attempts.count == 2)
        #expect(result.attempts[0].failedSteps.contains("longueur"))
        #expect(result.attempts[1].failedSteps.isEmpty)
        #expect(result.attempts.allSatisfy { $0.promptTokens == 400 && $0.completionTokens == 120 && $0.finishReason == "stop" })
        let retry = model.requests[1].prompt
        #expect(retry.contains("Léa a nagé."), "the previous answer is sent back")
        #expect(retry.contains("Le texte compte"), "with the validator's French sentences")
        #expect(model.requests[0].temperature == model.requests[1].temperature, "the temperature is not the repair")
        #expect(model.requests.allSatisfy { $0.schema == DictationAnswer.schema })
    }

    @Test func aModelThatAlwaysRefusesGetsFiveAttemptsWithoutTheMomentThenWithoutTheContentRuleThenTheLibrary() throws {
        let model = ScriptedModel([.fail(.refused("content safety"))])
        let result = try #require(try session(model).write(Self.plan, time: .past))
        #expect(result.fromLibrary && result.origin.hasPrefix("library:ce2-"))
        #expect(result.draft.text.contains("Léa") && result.draft.text.contains("sortie piscine"))
        #expect(result.attempts.count == 5 && model.requests.count == 5)
        #expect(result.attempts.allSatisfy { $0.failedSteps == ["refus"] })
        #expect(result.attempts.map(\.removed) == [[], [.moment], [.contentRule], [.moment, .contentRule], [.moment, .contentRule]])
        #expect(model.requests[0].prompt.contains("la sortie piscine"))
        #expect(!model.requests[1].prompt.contains("piscine"), "the second attempt leaves the moment out")
        #expect(model.requests[1].instructions.contains("joyeux et bienveillant"))
        #expect(model.requests[2].prompt.contains("la sortie piscine"))
        #expect(!model.requests[2].instructions.contains("joyeux et bienveillant"), "the third leaves the content rule out")
        #expect(result.diagnosis == nil, "nothing unlocked it")
    }

    @Test func aRefusalUnlockedByLeavingTheMomentOutIsDiagnosedAndTheLibraryServes() throws {
        let model = ScriptedModel([.answer(Self.refusal, .stop), .answer(Self.good, .stop)])
        let result = try #require(try session(model).write(Self.plan, time: .past))
        #expect(result.diagnosis == "sans_moment")
        #expect(result.fromLibrary)
        #expect(result.attempts.count == 2 && result.attempts[0].failedSteps == ["refus"])
    }

    @Test func aRefusalUnlockedByLeavingTheContentRuleOutCanStillPass() throws {
        let model = ScriptedModel([.fail(.refused("x")), .fail(.refused("x")), .answer(Self.good, .stop)])
        let result = try #require(try session(model).write(Self.plan, time: .past))
        #expect(result.diagnosis == "sans_regle_de_contenu")
        #expect(!result.fromLibrary && result.attempts.count == 3)
    }

    @Test func aRunawayIsAFailedAttemptWhoseFeedbackSaysTheTextWasFarTooLong() throws {
        let model = ScriptedModel([.answer(#"{"titre": "La piscine", "phrases": ["Léa"#, .length)])
        let result = try #require(try session(model).write(Self.plan, time: .upcoming))
        #expect(result.fromLibrary && result.attempts.count == 5)
        #expect(result.attempts.allSatisfy { $0.failedSteps == ["trop_long"] && $0.finishReason == "length" })
        #expect(model.requests[1].prompt.contains("beaucoup trop long"))
        let timeouts = ScriptedModel([.fail(.timeout(120))])
        let t = try #require(try session(timeouts).write(Self.plan, time: nil))
        #expect(t.attempts.count == 5 && t.attempts.allSatisfy { $0.failedSteps == ["trop_long"] })
        #expect(timeouts.requests[1].prompt.contains("beaucoup trop long"))
    }

    @Test func anAnswerThatIsNotTheJSONAskedForIsAFormatFailure() throws {
        let model = ScriptedModel([.answer("Voici une dictée : Léa nage.", .stop), .answer(Self.good, .stop)])
        let result = try #require(try session(model).write(Self.plan, time: .past))
        #expect(result.attempts.map(\.failedSteps) == [["format"], []])
        #expect(model.requests[1].prompt.contains("objet JSON"))
    }

    @Test func aPromptThatDoesNotFitTheContextIsNeverSent() throws {
        let model = ScriptedModel([.answer(Self.good, .stop)], contextLength: 600, tokens: 500)
        let result = try #require(try session(model).write(Self.plan, time: .past))
        #expect(model.requests.isEmpty)
        #expect(result.fromLibrary && result.attempts.map(\.failedSteps) == [["contexte"]])
        // Without a tokenizer the estimate is conservative (2 bytes a token).
        let estimated = ScriptedModel([.answer(Self.good, .stop)], contextLength: 4096, tokens: nil)
        #expect(try session(estimated).write(Self.plan, time: .past)?.fromLibrary == false)
    }

    @Test func anUnreachableServerFallsBackAtOnce() throws {
        let model = ScriptedModel([.fail(.unavailable("connection refused"))])
        let result = try #require(try session(model).write(Self.plan, time: .past))
        #expect(result.fromLibrary && result.attempts.map(\.failedSteps) == [["serveur"]])
    }

    @Test func withoutAModelTheLibraryServesEveryText() throws {
        let result = try #require(try session(nil).write(Self.plan, time: .past))
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
        let prompt = Instructions.prompt(for: Self.plan, time: .past)
        #expect(prompt.contains("« la sortie piscine »") && prompt.contains("a déjà eu lieu"))
        #expect(Instructions.prompt(for: Self.plan, time: .upcoming).contains("va bientôt avoir lieu"))
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

    @Test func theTwoResponseFormatSpellings() throws {
        let model = OpenAICompatibleModel(endpoint: URL(string: "http://127.0.0.1:1/v1")!, modelName: "m", contextLength: 2048)
        let request = ModelRequest(instructions: "i", prompt: "p", schema: DictationAnswer.schema, maxTokens: 10)
        let a = try #require(try JSONSerialization.jsonObject(with: try model.body(request, .jsonObjectWithSchema)) as? [String: Any])
        let formatA = try #require(a["response_format"] as? [String: Any])
        #expect(formatA["type"] as? String == "json_object" && formatA["schema"] != nil)
        let b = try #require(try JSONSerialization.jsonObject(with: try model.body(request, .jsonSchema)) as? [String: Any])
        let formatB = try #require(b["response_format"] as? [String: Any])
        #expect(formatB["type"] as? String == "json_schema" && (formatB["json_schema"] as? [String: Any])?["schema"] != nil)
        #expect((a["messages"] as? [[String: String]])?.map { $0["role"] ?? "" } == ["system", "user"])
        #expect(a["max_tokens"] as? Int == 10)
        #expect(model.root.absoluteString == "http://127.0.0.1:1/")
        // Nothing listens on port 1: unavailable, not a crash.
        #expect(throws: ModelError.self) { try model.complete(request) }
        #expect(model.countTokens("Bonjour") == nil)
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
        let session = GenerationSession(model: model, validator: try TestValidator.shared(), library: try Library.bundled())
        let result = try #require(session.write(GenerationSessionTests.plan, time: .past))
        #expect(result.attempts.allSatisfy { $0.failedSteps == ["refus"] })
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

    @Test func theTokenizerBodyIsLoggedFirstOrNotSent() {
        final class Log: @unchecked Sendable { var bodies: [Data] = [] }
        let log = Log()
        let logging = OpenAICompatibleModel(endpoint: URL(string: "http://127.0.0.1:1/v1")!, modelName: "m", contextLength: 2048,
                                            beforeSending: { log.bodies.append($0) })
        _ = logging.countTokens("Bonjour Léa")
        #expect(!log.bodies.isEmpty && String(decoding: log.bodies[0], as: UTF8.self).contains("Bonjour"))
        struct Refused: Error {}
        let refusing = OpenAICompatibleModel(endpoint: URL(string: "http://127.0.0.1:1/v1")!, modelName: "m", contextLength: 2048,
                                             beforeSending: { _ in throw Refused() })
        #expect(refusing.countTokens("Bonjour") == nil)
        #expect(throws: ModelError.self) {
            try refusing.complete(ModelRequest(instructions: "i", prompt: "p", schema: DictationAnswer.schema, maxTokens: 5))
        }
    }
}

@Suite struct ServerErrorTests {
    @Test func onlyAShortErrorCodeOfTheServerIsKeptNeverItsMessage() {
        let echo = Data(#"{"error":{"message":"Tu écris une dictée pour Léa","type":"invalid_request_error","code":"context_length_exceeded"}}"#.utf8)
        #expect(OpenAICompatibleModel.errorCode(echo) == "context_length_exceeded")
        #expect(OpenAICompatibleModel.errorCode(Data(#"{"error":{"type":"Léa écrit"}}"#.utf8)) == nil)
        #expect(OpenAICompatibleModel.errorCode(Data("Internal Server Error".utf8)) == nil)
    }
}
