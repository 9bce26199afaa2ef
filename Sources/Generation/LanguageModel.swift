import DicteeCore
import Foundation

/// One request to a language model, as a chat: French instructions (the system message), the
/// prompt (the user message: the moment), and on a retry the model's previous answer (its own
/// turn) followed by what was wrong with it (a second user message); with the JSON Schema the
/// answer must follow (enforced by the server's constrained decoding, or by
/// `DictationAnswer.grammar` in process; also described in the instructions, because the model
/// does not see the grammar).
///
/// A retry is a continuation of the first attempt's conversation, so that a model that keeps its
/// KV cache (`LlamaModel`, a server's prompt cache) evaluates only the feedback: the instructions,
/// the prompt and its own answer are already there.
public struct ModelRequest: Sendable, Hashable {
    public var instructions: String
    public var prompt: String
    /// On a retry: the previous answer exactly as the model wrote it (`ModelAnswer.content`).
    public var previousAnswer: String?
    /// On a retry: what was wrong (`Instructions.feedback`).
    public var feedback: String?
    /// JSON Schema text of the answer (`DictationAnswer.schema`).
    public var schema: String
    /// The completion budget, in tokens.
    public var maxTokens: Int
    /// Sampling temperature (kept fixed across retries: feedback is the repair, not temperature).
    public var temperature: Double
    /// The sampler's seed (`nil`: the model's own choice; an HTTP server then draws one).
    public var seed: UInt32?
    /// The temperature when the configuration names none (`model.temperature`).
    public static let defaultTemperature = 0.7

    public init(instructions: String, prompt: String, previousAnswer: String? = nil, feedback: String? = nil, schema: String,
                maxTokens: Int, temperature: Double = ModelRequest.defaultTemperature, seed: UInt32? = nil) {
        self.instructions = instructions
        self.prompt = prompt
        self.previousAnswer = previousAnswer
        self.feedback = feedback
        self.schema = schema
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.seed = seed
    }

    /// One message of the chat: `role` is `system`, `user` or `assistant`.
    public struct Message: Sendable, Hashable {
        public var role: String
        public var content: String

        public init(role: String, content: String) {
            self.role = role
            self.content = content
        }
    }

    /// The chat: system, user; on a retry, assistant (the previous answer) and user (the
    /// feedback). Feedback without a previous answer joins the first user message (roles must
    /// alternate in many chat templates).
    public var messages: [Message] {
        var messages = [Message(role: "system", content: instructions)]
        switch (previousAnswer, feedback) {
        case (let previous?, let feedback?):
            messages += [Message(role: "user", content: prompt), Message(role: "assistant", content: previous),
                         Message(role: "user", content: feedback)]
        case (nil, let feedback?):
            messages.append(Message(role: "user", content: prompt + "\n\n" + feedback))
        case (_, nil):
            messages.append(Message(role: "user", content: prompt))
        }
        return messages
    }
}

/// Why the model stopped (OpenAI's `finish_reason`).
public enum FinishReason: Sendable, Hashable, CustomStringConvertible {
    /// The answer ended by itself.
    case stop
    /// The completion budget ran out: a runaway.
    case length
    /// Anything else the server said (`content_filter`...).
    case other(String)

    public init(_ text: String?) {
        switch text {
        case "stop", "eos", nil: self = .stop
        case "length": self = .length
        case let other?: self = .other(other)
        }
    }

    public var description: String {
        switch self {
        case .stop: "stop"
        case .length: "length"
        case .other(let s): s
        }
    }
}

/// A model's answer: the structured content (JSON text following the request's schema), usage,
/// finish reason and time.
public struct ModelAnswer: Sendable, Hashable {
    /// The message content: JSON text following the schema (when the server enforced it).
    public var content: String
    /// Tokens of the prompt (instructions + prompt, as the server counted them).
    public var promptTokens: Int
    /// Tokens generated.
    public var completionTokens: Int
    /// Of `promptTokens`, those not evaluated again because the model kept them from an earlier
    /// request (its KV cache: the instructions of the same plan, the first prompt on a retry);
    /// 0 when the model cannot say (an HTTP server). `promptTokens - cachedTokens` were evaluated.
    public var cachedTokens: Int
    public var finishReason: FinishReason
    /// Wall-clock seconds of the request.
    public var seconds: Double

    public init(content: String, promptTokens: Int, completionTokens: Int, cachedTokens: Int = 0, finishReason: FinishReason,
                seconds: Double) {
        self.content = content
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.cachedTokens = cachedTokens
        self.finishReason = finishReason
        self.seconds = seconds
    }
}

/// What can go wrong with a request. Messages never quote the prompt (it holds the child's name).
public enum ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server refused the request on content grounds (a content-safety error).
    case refused(String)
    /// No answer within the per-attempt timeout, in seconds.
    case timeout(Double)
    /// The server cannot be reached (not started, wrong port, connection refused).
    case unavailable(String)
    /// The prompt and the completion budget do not fit the model's context (tokens).
    case promptTooLong(promptTokens: Int, maxTokens: Int, context: Int)
    /// The server answered something that is not a chat completion.
    case badResponse(String)
    /// The endpoint is not a loopback address and remote texts are not allowed.
    case notAllowed(String)

    public var description: String {
        switch self {
        case .refused(let m): tr("the model server refused the request: %@", m)
        case .timeout(let s): tr("no answer within %ld s", Int(s))
        case .unavailable(let m): tr("the model server cannot be reached: %@", m)
        case .promptTooLong(let p, let m, let c): tr("the prompt (%ld tokens) and the answer (%ld tokens) do not fit the context (%ld tokens)", p, m, c)
        case .badResponse(let m): tr("the model answered something unexpected: %@", m)
        case .notAllowed(let m): m
        }
    }
}

