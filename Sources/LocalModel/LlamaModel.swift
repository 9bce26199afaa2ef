internal import CLlama
import DicteeCore
import Foundation
import Generation

// The only file that calls into llama.cpp (module CLlama, pkg-config `llama`; Package.swift builds it
// only when the library is there). Ownership, as llama.h states it:
// - `llama_model` (the GGUF, mmap-ed) is owned by `LlamaModel` and freed last (`llama_model_free`);
// - `llama_context` (the KV cache, the compute buffers) is owned by `LlamaModel` and freed before
//   the model (`llama_free`);
// - the vocabulary and the chat template belong to the model (never freed on their own);
// - a sampler chain is made per request and owns the samplers added to it: one
//   `llama_sampler_free(chain)` frees them all, before the next request;
// - batches made by `llama_batch_get_one` point into a Swift array and own nothing.
// Everything is freed in the reverse order of its creation.

/// How an in-process model runs: its context and the per-attempt wall-clock budget. Temperature
/// and seed come with each request (`ModelRequest`).
public struct LlamaSettings: Sendable, Hashable {
    /// The context length, in tokens (`model.context`, default 2048).
    public var contextLength: Int
    /// The wall-clock budget of one attempt, in seconds (`model.timeout_seconds`, default 120):
    /// prompt evaluation and generation stop there, and the attempt is a timeout.
    public var timeoutSeconds: Double
    /// CPU threads for evaluation and generation (2: the family's machine is often busy).
    public var threads: Int

    public init(contextLength: Int = 2048, timeoutSeconds: Double = 120, threads: Int = 2) {
        self.contextLength = contextLength
        self.timeoutSeconds = timeoutSeconds
        self.threads = threads
    }
}

/// Why a model file could not be loaded in process. Messages name the file and never a prompt.
public enum LlamaLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file cannot be read (`reason`: the system's).
    case unreadable(path: String, reason: String)
    /// The file does not start with the GGUF magic (`GGUF`, gguf.md "File Structure").
    case notGGUF(path: String)
    /// llama.cpp refused the file (`detail`: its last error line, when it gave one).
    case rejected(path: String, detail: String)
    /// No context of `tokens` tokens could be made (memory).
    case noContext(path: String, tokens: Int)
    /// The GGUF's chat template is not one llama.cpp applies itself (`llama_chat_apply_template`
    /// knows the common families: ChatML, Llama 2/3, Mistral, Gemma, Phi 3...).
    case unknownChatTemplate(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): tr("%@: the model file cannot be read (%@)", path, reason)
        case .notGGUF(let path): tr("%@ is not a GGUF model file", path)
        case .rejected(let path, let detail):
            detail.isEmpty ? tr("%@: llama.cpp cannot load this model", path) : tr("%@: llama.cpp cannot load this model (%@)", path, detail)
        case .noContext(let path, let tokens): tr("%@: no context of %ld tokens could be made for this model (memory?)", path, tokens)
        case .unknownChatTemplate(let path):
            tr("%@: llama.cpp does not know this model's chat template; set \"in_process\": false in the model configuration to use the llama-cpp-python server", path)
        }
    }
}

