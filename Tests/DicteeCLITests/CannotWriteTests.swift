import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import DicteeCLI
import Household
import Store

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

    @Test func aDeviceAsTheStateIsRefusedBeforeAnythingIsMadeBesideIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("state").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let env = ["TZ": "Europe/Paris", "HOME": dir.path, "DICTEE_CONFIG": dir.appendingPathComponent("c.json").path]
        let add = runDictee(["--state", fifo, "child", "add", "Léa", "--gender", "f", "--grade", "CE1"], environment: env)
        #expect(add.code == .internalError && add.stderr.contains("not a regular file"), "\(add.stderr)")
        let nightly = runDictee(["--state", fifo, "nightly", "--calendar", fixture("famille.ics"),
                                 "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"], environment: env)
        #expect(nightly.code == .internalError, "\(nightly.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["state"], "no lock, no journal beside it")
    }

    @Test func aLockThatIsNotARegularFileIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("d.sqlite").path
        #expect(mkfifo(state + ".nightly.lock", 0o600) == 0)
        let env = ["TZ": "Europe/Paris", "HOME": dir.path, "DICTEE_CONFIG": dir.appendingPathComponent("c.json").path]
        let nightly = runDictee(["--state", state, "nightly", "--calendar", fixture("famille.ics"),
                                 "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"], environment: env)
        #expect(nightly.code == .ioError && nightly.stderr.contains("the lock is not a regular file"), "\(nightly.stderr)")
    }

    @Test func aFullDiskIs74AndNeverShowsTheSQL() {
        let full = CommandFailure(StateError.store(.sqlite(path: "/s/dictee.sqlite", code: 13, message: "database or disk is full",
                                                           sql: "INSERT INTO dictations (child_id) VALUES (?)")))
        #expect(full.code == .ioError)
        #expect(full.message == "/s/dictee.sqlite: cannot write the database (the disk is full)")
        let constraint = CommandFailure(StateError.store(.sqlite(path: "/s", code: 787, message: "FOREIGN KEY", sql: "x")))
        #expect(constraint.code == .internalError, "a real bug stays 70")
    }

    @Test func theStateFolderIs0700AndTheDatabase0600FromTheStart() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-modes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("deep/dictee.sqlite").path
        let env = ["TZ": "Europe/Paris", "HOME": dir.path, "DICTEE_CONFIG": dir.appendingPathComponent("c.json").path]
        let old = umask(0o022)
        defer { umask(old) }
        let r = runDictee(["--state", state, "nightly", "--calendar", fixture("famille.ics"),
                           "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"], environment: env)
        #expect(r.code == .ok, "\(r.stderr)")
        func mode(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try mode(dir.appendingPathComponent("deep").path) == 0o700)
        #expect(try mode(state) == 0o600)
        #expect(try mode(dir.appendingPathComponent("deep/audit.jsonl").path) == 0o600)
    }

    @Test func aStateNamedWithoutAFolderKeepsItsFilesInTheCurrentFolder() {
        let paths = HouseholdPaths(environment: ["HOME": "/h"], statePath: "d.sqlite")
        #expect(paths.folder == ".")
        #expect(paths.auditFile == "./audit.jsonl" && paths.serverLog == "./model-server.log")
        #expect(HouseholdPaths(environment: ["HOME": "/h"]).auditFile == "/h/.local/share/dictee/audit.jsonl")
    }
}
