import Dictation
import DicteeCore
import Foundation
import Generation
import PrivacyFilter
import Testing
import DicteeTestSupport

/// What reaches a model, end to end: `dictee nightly` talks to a stand-in server on loopback
/// (`Scripts/model/recording-server.py`) that records every request body. Over seeded calendars
/// full of raw text, no token of a title, place or description outside the canonical phrases and
/// captured names ever appears in a request; what does appear is the instructions, the child's
/// first name and grade, the targets, the ranges and the moment's canonical phrase.
@Suite struct PromptPrivacyTests {
    /// Starts the recording server; returns its port, the log path and the process.
    static func recordingServer(in dir: URL) throws -> (port: Int, log: String, process: Process) {
        let portFile = dir.appendingPathComponent("port").path, log = dir.appendingPathComponent("requests.jsonl").path
        let process = Process()
        // Debian's python3 (Scripts/setup installs it): no shim process between us and the server.
        let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "/usr/bin/env"
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = (python == "/usr/bin/env" ? ["python3"] : []) + [repositoryRoot.appendingPathComponent("Scripts/model/recording-server.py").path, portFile, log]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) { return (port, log, process) }
            usleep(50_000)
        }
        process.terminate()
        throw CancellationError()
    }

    /// Kills the server and waits for it without `waitUntilExit` (which can hang when several
    /// tests wait at once).
    static func stop(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<200 where process.isRunning { usleep(25_000) }
    }

    @Test("no raw calendar token in any request body (3 seeded calendars)", arguments: [0, 7, 11])
    func requestsHoldOnlyWhatTheAuditFileLists(seed: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-prompts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (port, log, server) = try Self.recordingServer(in: dir)
        defer { Self.stop(server) }

        let (ics, titles) = PrivacyPropertyTests.calendar(seed: seed)
        let calendar = dir.appendingPathComponent("cal.ics")
        try Data(ics.utf8).write(to: calendar)
        let config: [String: Any] = ["sources": [calendar.path],
                                     "model": ["endpoint": "http://127.0.0.1:\(port)/v1", "name": "recording", "context": 8192]]
        try JSONSerialization.data(withJSONObject: config).write(to: dir.appendingPathComponent("config.json"))
        let env = ["TZ": "Europe/Paris", "DICTEE_CONFIG": dir.appendingPathComponent("config.json").path, "HOME": dir.path]
        let state = dir.appendingPathComponent("dictee.sqlite").path
        #expect(runDictee(["--state", state, "child", "add", "Lou", "--gender", "f", "--grade", "CE2"], environment: env).code == .ok)
        let r = runDictee(["--state", state, "nightly", "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"], environment: env)
        #expect(r.code == .ok || r.code == .itemErrors, "\(r.stderr)")

        let bodies = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        let chats = bodies.compactMap { line -> [String: Any]? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["messages"] != nil else { return nil }
            return o
        }
        #expect(!chats.isEmpty, "the model was asked (seed \(seed))")
        #expect(chats.count % 5 == 0, "five attempts per text")
        let audit = try String(contentsOf: dir.appendingPathComponent("audit.jsonl"), encoding: .utf8)
        let auditPhrases = Set(audit.split(separator: "\n").dropFirst().compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["phrase"] as? String
        })
        // Allowed: canonical phrases, captured names, and dictee's own words (the instructions'
        // fixed text at every grade with every skill): none of them comes from the calendar.
        var allowed = try PrivacyPropertyTests.allowedTokens(titles)
        let moment = MomentPhrase(phrase: "la sortie", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie"))
        for grade in Grade.allCases {
            let plan = DictationPlan(child: Child(firstName: "Lou", gender: .feminine, grade: grade), moment: moment,
                                     targets: SkillID.allCases.filter { $0.isTaught(at: grade) })
            var own = [Instructions.system(for: plan), Instructions.prompt(for: plan),
                       Instructions.runaway(plan), Instructions.notJSON, Instructions.feedback([])]
            // The moment's day, every weekday and month (dictee's words from the date, not the
            // calendar's text): "samedi dernier", "jeudi 10 décembre".
            for offset in stride(from: -400, through: 400, by: 1) {
                var dated = plan
                let written = CalendarDate(year: 2026, month: 12, day: 1)
                dated.date = MomentDate(start: written.adding(days: offset), end: written.adding(days: offset), written: written,
                                        time: offset < 0 ? .past : .upcoming)
                own.append(Instructions.prompt(for: dated))
            }
            for text in own { allowed.formUnion(Normalizer.tokens(text).map(\.folded)) }
        }
        let requestTokens = Set(bodies.flatMap { Normalizer.tokens($0).map(\.folded) })
        for t in titles {
            for token in Normalizer.tokens(t.title + " " + t.location + " " + t.description).map(\.folded)
            where token.count > 3 && !allowed.contains(token) {
                #expect(!requestTokens.contains(token), "'\(token)' from a raw title reached a request (seed \(seed))")
            }
        }
        for chat in chats {
            let messages = try #require(chat["messages"] as? [[String: String]])
            // A first attempt, or a retry continuing its chat: the previous answer (the model's
            // own turn), then the validator's sentences.
            let roles = messages.map { $0["role"] ?? "" }
            #expect(roles == ["system", "user"] || roles == ["system", "user", "assistant", "user"], "\(roles)")
            let user = messages[1]["content"] ?? ""
            #expect(messages[0]["content"]?.contains("Lou") == true && messages[0]["content"]?.contains("CE2") == true)
            // The moment, when the prompt names one, is a phrase of the audit file.
            if let open = user.range(of: "« "), let close = user.range(of: " »", range: open.upperBound..<user.endIndex) {
                let phrase = String(user[open.upperBound..<close.lowerBound])
                #expect(auditPhrases.contains(phrase), "'\(phrase)' is not in the audit file")
            }
        }
    }
}