/// A language model that writes structured answers. One session type (`GenerationSession`) drives
/// any model: the OpenAI-compatible HTTP servers (llama.cpp's `llama-server`, the
/// `llama-cpp-python` server, Ollama) or a scripted fake in tests.
public protocol LanguageModel: Sendable {
    /// The model's id, recorded as the origin of the texts it writes (e.g. `tiny-random.gguf`).
    var id: String { get }
    /// The context length, in tokens.
    var contextLength: Int { get }
    /// The tokens of `text` as the model counts them, or `nil` when the server cannot say (the
    /// session then uses a conservative estimate).
    func countTokens(_ text: String) -> Int?
    /// Sends one request.
    /// - Returns: the answer with its usage, finish reason and seconds.
    /// - Throws: `ModelError`.
    func complete(_ request: ModelRequest) throws(ModelError) -> ModelAnswer
}

/// The answer's shape: `{"titre": string (≤ 60 characters), "phrases": [1 to 12 strings]}`.
/// Sentences come as an array because a model keeps a target length better when it counts its
/// sentences itself. Every string and array is bounded so that constrained decoding terminates,
/// even from random weights (Docs/architecture.md, "Real components and how they start").
public struct DictationAnswer: Sendable, Hashable {
    public var titre: String
    public var phrases: [String]

    public init(titre: String, phrases: [String]) {
        self.titre = titre
        self.phrases = phrases
    }

    /// The most characters of a sentence in the schema.
    public static let maximumSentenceLength = 240

    /// The JSON Schema sent to the server.
    public static let schema = """
        {"type":"object","properties":{"titre":{"type":"string","minLength":1,"maxLength":60},\
        "phrases":{"type":"array","minItems":1,"maxItems":12,"items":{"type":"string","minLength":1,"maxLength":\(maximumSentenceLength)}}},\
        "required":["titre","phrases"],"additionalProperties":false}
        """

    /// The same shape as a GBNF grammar (llama.cpp's grammar format, grammars/README.md in
    /// llama.cpp), for a model run in process: written by hand for this one shape, in the key order
    /// of the schema, with at most one space or new line between tokens (no runaway white space).
    /// A string character is a character of a French text: printable ASCII but `"` and `\`, the
    /// Latin letters with diacritics (U+00A0 to U+024F, with « », °, œ; U+1E00 to U+1EFF), the
    /// dashes, ’, …, the narrow no-break space and €; or an RFC 8259 §7 escape other than a
    /// surrogate (`\uD800` to `\uDFFF`, which a JSON parser refuses alone). A string starts with
    /// a character that is not white space (the parser refuses a blank sentence). Lengths count
    /// those characters, an escape once (as the schema's `maxLength` does for the server's
    /// grammar), so `parse` accepts every answer the grammar lets through to its end, as long as
    /// its bytes are valid UTF-8: llama.cpp's grammar reads a multi-byte sequence without checking
    /// its continuation bytes, so random weights can still break one (never seen from a trained
    /// model); `parse` then refuses the answer as a format failure, which the session retries.
    public static let grammar = #"""
        root   ::= "{" ws "\"titre\"" ws ":" ws titre ws "," ws "\"phrases\"" ws ":" ws "[" ws phrase (ws "," ws phrase){0,11} ws "]" ws "}"
        titre  ::= "\"" first char{0,59} "\""
        phrase ::= "\"" first char{0,\#(maximumSentenceLength - 1)} "\""
        first  ::= [!#-\[\]-~\u00A1-\u024F\u1E00-\u1EFF\u2013\u2014\u2019\u2026\u20AC]
        char   ::= [ !#-\[\]-~\u00A0-\u024F\u1E00-\u1EFF\u2013\u2014\u2019\u2026\u202F\u20AC] | "\\" (["\\/bfnrt] | "u" ([0-9a-cA-Ce-fE-F] hex hex hex | [dD] [0-7] hex hex))
        hex    ::= [0-9a-fA-F]
        ws     ::= [ \n]?
        """#

    /// Parses a model's content: a JSON object with a string `titre` of at most 60 characters and
    /// an array `phrases` of 1 to 12 non-empty strings. `nil` for anything else.
    public static func parse(_ content: String) -> DictationAnswer? {
        guard let data = escapingControlCharacters(content).data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let titre = object["titre"] as? String, titre.count <= 60,
              let phrases = object["phrases"] as? [Any], (1...12).contains(phrases.count) else { return nil }
        let strings = phrases.compactMap { $0 as? String }
        guard strings.count == phrases.count,
              strings.allSatisfy({ !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) else { return nil }
        return DictationAnswer(titre: titre.trimmingCharacters(in: .whitespacesAndNewlines), phrases: strings)
    }

    /// `content` with raw control characters (U+0000 to U+001F) inside JSON strings written as
    /// `\uXXXX` escapes. The `llama-cpp-python` server's JSON grammar lets them through (seen
    /// with 0.3.36), and RFC 8259 §7 (and Foundation's parser) refuse them; the validator then
    /// refuses such a text for what it is, instead of a format error.
    static func escapingControlCharacters(_ content: String) -> String {
        var out = String.UnicodeScalarView()
        var inString = false, escaped = false
        for scalar in content.unicodeScalars {
            if inString {
                if escaped {
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    inString = false
                } else if scalar.value < 0x20 {
                    out.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
                    continue
                }
            } else if scalar == "\"" {
                inString = true
            }
            out.append(scalar)
        }
        return String(out)
    }
}
