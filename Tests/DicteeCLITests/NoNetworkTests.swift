import DicteeCore
import DicteeTestSupport
import Foundation
import Household
import Store
import Testing

/// The default pipeline without any network (Docs/architecture.md, privacy boundary): the built binary
/// runs `nightly` in a network namespace whose loopback is down (`unshare -rn`), where Foundation's
/// `Process` could not notice a child's end. It must finish promptly with the same summary and
/// the same ready texts as with the network, reap every child it starts, and leave no
/// Grammalecte worker behind. The binary is started with `ChildProcess`, not `Process`.
///
/// A missing or unusable `unshare` fails the test; `DICTEE_SKIP_UNSHARE=1` opts out, and says so.
@Suite struct NoNetworkTests {
    static let now = ["--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"]
    /// Seconds a nightly may take here before it counts as hung: it takes about 2 s on an idle
    /// machine, over 60 s on a loaded one (where a 60 s limit fired); a hang waits forever.
    static let limit: Double = 900

    /// `unshare`, checked to work (`unshare -rn true`); nil when the test is opted out.
    func unshare() throws -> String? {
        if ProcessInfo.processInfo.environment["DICTEE_SKIP_UNSHARE"] == "1" {
            print("NoNetworkTests: skipped because DICTEE_SKIP_UNSHARE=1")
            return nil
        }
        let path = try #require(["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                "unshare is missing (Debian util-linux): the no-network test cannot run; set DICTEE_SKIP_UNSHARE=1 to opt out")
        let probe = try ChildProcess.run(executable: path, arguments: ["-rn", "/bin/true"], timeout: 30)
        let why = String(decoding: probe.standardError, as: UTF8.self)
        try #require(probe.termination == .exited(0),
                     "'unshare -rn true' fails (\(probe.termination): \(why)); user namespaces may be disabled here; set DICTEE_SKIP_UNSHARE=1 to opt out")
        return path
    }

    struct Run {
        var termination: ChildProcess.Termination
        var stdout: String
        var stderr: String
        /// Children of the binary seen as zombies in two samples 0.5 s or more apart.
        var lingeringZombies: Set<Int32>
    }

    /// Runs `[prefix...] dictee --state STATE nightly` with a marker in its environment, watching
    /// its children for zombies every 50 ms.
    func nightly(_ binary: URL, state: String, env: [String: String], marker: String, prefix: [String]) throws -> Run {
        var environment = env
        environment["PATH"] = "/usr/bin:/bin"
        environment["NO_COLOR"] = "1"
        environment["DICTEE_TEST_MARKER"] = marker
        environment.merge(sanitizerEnvironment()) { $1 }
        // The checkout's table, also for a DICTEE_BIN built elsewhere.
        environment["DICTEE_LEXICON"] = repositoryRoot.appendingPathComponent("Data/lexique-3.83.bin").path
        let command = prefix + [binary.path, "--state", state, "nightly"] + Self.now
        let child = try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()),
                                     environment: environment, standardInput: .null)
        // `unshare` execs the binary in place: the pid is the binary's.
        var firstSeen: [Int32: Date] = [:]
        var lingering: Set<Int32> = []
        let deadline = Date().addingTimeInterval(Self.limit)
        var output = Data()
        while child.poll() == nil, Date() < deadline {
            for pid in Self.children(of: child.processIdentifier) where Self.isZombie(pid) {
                let seen = firstSeen[pid] ?? Date()
                firstSeen[pid] = seen
                if Date().timeIntervalSince(seen) >= 0.5 { lingering.insert(pid) }
            }
            // Keep the pipes drained (the summary is one line; stderr a few).
            switch Result(catching: { () throws(ChildProcessError) in try child.readLine(timeout: 0.05) }) {
            case .success(let line?): output += line + Data("\n".utf8)
            case .success(nil): usleep(20_000)  // stdout closed: the binary is ending
            case .failure: break                // nothing this time
            }
        }
        let ended = child.poll()
        if ended == nil { child.kill() }
        try #require(ended != nil, "nightly did not finish within \(Int(Self.limit)) s: it hangs")
        output += try child.readToEnd(timeout: 10)
        return Run(termination: ended!, stdout: String(decoding: output, as: UTF8.self),
                   stderr: String(decoding: child.standardErrorData, as: UTF8.self), lingeringZombies: lingering)
    }

    /// The pids listed in `/proc/PID/task/*/children`.
    static func children(of pid: pid_t) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
    }

    /// Whether `/proc/PID/stat` says Z.
    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.range(of: ")", options: .backwards) else { return false }
        return stat[close.upperBound...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Live processes whose environment holds `DICTEE_TEST_MARKER=marker` (the binary's
    /// descendants: the Grammalecte worker, a model server).
    static func processes(marked marker: String) -> [Int32] {
        let needle = Data("DICTEE_TEST_MARKER=\(marker)".utf8)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return environment.range(of: needle) != nil
        }
    }

    /// The summary without its last field, the run's duration in seconds.
    static func summary(_ stdout: String) -> String {
        let line = undated(stdout).split(separator: "\n").first.map(String.init) ?? ""
        guard let cut = line.range(of: ", ", options: .backwards) else { return line }
        return String(line[..<cut.lowerBound])
    }

    /// Loopback down (`unshare -rn` alone: no interface works), or up (as systemd's
    /// `PrivateNetwork=yes` gives: `ip link set lo up` inside the namespace first).
    @Test(arguments: [false, true])
    func nightlyWithoutAnyNetworkFinishesLikeWithTheNetworkAndLeavesNoChild(loopbackUp: Bool) throws {
        guard let unshare = try unshare() else { return }
        var namespace = [unshare, "-rn"]
        if loopbackUp {
            let ip = try #require(["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "ip is missing (Debian iproute2): the loopback-up case cannot run")
            // `exec` keeps the pid: the binary's children are still the ones watched.
            namespace += ["/bin/sh", "-c", "\(ip) link set lo up && exec \"$0\" \"$@\""]
        }
        let binary = EndToEndTests.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "run 'swift build' first (the test runs the built binary)")

        let (refDir, refState, refEnv) = try NightlyTests().family()
        defer { try? FileManager.default.removeItem(at: refDir) }
        let referenceMarker = UUID().uuidString
        let reference = try nightly(binary, state: refState, env: refEnv, marker: referenceMarker, prefix: [])
        #expect(reference.termination == .exited(0), "\(reference.stderr)")

        let (dir, state, env) = try NightlyTests().family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let marker = UUID().uuidString
        let started = Date()
        let offline = try nightly(binary, state: state, env: env, marker: marker, prefix: namespace)
        let seconds = Date().timeIntervalSince(started)
        #expect(offline.termination == .exited(0), "\(offline.stderr)")
        #expect(!offline.stderr.contains("wakeup socket"), "\(offline.stderr)")

        // The same run as with the network.
        #expect(Self.summary(offline.stdout).hasPrefix("nightly: 2 children, 6 cards ready, 10 texts written"), "\(offline.stdout)")
        #expect(Self.summary(offline.stdout) == Self.summary(reference.stdout))
        #expect(undated(offline.stderr) == undated(reference.stderr))
        #expect(try NightlyTests().ready(state) == NightlyTests().ready(refState))
        let store = try StateStore(path: state)
        for child in try store.children() { #expect(try store.cards(childID: child.id!).count == 3) }

        // Every child reaped, none left running.
        #expect(offline.lingeringZombies.isEmpty && reference.lingeringZombies.isEmpty,
                "zombies: \(offline.lingeringZombies) \(reference.lingeringZombies)")
        #expect(Self.processes(marked: marker).isEmpty, "a child of the offline run is still alive")
        #expect(Self.processes(marked: referenceMarker).isEmpty, "a child of the reference run is still alive")
        print("NoNetworkTests: nightly under 'unshare -rn' took \(String(format: "%.1f", seconds)) s")
    }

    /// Managed mode inside dictee (llama.cpp in process) needs no network at all: with the tiny
    /// GGUF configured, a nightly under `unshare -rn` (no interface, not even loopback: the
    /// llama-cpp-python server could not even be reached there) asks the model for every text.
    /// The configuration names a Python that does not exist: no server is needed either. The run
    /// is traced (`strace -e trace=socket`): no network socket is even opened.
    @Test func theModelInsideDicteeNeedsNoNetwork() throws {
        guard ModelRoute.inProcessAvailable else {
            print("NoNetworkTests: dictee is built without llama.cpp: the in-process model is not checked here")
            return
        }
        guard let unshare = try unshare() else { return }
        let binary = EndToEndTests.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "run 'swift build' first (the test runs the built binary)")
        let (dir, state, env) = try NightlyTests().family()
        defer { try? FileManager.default.removeItem(at: dir) }
        // One child (5 texts) is enough to show it, and keeps the run short on a busy machine.
        #expect(runDictee(["--state", state, "child", "remove", "Hugo", "--yes"], environment: env).code == .ok)
        let gguf = dir.appendingPathComponent("tiny-random.gguf").path
        try writeTinyGGUF(to: gguf)
        let configPath = try #require(env["DICTEE_CONFIG"])
        var config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: configPath))) as? [String: Any])
        config["model"] = ["gguf": gguf, "name": "tiny-random", "context": 8192, "timeout_seconds": 300,
                           "python": dir.appendingPathComponent("no-python-here").path]
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: configPath))

        // Every socket(2) call of the run and its children, traced (Debian strace, installed by
        // Scripts/setup --tests): only AF_UNIX ones (glibc asking nscd for the user) may appear.
        // --seccomp-bpf stops the process at those calls only: stopping llama.cpp's threads at
        // every system call made the run take over 15 minutes on a loaded machine.
        let strace = try #require(["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "strace is missing (Debian strace, Scripts/setup --tests installs it)")
        let trace = dir.appendingPathComponent("sockets.trace").path
        let marker = UUID().uuidString
        let offline = try nightly(binary, state: state, env: env, marker: marker,
                                  prefix: [strace, "-f", "-qq", "--seccomp-bpf", "-e", "trace=socket", "-o", trace, unshare, "-rn"])
        #expect(offline.termination == .exited(0), "\(offline.stderr)")
        #expect(!offline.stderr.contains("could not"), "\(offline.stderr)")
        let sockets = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("socket(") }
        #expect(sockets.allSatisfy { $0.contains("socket(AF_UNIX") }, "a network socket was opened: \(sockets)")
        #expect(Self.summary(offline.stdout).hasPrefix("nightly: 1 child, 3 cards ready, 5 texts written"), "\(offline.stdout)")
        let store = try StateStore(path: state)
        var asked = 0
        for child in try store.children() {
            for text in try store.dictations(childID: child.id!, statuses: [.ready]) {
                let attempts = try store.attempts(dictationID: text.id)
                #expect(!attempts.isEmpty, "the model was asked for every text")
                #expect(attempts.allSatisfy { $0.failure != .server && $0.failure != .timeout && $0.promptTokens > 0 })
                asked += attempts.count
            }
        }
        #expect(asked >= 5)
        #expect(offline.lingeringZombies.isEmpty && Self.processes(marked: marker).isEmpty, "no child left behind")
    }
}
