import DicteeCore
import Foundation
import Testing
@testable import DicteeCLI

/// `dictee privacy` and `dictee nightly` follow one `ModelRoute`: for every route, what privacy
/// says (allowed or not, where, the egress log) is what nightly does, measured on a recording
/// stand-in server (`Scripts/model/recording-server.py`) and on the egress log.
///
/// A "remote" endpoint here is `http://egress@127.0.0.1:PORT/v1`: the user part makes the loopback
/// rule refuse it (a URL with a user could go anywhere), yet the request still reaches the
/// stand-in on this machine, so the test needs no network.
@Suite struct RouteAgreementTests {
    enum Kind: String, CaseIterable, Sendable {
        case library, loopback, loopbackWrittenInCapitals, remote, refusedNotLoopback, refusedUnwritableLog, refusedLogWhereNoFolderCanBeMade
    }

    @Test("privacy and nightly agree", arguments: Kind.allCases)
    func privacyAndNightlyAgree(kind: Kind) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-route-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (port, requests, server) = try PromptPrivacyTests.recordingServer(in: dir)
        defer { PromptPrivacyTests.stop(server) }

        let (ics, _) = PrivacyPropertyTests.calendar(seed: 3)
        let calendar = dir.appendingPathComponent("cal.ics")
        try Data(ics.utf8).write(to: calendar)
        let blocker = dir.appendingPathComponent("a-file").path
        _ = FileManager.default.createFile(atPath: blocker, contents: Data())
        let egress = dir.appendingPathComponent("logs/egress.log").path
        var config: [String: Any] = ["sources": [calendar.path]]
        switch kind {
        case .library: break
        case .loopback:
            config["model"] = ["endpoint": "http://127.0.0.1:\(port)/v1", "context": 8192]
        case .loopbackWrittenInCapitals:
            // Schemes and hosts compare case-insensitively (RFC 3986): the adversarial run's
            // HTTP:// endpoint was accepted by privacy, then every nightly exited 65.
            config["model"] = ["endpoint": "HTTP://LOCALHOST:\(port)/v1", "context": 8192]
        case .remote:
            config["model"] = ["endpoint": "http://egress@127.0.0.1:\(port)/v1", "context": 8192]
            config["richer_texts"] = true
            config["egress_log"] = egress
        case .refusedNotLoopback:
            config["model"] = ["endpoint": "http://egress@127.0.0.1:\(port)/v1", "context": 8192]
        case .refusedUnwritableLog:
            config["model"] = ["endpoint": "http://egress@127.0.0.1:\(port)/v1", "context": 8192]
            config["richer_texts"] = true
            config["egress_log"] = blocker + "/egress.log"
        case .refusedLogWhereNoFolderCanBeMade:
            // /proc looks writable to root, yet no folder can be made there.
            config["model"] = ["endpoint": "http://egress@127.0.0.1:\(port)/v1", "context": 8192]
            config["richer_texts"] = true
            config["egress_log"] = "/proc/dictee-nope/egress.log"
        }
        try JSONSerialization.data(withJSONObject: config).write(to: dir.appendingPathComponent("config.json"))
        let env = ["TZ": "Europe/Paris", "DICTEE_CONFIG": dir.appendingPathComponent("config.json").path, "HOME": dir.path]
        let state = dir.appendingPathComponent("dictee.sqlite").path

        let privacy = runDictee(["privacy", "--json"], environment: env)
        #expect(privacy.code == .ok)
        let said = try #require(try JSONSerialization.jsonObject(with: Data(privacy.stdout.utf8)) as? [String: Any])
        let allowed = try #require(said["allowed"] as? Bool)
        let sends = try #require(said["sends"] as? [String])

        #expect(runDictee(["--state", state, "child", "add", "Lou", "--gender", "f", "--grade", "CE2"], environment: env).code == .ok)
        let nightly = runDictee(["--state", state, "nightly", "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"], environment: env)
        let bodies = ((try? String(contentsOfFile: requests, encoding: .utf8)) ?? "").split(separator: "\n")
        let chats = bodies.filter { $0.contains("\"messages\"") }

        // What privacy said is what nightly did.
        let sent = !chats.isEmpty
        #expect(sent == (allowed && !sends.isEmpty), "\(kind): privacy said allowed=\(allowed) sends=\(sends.count), nightly sent \(chats.count)")
        let logged = ((try? String(contentsOfFile: egress, encoding: .utf8)) ?? "").split(separator: "\n")
        if said["egress_log"] is String, allowed {
            // Every body that reached the server was logged first (a header line and a body line each).
            #expect(logged.count == 2 * bodies.count, "\(kind): \(logged.count) log lines for \(bodies.count) bodies")
        } else {
            #expect(logged.isEmpty)
        }
        switch kind {
        case .library, .loopback, .loopbackWrittenInCapitals, .remote:
            // The seeded calendar holds unreadable events on purpose: 1 is the run's per-item status.
            #expect(nightly.code == .ok || nightly.code == .itemErrors, "\(kind): \(nightly.stderr)")
            #expect(allowed)
            #expect(!nightly.stderr.contains("nothing is sent"), "\(nightly.stderr)")
        case .refusedNotLoopback, .refusedUnwritableLog, .refusedLogWhereNoFolderCanBeMade:
            #expect(nightly.code == .itemErrors, "\(kind): a refused model is an error of the run")
            #expect(!allowed && sends.isEmpty)
            #expect(nightly.stderr.contains("nothing is sent"), "\(nightly.stderr)")
        }
        #expect(undated(nightly.stdout).hasPrefix("nightly: 1 child, "), "the library served the cards: \(nightly.stdout)")
    }
}
