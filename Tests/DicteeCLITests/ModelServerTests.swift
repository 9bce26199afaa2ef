import DicteeCore
import Household
import Foundation
import Store
import Testing
@testable import DicteeCLI
import DicteeTestSupport

/// `dictee nightly` against a real model server (managed mode, Docs/architecture.md "Real components and how they start"): a tiny random-weight GGUF written now
/// with the PyPI `gguf` package (valid llama.cpp structure and tokenizer, garbage text), served by
/// the `llama-cpp-python` server that nightly starts and stops itself (managed mode). The answers
/// must parse against the schema, 5 attempts are made and recorded per text, the library serves
/// every card, usage is recorded. Needs the server's virtual environment (Scripts/setup installs
/// it); `DICTEE_SKIP_MODEL_TESTS=1` opts out, and says so.
///
/// Twice: through the llama-cpp-python server (`"in_process": false`), and, when dictee is built
/// with llama.cpp, inside dictee itself. The in-process run is given a Python that does not exist:
/// it must need no server at all.
@Suite struct ModelServerTests {
    static var python: String { llamaVenvPython }

    /// Scripts/test builds dictee with llama.cpp whenever it can, and says so with
    /// `DICTEE_EXPECT_LLAMA=1`: a build that silently left it out would skip the in-process tests.
    @Test func theBuildRunsTheModelInProcessWhenTheTestsExpectIt() {
        guard ProcessInfo.processInfo.environment["DICTEE_EXPECT_LLAMA"] == "1" else {
            print("ModelServerTests: llama.cpp not expected in this build (DICTEE_EXPECT_LLAMA is not 1): in-process runs not checked")
            return
        }
        #expect(ModelRoute.inProcessAvailable,
                "Scripts/test put llama.cpp's build on PKG_CONFIG_PATH, yet dictee was built without it (see Package.swift, llamaLibraryFolder)")
    }

    @Test(arguments: [false, true])
    func nightlyWithATinyRandomModelRecordsFiveParsedAttemptsAndServesTheLibrary(inProcess: Bool) throws {
        if inProcess, !ModelRoute.inProcessAvailable {
            print("ModelServerTests: dictee is built without llama.cpp: the in-process run is not checked here")
            return
        }
        if ProcessInfo.processInfo.environment["DICTEE_SKIP_MODEL_TESTS"] == "1" {
            print("ModelServerTests: skipped because DICTEE_SKIP_MODEL_TESTS=1")
            return
        }
        try #require(FileManager.default.isExecutableFile(atPath: Self.python),
                     "\(Self.python) is missing: run Scripts/setup --model (it builds the llama-cpp-python server)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        // The tiny model, written at test time.
        let gguf = dir.appendingPathComponent("tiny-random.gguf").path
        try writeTinyGGUF(to: gguf)

        let config = dir.appendingPathComponent("config.json").path
        let object: [String: Any] = [
            "sources": [fixture("famille.ics")],
            // The tiny tokenizer is nearly byte-level: French instructions take ~2,000 tokens.
            "model": ["gguf": gguf, "name": "tiny-random", "context": 8192, "timeout_seconds": 60, "in_process": inProcess,
                      "python": inProcess ? dir.appendingPathComponent("no-python-here").path : Self.python],
        ]
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: config))
        let env = ["TZ": "Europe/Paris", "DICTEE_CONFIG": config, "HOME": dir.path]
        let state = dir.appendingPathComponent("dictee.sqlite").path
        #expect(runDictee(["--state", state, "child", "add", "Hugo", "--gender", "m", "--grade", "CM2"], environment: env).code == .ok)

        let r = runDictee(["--state", state, "nightly", "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"], environment: env)
        #expect(r.code == .ok, "\(r.stderr)")
        #expect(undated(r.stdout).hasPrefix("nightly: 1 child, 3 cards ready, 5 texts written (0 by the model, 5 from the library)"), "\(r.stdout)")
        #expect(!r.stderr.contains("could not start"), "\(r.stderr)")
        #expect(r.stderr.contains("library after 5 attempt(s)"), "the run log records the library and the failed steps")
        #expect(r.stderr.contains(inProcess ? "model tiny-random: inside dictee (llama.cpp), loaded in " : "model tiny-random: llama-cpp-python server at http://127.0.0.1:"),
                "the run log says where the model runs: \(r.stderr)")

        // The managed route, as privacy says it and as nightly ran it: requests to a server on
        // this machine, carrying the fields privacy lists (RouteAgreementTests has the others).
        let privacy = runDictee(["privacy", "--json"], environment: env)
        let said = try #require(try JSONSerialization.jsonObject(with: Data(privacy.stdout.utf8)) as? [String: Any])
        #expect(said["model"] as? String == "managed" && said["loopback"] as? Bool == true && said["allowed"] as? Bool == true)
        #expect(said["in_process"] as? Bool == inProcess)
        #expect((said["sends"] as? [String])?.isEmpty == false, "nightly sent requests, so privacy lists what they carry")

        let store = try StateStore(path: state)
        let child = try #require(try store.children().first?.id)
        let texts = try store.dictations(childID: child, statuses: [.ready])
        #expect(texts.count == 5)
        var finishedByThemselves = 0
        for d in texts {
            #expect(d.origin.hasPrefix("library:"))
            let attempts = try store.attempts(dictationID: d.id)
            #expect(attempts.map(\.number) == [1, 2, 3, 4, 5], "5 attempts recorded")
            for a in attempts {
                #expect(a.failure != .format, "the answer parses against the schema: structured output works")
                #expect(a.failure != .server && a.failure != .context, "\(String(describing: a.failure))")
                #expect(a.promptTokens > 0, "usage is recorded")
                #expect(a.failure != nil)
                if a.finishReason == "stop" {
                    finishedByThemselves += 1
                    #expect(a.completionTokens > 0)
                }
            }
        }
        #expect(finishedByThemselves > 0, "some answers end by themselves and parse")
        let stats = runDictee(["--state", state, "stats", "--json"], environment: env)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(json["asked"] as? Int == 5 && json["fallbacks"] as? Int == 5 && json["accepted"] as? Int == 0)
        #expect((json["prompt_tokens"] as? Int ?? 0) > 0 && (json["completion_tokens"] as? Int ?? 0) > 0)
        if inProcess {
            // The instructions of a text are evaluated once for its five attempts.
            #expect((json["cached_prompt_tokens"] as? Int ?? 0) > (json["prompt_tokens"] as? Int ?? 0) / 2, "\(stats.stdout)")
        }
        // The managed server is stopped at the end.
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        check.arguments = ["-f", gguf]
        check.standardOutput = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 1, "no server process left for this model")
    }

    /// A model file that is not a GGUF (a download cut short, the wrong file): the nightly says so
    /// in one line naming the file, in French under a French locale, and the library serves every
    /// text; nothing is asked, nothing fails.
    @Test func aModelFileThatIsNotAGGUFIsSaidAndTheLibraryServes() throws {
        guard ModelRoute.inProcessAvailable else {
            print("ModelServerTests: dictee is built without llama.cpp: the in-process load error is not checked here")
            return
        }
        let (dir, state, env) = try NightlyTests().family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("modele.gguf").path
        try Data("<html>Not Found</html>\n".utf8).write(to: URL(fileURLWithPath: bad))
        let configPath = try #require(env["DICTEE_CONFIG"])
        var config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: configPath))) as? [String: Any])
        config["model"] = ["gguf": bad]
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: configPath))
        var french = env
        french["LANG"] = "fr_FR.UTF-8"
        let r = runDictee(["--state", state, "nightly", "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"], environment: french)
        #expect(r.code == .itemErrors, "a model file that is no model is a configuration error (exit 1): \(r.stderr)")
        #expect(undated(r.stdout).contains("textes écrits : 10 (0 par le modèle, 10 de la bibliothèque)"), "\(r.stdout)")
        #expect(r.stderr.contains("attention : le modèle n'a pas pu être chargé (\(bad) n'est pas un fichier de modèle GGUF)"), "\(r.stderr)")
        let store = try StateStore(path: state)
        for child in try store.children() {
            for text in try store.dictations(childID: child.id!, statuses: [.ready]) {
                #expect(try store.attempts(dictationID: text.id).isEmpty, "nothing was asked")
            }
        }
    }
}
