import DicteeCore
import Foundation
import Testing
@testable import Dictation
@testable import Generation

/// The OpenAI-compatible client: its request bodies, the egress log of a remote endpoint, and
/// what it keeps of a server's errors.
@Suite struct OpenAICompatibleModelTests {
    static let nothingListens = ModelEndpoint.loopback("http://127.0.0.1:1/v1")!

    @Test func theTwoResponseFormatSpellings() throws {
        let model = OpenAICompatibleModel(endpoint: Self.nothingListens, modelName: "m", contextLength: 2048)
        let request = ModelRequest(instructions: "i", prompt: "p", schema: DictationAnswer.schema, maxTokens: 10)
        let a = try #require(try JSONSerialization.jsonObject(with: try model.body(request, OpenAICompatibleModel.ResponseFormat.jsonObjectWithSchema)) as? [String: Any])
        let formatA = try #require(a["response_format"] as? [String: Any])
        #expect(formatA["type"] as? String == "json_object" && formatA["schema"] != nil)
        let b = try #require(try JSONSerialization.jsonObject(with: try model.body(request, OpenAICompatibleModel.ResponseFormat.jsonSchema)) as? [String: Any])
        let formatB = try #require(b["response_format"] as? [String: Any])
        #expect(formatB["type"] as? String == "json_schema" && (formatB["json_schema"] as? [String: Any])?["schema"] != nil)
        #expect((a["messages"] as? [[String: String]])?.map { $0["role"] ?? "" } == ["system", "user"])
        #expect(a["max_tokens"] as? Int == 10)
        #expect(model.root.absoluteString == "http://127.0.0.1:1/")
        // Nothing listens on port 1: unavailable, not a crash.
        #expect(throws: ModelError.self) { try model.complete(request) }
        #expect(model.countTokens("Bonjour") == nil)
    }

    @Test func aRemoteEndpointLogsEveryBodyFirstStampedByTheInjectedClock() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("egress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = FixedClock(Date(timeIntervalSince1970: 1_764_435_600))
        let log = EgressLog(path: folder.appendingPathComponent("egress.log").path, clock: clock)
        // Port 1 of a loopback address, reached as a "remote" endpoint: nothing answers, but the
        // bodies must be logged before the attempt.
        let endpoint = try #require(ModelEndpoint.remote("http://127.0.0.1:1/v1", egressLog: log))
        let model = OpenAICompatibleModel(endpoint: endpoint, modelName: "m", contextLength: 2048)
        _ = model.countTokens("Bonjour Léa")
        #expect(throws: ModelError.self) {
            try model.complete(ModelRequest(instructions: "i", prompt: "p", schema: DictationAnswer.schema, maxTokens: 5))
        }
        let text = try String(contentsOfFile: log.path, encoding: .utf8)
        #expect(text.contains("Bonjour Léa"), "the tokenizer's body is logged too")
        // Each entry names the URL the body goes to, stamped by the injected clock.
        #expect(text.contains(#"{"sent_at":"2025-11-29T17:00:00Z","to":"http://127.0.0.1:1/extras/tokenize"}"#))
        #expect(text.contains(#"{"sent_at":"2025-11-29T17:00:00Z","to":"http://127.0.0.1:1/v1/chat/completions"}"#))
        let mode = try FileManager.default.attributesOfItem(atPath: log.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aBodyThatCannotBeLoggedIsNotSent() {
        // Under a regular file: no folder can be made there, even by root.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-folder-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: file) }
        let log = EgressLog(path: file + "/egress.log", clock: SystemClock())
        #expect(log.problem == "not a directory")
        let endpoint = ModelEndpoint.remote("http://127.0.0.1:1/v1", egressLog: log)!
        let model = OpenAICompatibleModel(endpoint: endpoint, modelName: "m", contextLength: 2048)
        #expect(model.countTokens("Bonjour") == nil)
        #expect(throws: ModelError.notAllowed("the egress log cannot be written: \(log.path): cannot write (not a directory)")) {
            try model.complete(ModelRequest(instructions: "i", prompt: "p", schema: DictationAnswer.schema, maxTokens: 5))
        }
    }

