import DicteeCore
import Foundation
import Web

/// A model behind an OpenAI-compatible chat completions endpoint: llama.cpp's `llama-server`, the
/// `llama-cpp-python` server, Ollama's `/v1` endpoint.
///
/// The answer's shape is enforced by the server's JSON-schema response format. The servers accept
/// different spellings of it: `llama-cpp-python` takes `{"type": "json_object", "schema": S}` and
/// refuses `json_schema`; `llama-server` and Ollama take `{"type": "json_schema", "json_schema":
/// {"name", "schema": S, "strict": true}}`. The first is sent first; when the server answers 400
/// or 422 about the response format, the other is sent instead (and kept).
///
/// Tokens are counted with the server's own tokenizer: `POST /extras/tokenize {"input": text}`
/// (`llama-cpp-python`), else `POST /tokenize {"content": text}` (`llama-server`); `nil` when
/// neither answers (Ollama).
public final class OpenAICompatibleModel: LanguageModel, @unchecked Sendable {
    /// The response-format spellings.
    public enum ResponseFormat: Sendable { case jsonObjectWithSchema, jsonSchema }

    public let id: String
    public let contextLength: Int
    /// Where requests go: a loopback server, or a remote one with its egress log.
    public let modelEndpoint: ModelEndpoint
    /// The base URL ending in `/v1`, e.g. `http://127.0.0.1:8080/v1`.
    public var endpoint: URL { modelEndpoint.url }
    /// The model name sent in requests.
    public let modelName: String
    /// Per-attempt timeout, in seconds.
    public let timeout: Double
    private let lock = NSLock()
    private var format: ResponseFormat = .jsonObjectWithSchema
    private var tokenizer: TokenizerRoute = .unknown

    /// Which tokenizer route the server answers, learnt at the first count.
    enum TokenizerRoute: Sendable, Equatable {
        /// Not asked yet: try each route in turn.
        case unknown
        /// `POST /extras/tokenize {"input": text}` (llama-cpp-python).
        case extrasTokenize
        /// `POST /tokenize {"content": text}` (llama.cpp's llama-server).
        case tokenize
        /// Neither answers (Ollama): counts are estimated by the caller.
        case none
    }

    /// - Parameters:
    ///   - endpoint: where requests go (`ModelEndpoint.loopback` or `.remote` with its egress
    ///     log: each request body is appended to the log before it is sent, and a body that cannot
    ///     be logged is not sent).
    ///   - modelName: the model name to send (`model` field), also the id recorded as origin.
    ///   - contextLength: the context the server was started with, in tokens.
    ///   - timeout: seconds per request.
    public init(endpoint: ModelEndpoint, modelName: String, contextLength: Int, timeout: Double = 120) {
        self.modelEndpoint = endpoint
        self.modelName = modelName
        self.id = modelName
        self.contextLength = contextLength
        self.timeout = timeout
    }

    /// Logs `body` first, with the URL it goes to, when the endpoint is remote.
    private func beforeSending(_ body: Data, to url: URL) throws(FileWriteError) {
        if let log = modelEndpoint.egressLog { try log.record(body, to: url) }
    }

    /// The server's root (the endpoint without its final `/v1`).
    var root: URL {
        endpoint.lastPathComponent == "v1" ? endpoint.deletingLastPathComponent() : endpoint
    }

    public func countTokens(_ text: String) -> Int? {
        lock.lock()
        let known = tokenizer
        lock.unlock()
        let tries: [(TokenizerRoute, String, [String: Any])] = [
            (.extrasTokenize, "extras/tokenize", ["input": text]), (.tokenize, "tokenize", ["content": text]),
        ]
        for (k, path, body) in tries where known == .unknown || known == k {
            guard let data = try? JSONSerialization.data(withJSONObject: body) else { continue }
            // A body that cannot be logged first is not sent (the session then estimates).
            do { try beforeSending(data, to: root.appendingPathComponent(path)) } catch { return nil }
            guard let (status, reply) = try? post(root.appendingPathComponent(path), data, timeout: min(timeout, 30)),
                  status == 200,
                  let object = try? JSONSerialization.jsonObject(with: reply) as? [String: Any],
                  let tokens = object["tokens"] as? [Any] else { continue }
            lock.lock()
            tokenizer = k
            lock.unlock()
            return tokens.count
        }
        lock.lock()
        if tokenizer == .unknown { tokenizer = .none }
        lock.unlock()
        return nil
    }

    public func complete(_ request: ModelRequest) throws(ModelError) -> ModelAnswer {
        lock.lock()
        let first = format
        lock.unlock()
        do {
            return try send(request, first)
        } catch .badResponse(let message) where message.hasPrefix("response_format") {
            let other: ResponseFormat = first == .jsonObjectWithSchema ? .jsonSchema : .jsonObjectWithSchema
            let answer = try send(request, other)
            lock.lock()
            format = other
            lock.unlock()
            return answer
        }
    }

