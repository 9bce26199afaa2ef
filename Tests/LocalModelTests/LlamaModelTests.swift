import DicteeCore
import DicteeTestSupport
import Foundation
import Generation
@testable import LocalModel
import Testing

/// The tiny random-weight GGUF (Scripts/model/make-tiny-gguf.py: valid llama.cpp structure and
/// byte-level tokenizer, garbage text), written once per test process with the PyPI `gguf` package
/// of the llama-cpp-python virtual environment (Scripts/setup --tests installs it).
enum TinyModel {
    static var python: String { llamaVenvPython }

    /// The folder of this process's files (removed by nobody: the system's temporary folder).
    static let folder: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-llama-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }()

    /// The GGUF's path, or why it could not be written.
    static let file: Result<String, TinyGGUFError> = {
        let path = folder.appendingPathComponent("tiny-random.gguf").path
        do { try writeTinyGGUF(to: path) } catch let error as TinyGGUFError { return .failure(error) } catch {
            return .failure(TinyGGUFError(description: "\(error)"))
        }
        return .success(path)
    }()

    static func path() throws -> String { try file.get() }

    static func load(context: Int = 8192, timeout: Double = 600) throws -> LlamaModel {
        try LlamaModel(path: try path(), id: "tiny-random", settings: LlamaSettings(contextLength: context, timeoutSeconds: timeout))
    }
}


/// A request shaped like the session's: French instructions, a moment, a budget.
func dictationRequest(prompt: String = "Écris une dictée sur la sortie piscine de samedi pour Léa, en CE1.",
                      maxTokens: Int = 3000, temperature: Double = 0.7, seed: UInt32? = 7) -> ModelRequest {
    ModelRequest(instructions: """
                 Tu écris des dictées courtes pour un enfant de l'école primaire. Réponds en JSON : \
                 {"titre": "...", "phrases": ["...", "..."]}. Phrases simples, au passé composé, sans nom de lieu.
                 """,
                 prompt: prompt, schema: DictationAnswer.schema, maxTokens: maxTokens, temperature: temperature, seed: seed)
}

/// `LlamaModel` with the tiny random GGUF: loading, exact token counts, the grammar, the budgets,
/// usage with KV reuse, and the errors of a file that is not a model.
@Suite(.serialized) struct LlamaModelTests {
    @Test func loadsAndCountsTokensWithTheModelsOwnVocabulary() throws {
        let model = try TinyModel.load()
        #expect(model.id == "tiny-random" && model.contextLength == 8192)
        // The same count as llama.cpp's tokenizer through llama-cpp-python, on the same file.
        let texts = ["Léa est allée à la piscine samedi.", "{\"titre\": \"Le marché\", \"phrases\": [\"Hugo a vu des pommes.\"]}"]
        for text in texts {
            let script = "import sys; from llama_cpp import Llama; m = Llama(model_path=sys.argv[1], vocab_only=True, verbose=False); "
                + "print(len(m.tokenize(sys.argv[2].encode(), add_bos=False, special=False)))"
            let run = try ChildProcess.run(executable: TinyModel.python, arguments: ["-c", script, try TinyModel.path(), text], timeout: 600)
            let theirs = Int(String(decoding: run.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(theirs != nil && model.countTokens(text) == theirs, "\(String(decoding: run.standardError, as: UTF8.self))")
        }
    }

    /// Every answer that ends by itself is a JSON object of the shape, from random weights too.
    /// The lengths hold for every answer whose bytes are valid UTF-8: random byte-level weights
    /// can leave a multi-byte sequence unfinished, which llama.cpp's grammar does not check (it
    /// counts the bytes as one character; decoded, each is a U+FFFD), and `parse` then refuses a
    /// title of more than 60 characters as a format failure, which the session retries.
    @Test func theGrammarAlwaysYieldsAnAnswerThatParses() throws {
        let model = try TinyModel.load()
        var ended = 0, wellFormed = 0
        for seed in UInt32(1)...6 {
            for temperature in [0.0, 0.7, 1.5] {
                let answer = try model.complete(dictationRequest(temperature: temperature, seed: seed))
                guard answer.finishReason == .stop else {
                    #expect(answer.finishReason == .length && answer.completionTokens == 3000)
                    continue
                }
                ended += 1
                let object = try? JSONSerialization.jsonObject(with: Data(answer.content.utf8)) as? [String: Any]
                #expect(object?["titre"] is String && (object?["phrases"] as? [String])?.isEmpty == false,
                        "seed \(seed), temperature \(temperature): \(answer.content)")
                #expect(Set(object?.keys.map { $0 } ?? []) == ["titre", "phrases"])
                if !answer.content.contains("\u{FFFD}") {
                    wellFormed += 1
                    #expect(DictationAnswer.parse(answer.content) != nil, "seed \(seed), temperature \(temperature): \(answer.content)")
                }
            }
        }
        #expect(ended >= 9, "most answers end by themselves within 3,000 tokens (\(ended) of 18)")
        #expect(wellFormed >= 6, "\(wellFormed) of \(ended) answers have valid UTF-8")
    }

    @Test func theTokenBudgetAndTheWallClockBudgetStopARunaway() throws {
        let model = try TinyModel.load()
        let short = try model.complete(dictationRequest(maxTokens: 6))
        #expect(short.finishReason == .length && short.completionTokens == 6)
        let slow = try TinyModel.load(timeout: 0.001)
        #expect(throws: ModelError.timeout(0.001)) { try slow.complete(dictationRequest()) }
        // A prompt that does not fit the context with the budget is not evaluated.
        let small = try TinyModel.load(context: 256)
        #expect { try small.complete(dictationRequest(maxTokens: 200)) } throws: { error in
            guard case ModelError.promptTooLong(let prompt, 200, 256) = error else { return false }
            return prompt > 56
        }
    }

