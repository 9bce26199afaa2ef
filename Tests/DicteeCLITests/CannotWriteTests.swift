import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import DicteeCLI
import Household

/// "Cannot write" is one event with one exit status, 74, whatever the file: the state, the audit
/// file, the configuration, the HTML page.
@Suite struct CannotWriteTests {
    @Test func everyFileThatCannotBeWrittenExits74() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-cannot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A regular file where a folder should be: no one can write below it, not even root.
        let file = dir.appendingPathComponent("plain").path
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        let env = ["TZ": "Europe/Paris", "HOME": dir.path, "DICTEE_CONFIG": dir.appendingPathComponent("config.json").path]
        let now = ["--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"]

        let state = runDictee(["--state", file + "/s.sqlite", "child", "add", "Léa", "--gender", "f", "--grade", "CE1"], environment: env)
        #expect(state.code == .ioError, "\(state.stderr)")
        #expect(state.stderr.hasPrefix("error: ") && state.stderr.contains("cannot write the database"))

        let good = dir.appendingPathComponent("s.sqlite").path
        let audit = runDictee(["--state", good, "ingest", fixture("famille.ics"), "--audit", dir.path] + now, environment: env)
        #expect(audit.code == .ioError, "\(audit.stderr)")

        var blocked = env
        blocked["DICTEE_CONFIG"] = file + "/config.json"
        let config = runDictee(["source", "add", fixture("famille.ics")], environment: blocked)
        #expect(config.code == .ioError, "\(config.stderr)")
        #expect(config.stderr.contains("cannot write the configuration"))
    }

    @Test func aStateNamedWithoutAFolderKeepsItsFilesInTheCurrentFolder() {
        let paths = HouseholdPaths(environment: ["HOME": "/h"], statePath: "d.sqlite")
        #expect(paths.folder == ".")
        #expect(paths.auditFile == "./audit.jsonl" && paths.serverLog == "./model-server.log")
        #expect(HouseholdPaths(environment: ["HOME": "/h"]).auditFile == "/h/.local/share/dictee/audit.jsonl")
    }
}