/// A GGUF language model run inside dictee through llama.cpp: no server, no socket, no other
/// process (managed mode when dictee is built with llama.cpp; README "Dependencies").
///
/// - The GGUF is loaded once (mmap) and kept for the run; one context of
///   `LlamaSettings.contextLength` tokens.
/// - Tokens are the model's own (`llama_tokenize` with its vocabulary): counts are exact.
/// - The prompt is the GGUF's chat template (`tokenizer.chat_template`, applied by llama.cpp)
///   over two messages: the system message (`ModelRequest.instructions`) and the user message
///   (`ModelRequest.prompt`); a GGUF without a template gets ChatML.
/// - Sampling is constrained by `DictationAnswer.grammar` (GBNF), then top-k 40, top-p 0.95,
///   min-p 0.05, the request's temperature, and a draw seeded with the request's seed (the
///   llama-cpp-python server's defaults); temperature 0 is greedy.
/// - KV reuse: the context keeps the tokens it evaluated and generated last. A request evaluates
///   only what follows the longest common prefix of its tokens and the kept ones
///   (`llama_memory_seq_rm` drops the rest): the instructions and the prompt of a plan are
///   evaluated once for all its attempts; a retry continues that chat with the model's previous
///   answer, whose generated tokens are still there, so it evaluates only the validator's
///   sentences; texts with the same instructions (same child, grade and skills) share them.
///   `ModelAnswer.cachedTokens` says how many were kept.
/// - Budgets per attempt: `ModelRequest.maxTokens` completion tokens (then `FinishReason.length`),
///   and `LlamaSettings.timeoutSeconds` of wall-clock time (then `ModelError.timeout`).
public final class LlamaModel: LanguageModel, @unchecked Sendable {
    public let id: String
    public let contextLength: Int
    /// The file loaded.
    public let path: String
    public let settings: LlamaSettings
    /// The seed of the first request without one; the next ones add 1 each: a run is
    /// reproducible, and a retry whose chat came out the same still gets another text.
    public static let defaultSeed: UInt32 = 42
    /// The seed given to llama.cpp for `seed`: llama.cpp reads 4294967295 (`LLAMA_DEFAULT_SEED`)
    /// as "draw a random seed", so that one is taken as 0, the next in the wrap-around, and every
    /// seed gives the same text again.
    static func drawSeed(_ seed: UInt32) -> UInt32 { seed == LLAMA_DEFAULT_SEED ? 0 : seed }
    /// Requests made so far (for the default seed).
    private var requests = 0

    private let model: OpaquePointer
    private let context: OpaquePointer
    private let vocab: OpaquePointer
    /// The chat template (`nil`: ChatML, llama.cpp's default).
    private let template: String?
    /// Tokens per `llama_decode` call while evaluating a prompt.
    private let batchSize: Int
    private let lock = NSLock()
    /// The tokens whose keys and values are in the context, in order (sequence 0).
    private var kept: [llama_token] = []
    /// The current request's wall-clock deadline (seconds since 1970; infinity between
    /// requests), read by llama.cpp's abort callback between the steps of an evaluation, so that
    /// a long prompt on a busy machine stops at the budget too. Allocated once the context exists,
    /// freed in deinit after it.
    private let deadline: UnsafeMutablePointer<Double>
    /// The last answer's text and the tokens generated for it (`promptTokens`).
    private var lastAnswer: (text: String, tokens: [llama_token])?