    /// The instructions are evaluated once: a retry continues the first attempt's chat, and
    /// evaluates only the feedback (its previous answer's tokens are still in the cache).
    @Test func usageIsExactAndARetryEvaluatesOnlyTheFeedback() throws {
        let model = try TinyModel.load()
        let first = try model.complete(dictationRequest(maxTokens: 40))
        #expect(first.cachedTokens == 0 && first.promptTokens > 0 && first.completionTokens > 0)
        let instructions = try #require(model.countTokens(dictationRequest().instructions))
        #expect(first.promptTokens > instructions)

        var retry = dictationRequest(maxTokens: 40)
        retry.previousAnswer = first.content
        retry.feedback = Instructions.feedback(["Le texte doit nommer Léa."])
        let second = try model.complete(retry)
        let feedback = try #require(model.countTokens(retry.feedback!))
        #expect(second.cachedTokens >= first.promptTokens + first.completionTokens - 1,
                "the first chat and the answer were kept (\(second.cachedTokens) of \(second.promptTokens))")
        #expect(second.promptTokens - second.cachedTokens <= feedback + GenerationSession.templateMarginTokens,
                "only the feedback and the template's tokens around it")

        // The first request again: everything but its last token is kept.
        let again = try model.complete(dictationRequest(maxTokens: 40))
        #expect(again.cachedTokens == again.promptTokens - 1 && again.promptTokens == first.promptTokens)

        // Another text for the same child (the same instructions): they are kept.
        let other = try model.complete(dictationRequest(prompt: "Écris une dictée sur le marché de dimanche pour Léa.", maxTokens: 40))
        #expect(other.cachedTokens >= instructions)
    }

    @Test func aFileThatIsNotAModelIsAClearError() throws {
        let dir = TinyModel.folder.appendingPathComponent("bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let settings = LlamaSettings(contextLength: 512)
        let missing = dir.appendingPathComponent("absent.gguf").path
        #expect(throws: LlamaLoadError.unreadable(path: missing, reason: systemReason(ENOENT))) {
            try LlamaModel(path: missing, id: "x", settings: settings)
        }
        let text = dir.appendingPathComponent("notes.gguf").path
        try Data("pas un modèle\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: LlamaLoadError.notGGUF(path: text)) { try LlamaModel(path: text, id: "x", settings: settings) }
        #expect(throws: LlamaLoadError.notGGUF(path: dir.path)) { try LlamaModel(path: dir.path, id: "x", settings: settings) }
        // A GGUF cut short: llama.cpp refuses it, and the message names the file.
        let cut = dir.appendingPathComponent("cut.gguf").path
        let whole = try Data(contentsOf: URL(fileURLWithPath: try TinyModel.path()))
        try whole.prefix(4096).write(to: URL(fileURLWithPath: cut))
        #expect { try LlamaModel(path: cut, id: "x", settings: settings) } throws: { error in
            guard case LlamaLoadError.rejected(let path, _) = error else { return false }
            return path == cut && "\(error)".hasPrefix(cut + ": llama.cpp cannot load this model")
        }
        // A chat template llama.cpp does not apply itself: said, with the way out.
        let odd = dir.appendingPathComponent("odd-template.gguf").path
        let run = try ChildProcess.run(executable: TinyModel.python, arguments: [
            repositoryRoot.appendingPathComponent("Scripts/model/make-tiny-gguf.py").path, odd, "--chat-template", "{{ messages | tojson }}",
        ], timeout: 600)
        try #require(run.termination == .exited(0), "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(throws: LlamaLoadError.unknownChatTemplate(path: odd)) { try LlamaModel(path: odd, id: "x", settings: settings) }
        #expect("\(LlamaLoadError.unknownChatTemplate(path: odd))".contains("\"in_process\": false"))
        // A FIFO is refused at once (never waits for a writer).
        let fifo = dir.appendingPathComponent("fifo.gguf").path
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(throws: LlamaLoadError.notGGUF(path: fifo)) { try LlamaModel(path: fifo, id: "x", settings: settings) }
        let unreadable = dir.appendingPathComponent("locked.gguf").path
        try whole.write(to: URL(fileURLWithPath: unreadable))
        chmod(unreadable, 0)
        if getuid() != 0 {
            #expect(throws: LlamaLoadError.unreadable(path: unreadable, reason: systemReason(EACCES))) {
                try LlamaModel(path: unreadable, id: "x", settings: settings)
            }
        }
    }

    /// Damaged weights (NaN scores) are a failed attempt, never a crash: llama.cpp answers a token
    /// its grammar refused with a C++ exception, which would end the whole nightly.
    @Test func damagedWeightsAreAFailedAttemptNotACrash() throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try TinyModel.path()))
        // The tensors are the file's second half (all f32): 0xFF bytes are NaNs.
        let start = bytes.count / 2
        bytes.replaceSubrange(start..<(start + 40_000), with: Data(repeating: 0xFF, count: 40_000))
        let damaged = TinyModel.folder.appendingPathComponent("damaged-\(UUID().uuidString).gguf").path
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let model = try LlamaModel(path: damaged, id: "damaged", settings: LlamaSettings(contextLength: 4096))
        #expect { try model.complete(dictationRequest(maxTokens: 50)) } throws: { error in
            guard case ModelError.badResponse(let why) = error else { return false }
            return why.contains("NaN")
        }
    }

    /// llama.cpp reads seed 4294967295 as "draw a random one": it is taken as 0, so that every
    /// configured seed gives the same text again; a context past 2^32 tokens is refused, not a crash.
    @Test func everySeedIsReproducibleAndAHugeContextIsRefused() throws {
        #expect(LlamaModel.drawSeed(UInt32.max) == 0 && LlamaModel.drawSeed(42) == 42 && LlamaModel.drawSeed(0) == 0)
        // Two fresh models (the same computation, no cache), the same request and seed.
        let a = try TinyModel.load().complete(dictationRequest(maxTokens: 30, seed: UInt32.max))
        let b = try TinyModel.load().complete(dictationRequest(maxTokens: 30, seed: UInt32.max))
        #expect(a.content == b.content)
        let huge = Int(UInt32.max) + 1
        #expect(throws: LlamaLoadError.noContext(path: try TinyModel.path(), tokens: huge)) {
            try LlamaModel(path: try TinyModel.path(), id: "x", settings: LlamaSettings(contextLength: huge))
        }
    }
}