    /// The request body for `format`.
    func body(_ request: ModelRequest, _ format: ResponseFormat) throws(ModelError) -> Data {
        guard let schema = try? JSONSerialization.jsonObject(with: Data(request.schema.utf8)) else {
            throw .badResponse("the answer schema is not JSON")
        }
        let responseFormat: [String: Any] = switch format {
        case .jsonObjectWithSchema: ["type": "json_object", "schema": schema]
        case .jsonSchema: ["type": "json_schema", "json_schema": ["name": "dictee", "strict": true, "schema": schema]]
        }
        var object: [String: Any] = [
            "model": modelName,
            "messages": request.messages.map { ["role": $0.role, "content": $0.content] },
            "max_tokens": request.maxTokens,
            "temperature": request.temperature,
            "stream": false,
            "response_format": responseFormat,
        ]
        if let seed = request.seed { object["seed"] = seed }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            throw .badResponse("the request cannot be written")
        }
        return data
    }

    func send(_ request: ModelRequest, _ format: ResponseFormat) throws(ModelError) -> ModelAnswer {
        let data = try body(request, format)
        do { try beforeSending(data, to: endpoint.appendingPathComponent("chat/completions")) } catch {
            throw .notAllowed("the egress log cannot be written: \(error)")
        }
        let start = Date()
        let (status, reply) = try post(endpoint.appendingPathComponent("chat/completions"), data, timeout: timeout)
        let seconds = Date().timeIntervalSince(start)
        let text = String(decoding: reply.prefix(2_000), as: UTF8.self)
        let lower = text.lowercased()
        guard status == 200 else {
            // llama-cpp-python refuses json_schema with a 500 ("Input should be 'text' or
            // 'json_object'"); llama-server and Ollama answer 400 about the response format.
            if [400, 422, 500].contains(status),
               lower.contains("response_format") || lower.contains("json_schema") || lower.contains("json_object") {
                throw .badResponse("response_format refused (HTTP \(status))")
            }
            if lower.contains("safety") || lower.contains("content_filter") || lower.contains("content policy") || lower.contains("moderation") {
                throw .refused("HTTP \(status)")
            }
            if lower.contains("context") && (lower.contains("exceed") || lower.contains("too long") || lower.contains("length")) {
                throw .promptTooLong(promptTokens: 0, maxTokens: request.maxTokens, context: contextLength)
            }
            throw .badResponse("HTTP \(status)" + (Self.errorCode(reply).map { " (\($0))" } ?? ""))
        }
        guard let object = try? JSONSerialization.jsonObject(with: reply) as? [String: Any],
              let choices = object["choices"] as? [[String: Any]], let choice = choices.first,
              let message = choice["message"] as? [String: Any] else {
            throw .badResponse("not a chat completion (\(reply.count) bytes)")
        }
        let usage = object["usage"] as? [String: Any]
        return ModelAnswer(content: message["content"] as? String ?? "",
                           promptTokens: Self.tokenCount(usage?["prompt_tokens"]),
                           completionTokens: Self.tokenCount(usage?["completion_tokens"]),
                           finishReason: FinishReason(choice["finish_reason"] as? String), seconds: seconds)
    }

    /// A usage count as the server reported it, made possible: a whole number of tokens from 0 to
    /// 10,000,000; anything else (-1, a string, a fraction, absent) counts 0.
    static func tokenCount(_ value: Any?) -> Int {
        guard let n = value as? Int, n >= 0 else { return 0 }
        return min(n, 10_000_000)
    }

    /// The `type` or `code` of an OpenAI-style error body, when it is a short identifier. Never
    /// the message: a server may echo the prompt (the child's first name) there, and these
    /// descriptions reach the run log.
    static func errorCode(_ body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let error = object["error"] as? [String: Any] else { return nil }
        for key in ["code", "type"] {
            if let value = error[key] as? String, (1...40).contains(value.count),
               value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) {
                return value
            }
        }
        return nil
    }

    /// One HTTP POST of JSON, synchronously (libcurl, `HTTPClient`).
    func post(_ url: URL, _ body: Data, timeout: Double) throws(ModelError) -> (Int, Data) {
        do {
            let (status, data) = try HTTPClient.send(url, body: body, timeout: timeout)
            return (status, data)
        } catch {
            switch error {
            case .timeout: throw .timeout(timeout)
            case .cannotConnect(let message): throw .unavailable(message)
            case .other(let message), .certificate(let message): throw .unavailable(message)
            case .tooLarge: throw .unavailable("an answer of more than 8 MB")
            }
        }
    }
}