    /// llama.cpp's global state, once per process: the backends and the log callback (its lines
    /// stay off the family's terminal; errors are kept for `LlamaLoadError.rejected`).
    private static let backend: Void = {
        llama_log_set({ level, text, _ in
            guard level == GGML_LOG_LEVEL_ERROR, let text else { return }
            LlamaModel.lastError.set(String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines))
        }, nil)
        llama_backend_init()
    }()

    /// llama.cpp's last error line (its log callback has no context of its own).
    static let lastError = LockedText()

    /// Loads `path`.
    /// - Parameters:
    ///   - path: a GGUF file.
    ///   - id: the id recorded as the texts' origin (`model.name`, else the file's name).
    ///   - settings: context, sampling and budgets.
    /// - Throws: `LlamaLoadError` (unreadable, not GGUF, refused by llama.cpp, no context, a chat
    ///   template llama.cpp cannot apply).
    public init(path: String, id: String, settings: LlamaSettings) throws(LlamaLoadError) {
        _ = Self.backend
        try Self.checkMagic(path)
        Self.lastError.set("")
        var modelParameters = llama_model_default_params()
        modelParameters.n_gpu_layers = 0
        guard let model = llama_model_load_from_file(path, modelParameters) else {
            throw .rejected(path: path, detail: Self.lastError.get())
        }
        var contextParameters = llama_context_default_params()
        // Clamped: a context past 2^32 tokens is refused by llama.cpp below as any too large one.
        contextParameters.n_ctx = UInt32(clamping: settings.contextLength)
        contextParameters.n_batch = 512
        contextParameters.n_ubatch = 512
        contextParameters.n_seq_max = 1
        contextParameters.n_threads = Int32(settings.threads)
        contextParameters.n_threads_batch = Int32(settings.threads)
        contextParameters.no_perf = true
        // As the llama-cpp-python server runs: ggml's CPU flash attention made each token of the
        // tiny test model about ten times slower here (perf: 43 % of the time in
        // ggml_compute_forward_flash_attn_ext over an 8,192-token context).
        contextParameters.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED
        guard let context = llama_init_from_model(model, contextParameters) else {
            llama_model_free(model)
            throw .noContext(path: path, tokens: settings.contextLength)
        }
        let template = llama_model_chat_template(model, nil).map { String(cString: $0) }
        let deadline = UnsafeMutablePointer<Double>.allocate(capacity: 1)
        deadline.initialize(to: .infinity)
        llama_set_abort_callback(context, { data in
            guard let data else { return false }
            return Date().timeIntervalSince1970 > data.assumingMemoryBound(to: Double.self).pointee
        }, deadline)
        self.deadline = deadline
        self.model = model
        self.context = context
        self.vocab = llama_model_get_vocab(model)
        self.template = template
        self.batchSize = Int(llama_n_batch(context))
        self.path = path
        self.id = id
        self.settings = settings
        self.contextLength = Int(llama_n_ctx(context))
        // The template must be one llama.cpp applies: try it once on a two-message chat. (Every
        // property is set: deinit frees the context and the model.)
        if (try? render([ModelRequest.Message(role: "system", content: "a"), ModelRequest.Message(role: "user", content: "b")])) == nil {
            throw .unknownChatTemplate(path: path)
        }
    }

    deinit {
        llama_free(context)
        deadline.deallocate()
        llama_model_free(model)
    }

    /// Refuses what is not a readable GGUF file before llama.cpp sees it: a folder, a FIFO or a
    /// device (opened without waiting for a writer), a file not starting with `GGUF`.
    static func checkMagic(_ path: String) throws(LlamaLoadError) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: systemReason(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: systemReason(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notGGUF(path: path) }
        var magic = [UInt8](repeating: 0, count: 4)
        let n = read(fd, &magic, 4)
        guard n >= 0 else { throw .unreadable(path: path, reason: systemReason(errno)) }
        guard n == 4, magic == Array("GGUF".utf8) else { throw .notGGUF(path: path) }
    }

    // MARK: Tokens

    /// The model's tokens of `text`. `chat`: the text is (part of) a rendered chat, whose control
    /// tokens (`<|im_start|>`) are parsed; `start`: it begins the context, and gets the
    /// vocabulary's BOS when it asks for one.
    private func tokenize(_ text: String, chat: Bool, start: Bool) -> [llama_token] {
        let utf8 = Array(text.utf8)
        var capacity = utf8.count + 8
        while true {
            var tokens = [llama_token](repeating: 0, count: capacity)
            let n = utf8.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    llama_tokenize(vocab, chars.baseAddress, Int32(utf8.count), &tokens, Int32(capacity), start, chat)
                }
            }
            if n >= 0 { return Array(tokens.prefix(Int(n))) }
            capacity = Int(-n)
        }
    }

    /// The text of one generated token (its UTF-8 bytes; a character may span tokens).
    private func piece(_ token: llama_token) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 64)
        var n = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
        if n < 0 {
            buffer = [CChar](repeating: 0, count: Int(-n))
            n = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
        }
        return buffer.prefix(max(0, Int(n))).map { UInt8(bitPattern: $0) }
    }

    /// Exact: the model's own vocabulary.
    public func countTokens(_ text: String) -> Int? {
        lock.withLock { tokenize(text, chat: false, start: false).count }
    }

    /// The chat template over `messages`, ending where the assistant answers.
    private func render(_ messages: [ModelRequest.Message]) throws(ModelError) -> String {
        let roles = messages.map { strdup($0.role) }
        let contents = messages.map { strdup($0.content) }
        defer { (roles + contents).forEach { free($0) } }
        let chat = zip(roles, contents).map { llama_chat_message(role: $0, content: $1) }
        var capacity = messages.reduce(256) { $0 + $1.content.utf8.count * 2 }
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            let n = chat.withUnsafeBufferPointer { chat in
                llama_chat_apply_template(template, chat.baseAddress, chat.count, true, &buffer, Int32(capacity))
            }
            if n < 0 { throw .badResponse(tr("llama.cpp cannot apply the model's chat template")) }
            if Int(n) <= capacity {
                return String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity = Int(n) + 1
        }
    }

    /// The tokens of a request's chat. On a retry whose previous answer is this model's last one,
    /// the tokens the model generated stand for that answer (tokenizing its text again may split
    /// it otherwise, and the KV cache holds the generated ones), between the tokens of the chat
    /// before it (ending with the assistant's header) and after it.
    private func promptTokens(_ request: ModelRequest) throws(ModelError) -> [llama_token] {
        let messages = request.messages
        let whole = try render(messages)
        if let last = lastAnswer, messages.count == 4, messages[2].role == "assistant", messages[2].content == last.text {
            let head = try render(Array(messages.prefix(2)))
            let bytes = Array(whole.utf8), known = Array((head + last.text).utf8)
            if bytes.starts(with: known) {
                let rest = String(decoding: bytes[known.count...], as: UTF8.self)
                return tokenize(head, chat: true, start: true) + last.tokens + tokenize(rest, chat: true, start: false)
            }
        }
        return tokenize(whole, chat: true, start: true)
    }

    // MARK: Requests

    /// Evaluates `tokens` after the kept prefix and writes the answer, under the request's budgets.
    /// - Throws: `ModelError.promptTooLong` (the prompt and the completion budget exceed the
    ///   context), `.timeout` (the wall-clock budget ran out), `.badResponse` (llama.cpp failed).
    public func complete(_ request: ModelRequest) throws(ModelError) -> ModelAnswer {
        lock.lock()
        defer { lock.unlock() }
        return try completeLocked(request)
    }

    private func completeLocked(_ request: ModelRequest) throws(ModelError) -> ModelAnswer {
        let started = Date()
        let deadline = started.addingTimeInterval(settings.timeoutSeconds)
        self.deadline.pointee = deadline.timeIntervalSince1970
        defer { self.deadline.pointee = .infinity }
        let tokens = try promptTokens(request)
        lastAnswer = nil
        defer { requests += 1 }
        guard tokens.count + request.maxTokens <= contextLength else {
            throw .promptTooLong(promptTokens: tokens.count, maxTokens: request.maxTokens, context: contextLength)
        }

        // Keep the longest common prefix with what the context holds, but always evaluate at
        // least the last prompt token (its logits start the answer).
        var same = 0
        while same < min(kept.count, tokens.count - 1), kept[same] == tokens[same] { same += 1 }
        let memory = llama_get_memory(context)
        if same < kept.count, !llama_memory_seq_rm(memory, 0, llama_pos(same), -1) {
            llama_memory_clear(memory, true)
            same = 0
        }
        kept.removeSubrange(same...)

        var start = same
        while start < tokens.count {
            let end = min(tokens.count, start + batchSize)
            try decode(Array(tokens[start..<end]))
            start = end
            if Date() > deadline { throw .timeout(settings.timeoutSeconds) }
        }

        // The sampler chain of this request (the server's defaults; it owns its samplers), and
        // the grammar apart (owned here: only tokens that keep the answer in shape).
        guard let chain = llama_sampler_chain_init(llama_sampler_chain_default_params()) else {
            throw .badResponse(tr("llama.cpp could not make a sampler"))
        }
        defer { llama_sampler_free(chain) }
        if request.temperature <= 0 {
            llama_sampler_chain_add(chain, llama_sampler_init_greedy())
        } else {
            llama_sampler_chain_add(chain, llama_sampler_init_top_k(40))
            llama_sampler_chain_add(chain, llama_sampler_init_top_p(0.95, 1))
            llama_sampler_chain_add(chain, llama_sampler_init_min_p(0.05, 1))
            llama_sampler_chain_add(chain, llama_sampler_init_temp(Float(request.temperature)))
            llama_sampler_chain_add(chain, llama_sampler_init_dist(Self.drawSeed(request.seed ?? Self.defaultSeed &+ UInt32(truncatingIfNeeded: requests))))
        }
        guard let grammar = llama_sampler_init_grammar(vocab, DictationAnswer.grammar, "root") else {
            throw .badResponse(tr("llama.cpp refused the answer's grammar"))
        }
        defer { llama_sampler_free(grammar) }

        var bytes: [UInt8] = []
        var answer: [llama_token] = []
        var finish = FinishReason.stop
        var candidates = [llama_token_data](repeating: llama_token_data(), count: Int(llama_vocab_n_tokens(vocab)))
        while true {
            if answer.count >= request.maxTokens { finish = .length; break }
            let token = try sample(chain: chain, grammar: grammar, candidates: &candidates)
            if llama_vocab_is_eog(vocab, token) { break }
            answer.append(token)
            bytes += piece(token)
            try decode([token])
            if Date() > deadline { throw .timeout(settings.timeoutSeconds) }
        }
        let content = String(decoding: bytes, as: UTF8.self)
        lastAnswer = (content, answer)
        return ModelAnswer(content: content, promptTokens: tokens.count, completionTokens: answer.count,
                           cachedTokens: same, finishReason: finish, seconds: Date().timeIntervalSince(started))
    }

    /// The next token from the last evaluated token's logits, as llama.cpp's own samplers do it:
    /// a draw without the grammar first, kept when the grammar accepts it (checking one token
    /// instead of the whole vocabulary: 49,152 for SmolLM2, at every step); else the grammar over
    /// every token, then the draw again. The grammar and the chain then accept the token.
    private func sample(chain: UnsafeMutablePointer<llama_sampler>, grammar: UnsafeMutablePointer<llama_sampler>,
                        candidates: inout [llama_token_data]) throws(ModelError) -> llama_token {
        guard let logits = llama_get_logits_ith(context, -1) else { throw .badResponse(tr("llama.cpp gave no logits")) }
        // Damaged weights give NaN scores, with which no draw means anything (and the grammar
        // could be handed a token it refused, which llama.cpp answers with a C++ exception).
        for i in candidates.indices where !logits[i].isFinite {
            throw .badResponse(tr("the model's scores are not numbers (NaN or infinite): is the model file damaged?"))
        }
        func fill() {
            for i in candidates.indices { candidates[i] = llama_token_data(id: llama_token(i), logit: logits[i], p: 0) }
        }
        func draw(_ samplers: [UnsafeMutablePointer<llama_sampler>]) -> llama_token? {
            candidates.withUnsafeMutableBufferPointer { buffer in
                var array = llama_token_data_array(data: buffer.baseAddress, size: buffer.count, selected: -1, sorted: false)
                for sampler in samplers { llama_sampler_apply(sampler, &array) }
                guard array.selected >= 0, array.selected < array.size else { return nil }
                return array.data[Int(array.selected)].id
            }
        }
        fill()
        guard var token = draw([chain]) else { throw .badResponse(tr("llama.cpp could not draw a token")) }
        func allowed(_ token: llama_token) -> Bool {
            var one = llama_token_data(id: token, logit: 1, p: 0)
            return withUnsafeMutablePointer(to: &one) { pointer in
                var single = llama_token_data_array(data: pointer, size: 1, selected: -1, sorted: false)
                llama_sampler_apply(grammar, &single)
                return single.data[0].logit.isFinite
            }
        }
        if !allowed(token) {
            fill()
            // Never hand the grammar a token it refuses: llama.cpp throws a C++ exception then.
            guard let drawn = draw([grammar, chain]), allowed(drawn) else { throw .badResponse(tr("llama.cpp could not draw a token")) }
            token = drawn
        }
        llama_sampler_accept(grammar, token)
        llama_sampler_accept(chain, token)
        return token
    }

    /// Evaluates `tokens` after the kept ones (sequence 0, positions following), and keeps them.
    private func decode(_ tokens: [llama_token]) throws(ModelError) {
        var tokens = tokens
        let status = tokens.withUnsafeMutableBufferPointer { buffer in
            llama_decode(context, llama_batch_get_one(buffer.baseAddress, Int32(buffer.count)))
        }
        switch status {
        case 0:
            kept += tokens
        case 1:
            // No room left in the KV cache (the context is full): start afresh next time.
            let held = kept.count + tokens.count
            llama_memory_clear(llama_get_memory(context), true)
            kept = []
            throw .promptTooLong(promptTokens: held, maxTokens: 0, context: contextLength)
        case 2:
            // Aborted at the wall-clock deadline (the abort callback), part of the batch kept.
            llama_memory_clear(llama_get_memory(context), true)
            kept = []
            throw .timeout(settings.timeoutSeconds)
        default:
            llama_memory_clear(llama_get_memory(context), true)
            kept = []
            throw .badResponse(tr("llama.cpp failed to evaluate the prompt (llama_decode %ld)", Int(status)))
        }
    }
}

/// A text behind a lock (llama.cpp's log callback writes it from any thread).
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func set(_ value: String) { lock.withLock { text = value } }
    func get() -> String { lock.withLock { text } }
}
