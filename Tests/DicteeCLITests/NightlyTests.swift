import DicteeCore
import Foundation
import Store
import Testing
import DicteeTestSupport

/// `dictee nightly` without a model (the library serves): the lock, the summary, a second run
/// changing nothing, and SIGKILL at any point completed by the next run without duplicates.
@Suite struct NightlyTests {
    static let now = ["--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"]

    /// A fresh folder with a config naming the fixture calendar, and two children.
    func family() throws -> (dir: URL, state: String, env: [String: String]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-nightly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("dictee.sqlite").path
        let env = ["TZ": "Europe/Paris", "DICTEE_CONFIG": dir.appendingPathComponent("config.json").path, "HOME": dir.path]
        #expect(runDictee(["--state", state, "source", "add", fixture("famille.ics")], environment: env).code == .ok)
        #expect(runDictee(["--state", state, "child", "add", "Léa", "--gender", "f", "--grade", "CE1"], environment: env).code == .ok)
        #expect(runDictee(["--state", state, "child", "add", "Hugo", "--gender", "m", "--grade", "CM1"], environment: env).code == .ok)
        return (dir, state, env)
    }

    /// Per child, the occurrence keys of the texts ready or on a card; duplicates fail the test.
    func ready(_ state: String) throws -> [Int64: [String]] {
        let store = try StateStore(path: state)
        var out: [Int64: [String]] = [:]
        for child in try store.children() {
            let keys = try store.dictations(childID: child.id!, statuses: [.ready]).map(\.occurrenceKey.description)
            #expect(Set(keys).count == keys.count, "no two ready texts for one occurrence")
            out[child.id!] = keys.sorted()
        }
        return out
    }

    @Test func aRunIngestsWritesTheAuditFileDealsTheCardsAndASecondRunChangesNothing() throws {
        let (dir, state, env) = try family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = runDictee(["--state", state, "nightly"] + Self.now, environment: env)
        #expect(r.code == .ok, "\(r.stderr)")
        let lines = undated(r.stdout).split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("nightly: 2 children, 6 cards ready, 10 texts written (0 by the model, 10 from the library)"))
        #expect(r.stderr.components(separatedBy: "the handwritten library serves every text").count == 2, "said once")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("audit.jsonl").path))
        #expect(runDictee(["--state", state, "audit", dir.appendingPathComponent("audit.jsonl").path, "--verify"], environment: env).code == .ok)
        let first = try ready(state)
        #expect(first.values.allSatisfy { $0.count == 5 }, "three cards and a reserve of two")
        let store = try StateStore(path: state)
        for child in try store.children() { #expect(try store.cards(childID: child.id!).count == 3) }
        let again = runDictee(["--state", state, "nightly"] + Self.now, environment: env)
        #expect(again.code == .ok && undated(again.stdout).hasPrefix("nightly: nothing to do: 2 children, 6 cards ready, "), "\(again.stdout)")
        #expect(again.stderr.isEmpty, "a night with nothing to do says so in one line: \(again.stderr)")
        #expect(try ready(state) == first)
        // The cards command then shows them without writing anything.
        #expect(runDictee(["--state", state, "cards", "--child", "Léa", "--now", "2026-11-29T18:00:00+01:00"], environment: env).code == .ok)
        #expect(try ready(state) == first)
    }

    @Test func aSecondRunExits75NamingTheHolder() throws {
        let (dir, state, env) = try family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lockPath = state + ".nightly.lock"
        let fd = open(lockPath, O_RDWR | O_CREAT, 0o600)
        #expect(fd >= 0)
        defer { close(fd) }
        _ = "pid 4242, started 2026-11-29T01:00:00Z\n".withCString { write(fd, $0, strlen($0)) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        // flock locks belong to the open file description: the in-process run opens its own.
        let r = runDictee(["--state", state, "nightly"] + Self.now, environment: env)
        #expect(r.code == .temporaryFailure)
        #expect(r.stderr.contains("(pid 4242, started 2026-11-29T01:00:00Z)") && r.stdout.isEmpty, "\(r.stderr)")
        var french = env
        french["LANG"] = "fr_FR.UTF-8"
        let fr = runDictee(["--state", state, "nightly"] + Self.now, environment: french)
        #expect(fr.code == .temporaryFailure && fr.stderr.contains("(pid 4242, lancé le 2026-11-29T01:00:00Z)"), "\(fr.stderr)")
        flock(fd, LOCK_UN)
        #expect(runDictee(["--state", state, "nightly"] + Self.now, environment: env).code == .ok)
    }

    @Test func killedAtAnyPointTheNextRunCompletesWithoutDuplicatesOrLosses() throws {
        let binary = EndToEndTests.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "run Scripts/test (it builds the binary)")
        // The reference: one clean run.
        let (refDir, refState, refEnv) = try family()
        defer { try? FileManager.default.removeItem(at: refDir) }
        #expect(runDictee(["--state", refState, "nightly"] + Self.now, environment: refEnv).code == .ok)
        let reference = try ready(refState)

        let (dir, state, env) = try family()
        defer { try? FileManager.default.removeItem(at: dir) }
        func start() throws -> Process {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["--state", state, "nightly"] + Self.now
            process.environment = env.merging(["PATH": "/usr/bin:/bin"]) { $1 }.merging(sanitizerEnvironment()) { $1 }
            process.currentDirectoryURL = repositoryRoot
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for delay in [0.15, 0.4, 0.8, 1.2, 1.7, 2.3] {
            let process = try start()
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let process = try start()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try ready(state).mapValues(\.count) == reference.mapValues(\.count))
        #expect(try ready(state) == reference, "the same occurrences are ready")
        let store = try StateStore(path: state)
        #expect(try store.dump().contains("dictations: "))
        for child in try store.children() { #expect(try store.cards(childID: child.id!).count == 3) }
    }
}