    @Test("isLoopback: localhost, 127.0.0.0/8 and [::1] over http(s) only, parsed strictly", arguments: [
        ("http://127.0.0.1:8080/v1", true), ("http://localhost:8080/v1", true), ("https://[::1]:8443/v1", true),
        ("http://127.255.255.254/v1", true), ("http://LOCALHOST/v1", true),
        // Schemes and hosts compare case-insensitively (RFC 3986 sections 3.1 and 3.2.2).
        ("HTTP://127.0.0.1:8080/v1", true), ("Http://LocalHost:8080/v1", true), ("HTTPS://[::1]:8443/v1", true),
        ("http://127.0.0.1@evil.com/v1", false), ("http://user:pw@127.0.0.1/v1", false),
        ("http://127.0.0.1.example.com/v1", false), ("http://localhost.evil.com/v1", false), ("http://localhost./v1", false),
        ("http://2130706433/v1", false), ("http://0x7f000001/v1", false), ("http://127.1/v1", false),
        ("http://0127.0.0.1/v1", false), ("http://0.0.0.0/v1", false), ("http://[0:0:0:0:0:0:0:1]/v1", false),
        ("ftp://127.0.0.1/v1", false), ("http://127.0.0.1\\@evil.com/", false), ("http://192.168.1.10:8080/v1", false),
        ("https://api.example.com/v1", false), ("http://%31%32%37.0.0.1/v1", false),
    ])
    func isLoopback(endpoint: String, expected: Bool) {
        #expect(ModelEndpoint.isLoopback(endpoint) == expected, "\(endpoint)")
        #expect((ModelEndpoint.loopback(endpoint) != nil) == expected, "only a loopback URL makes a loopback endpoint")
    }

    @Test("an endpoint written HTTP://127.0.0.1 is a loopback server, reached at the same root")
    func upperCaseSchemeEndpoint() throws {
        let endpoint = try #require(ModelEndpoint.loopback("HTTP://127.0.0.1:1/v1"))
        let model = OpenAICompatibleModel(endpoint: endpoint, modelName: "m", contextLength: 2048)
        #expect(model.root.absoluteString.lowercased() == "http://127.0.0.1:1/")
        #expect(throws: ModelError.self) {
            try model.complete(ModelRequest(instructions: "i", prompt: "p", schema: DictationAnswer.schema, maxTokens: 10))
        }
    }

    @Test func aRemoteEndpointNeedsAnHTTPURL() {
        let log = EgressLog(path: "/tmp/e.log", clock: SystemClock())
        #expect(ModelEndpoint.remote("https://api.example.com/v1", egressLog: log)?.egressLog == log)
        #expect(ModelEndpoint.remote("file:///etc/passwd", egressLog: log) == nil)
        #expect(ModelEndpoint.loopback("http://127.0.0.1:8080/v1")?.egressLog == nil)
    }

    @Test func impossibleUsageNumbersCountZero() {
        #expect(OpenAICompatibleModel.tokenCount(-1) == 0)
        #expect(OpenAICompatibleModel.tokenCount("12") == 0 && OpenAICompatibleModel.tokenCount(nil) == 0)
        #expect(OpenAICompatibleModel.tokenCount(412) == 412)
        #expect(OpenAICompatibleModel.tokenCount(Int.max) == 10_000_000)
    }

    @Test func onlyAShortErrorCodeOfTheServerIsKeptNeverItsMessage() {
        let echo = Data(#"{"error":{"message":"Tu écris une dictée pour Léa","type":"invalid_request_error","code":"context_length_exceeded"}}"#.utf8)
        #expect(OpenAICompatibleModel.errorCode(echo) == "context_length_exceeded")
        #expect(OpenAICompatibleModel.errorCode(Data(#"{"error":{"type":"Léa écrit"}}"#.utf8)) == nil)
        #expect(OpenAICompatibleModel.errorCode(Data("Internal Server Error".utf8)) == nil)
    }
}

/// What a request may carry is one list, and it is the inputs' fields.
@Suite struct InstructionsInputsTests {
    @Test func theListedContentsAreExactlyTheFieldsTheRequestIsWrittenFrom() {
        let child = Child(firstName: "Léa", gender: .feminine, grade: .ce1)
        let plan = DictationPlan(child: child, moment: MomentPhrase(phrase: "la sortie piscine", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie")),
                                 targets: [], sitesPerTarget: 2)
        let fields = Mirror(reflecting: Instructions.Inputs(plan)).children.compactMap(\.label)
        #expect(["instructions"] + fields == Instructions.Inputs.contents.map(\.field))
    }
}
