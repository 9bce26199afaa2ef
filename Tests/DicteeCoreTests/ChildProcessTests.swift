import DicteeCore
import Foundation
import Testing

/// `ChildProcess` against real programs (`/bin/sh`, `cat`, `head`): pipes both ways, big outputs,
/// timeouts that kill the whole group, and no zombie on any path.
@Suite struct ChildProcessTests {
    /// Whether `pid` is a child of this process (running, or a zombie not yet reaped).
    static func isChild(_ pid: pid_t) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            let children = (try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? ""
            if children.split(separator: " ").contains(Substring(String(pid))) { return true }
        }
        return false
    }

    @Test func runCollectsOutputErrorAndStatus() throws {
        let output = try ChildProcess.run(executable: "/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 7"], timeout: 30)
        #expect(output.termination == .exited(7))
        #expect(String(decoding: output.standardOutput, as: UTF8.self) == "out\n")
        #expect(String(decoding: output.standardError, as: UTF8.self) == "err\n")
    }

    @Test func inputGoesInAndComesBackThroughCat() throws {
        // 3 MB through cat: more than both pipes hold, so writing and reading must interleave.
        let input = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let output = try ChildProcess.run(executable: "/bin/cat", arguments: [], input: input, timeout: 60)
        #expect(output.termination == .exited(0))
        #expect(output.standardOutput == input)
    }

    @Test func linesComeOneByOne() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "while read -r l; do echo \"<$l>\"; done"],
                                     standardInput: .pipe)
        for word in ["un", "deux", "é😀"] {
            try child.write(Data("\(word)\n".utf8), timeout: 10)
            #expect(try child.readLine(timeout: 10) == Data("<\(word)>".utf8))
        }
        child.closeStandardInput()
        #expect(try child.readLine(timeout: 10) == nil)
        #expect(child.wait(timeout: 10) == .exited(0))
    }

    @Test func aReadThatGetsNothingTimesOutAndLeavesTheChildRunning() throws {
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["30"])
        #expect(throws: ChildProcessError.timeout(seconds: 0.2)) { try child.readLine(timeout: 0.2) }
        #expect(child.isRunning)
        #expect(child.kill() == .signaled(SIGKILL))
        #expect(!Self.isChild(child.processIdentifier))
    }

    @Test func aTimeoutKillsTheWholeProcessGroup() throws {
        // `sleep` is the shell's child and holds the pipes; run() must not wait 30 s for it.
        let started = Date()
        #expect(throws: ChildProcessError.timeout(seconds: 0.3)) {
            try ChildProcess.run(executable: "/bin/sh", arguments: ["-c", "sleep 30; echo never"], timeout: 0.3)
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func terminateSendsSIGTERMToTheGroup() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "sleep 30 & wait"])
        usleep(100_000)
        #expect(child.terminate(grace: 5) == .signaled(SIGTERM))
        #expect(!Self.isChild(child.processIdentifier))
    }

    @Test func bigOutputOnBothPipesDoesNotDeadlock() throws {
        let script = "head -c 2000000 /dev/zero | tr '\\000' e >&2; head -c 2000000 /dev/zero | tr '\\000' o"
        let output = try ChildProcess.run(executable: "/bin/sh", arguments: ["-c", script], timeout: 60)
        #expect(output.termination == .exited(0))
        #expect(output.standardOutput.count == 2_000_000)
        #expect(output.standardError.count == 65_536, "the last 64 kB of standard error are kept")
    }

    @Test func aMissingExecutableFailsToSpawnAndLeavesNothing() {
        #expect(throws: ChildProcessError.spawnFailed(executable: "/nonexistent/tool", errno: ENOENT, detail: nil)) {
            try ChildProcess(executable: "/nonexistent/tool", arguments: [])
        }
        #expect(ChildProcessError.spawnFailed(executable: "/x", errno: ENOENT, detail: nil).description
            == "cannot start /x: No such file or directory")
    }

    @Test func writingToAChildThatExitedIsABrokenPipeNotASignal() throws {
        let child = try ChildProcess(executable: "/bin/true", arguments: [], standardInput: .pipe)
        #expect(child.wait(timeout: 10) == .exited(0))
        #expect(throws: ChildProcessError.brokenPipe) { try child.write(Data(repeating: 65, count: 100_000), timeout: 5) }
    }

    @Test func theChildGetsOnlyItsThreeStandardDescriptors() throws {
        // A descriptor of this process without O_CLOEXEC must not reach the child.
        let leaky = open("/dev/null", O_RDONLY)
        defer { close(leaky) }
        let output = try ChildProcess.run(executable: "/bin/ls", arguments: ["/proc/self/fd"], timeout: 30)
        // ls itself opens one descriptor to read the folder.
        let fds = String(decoding: output.standardOutput, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        #expect(!fds.contains(Int(leaky)), "\(fds)")
        #expect(fds.filter { $0 > 2 }.count <= 1, "\(fds)")
    }

    @Test func theChildHasItsOwnProcessGroupAndAnEmptySignalMask() throws {
        // A signal blocked on the spawning thread is not blocked in the child.
        var usr2 = sigset_t(), previous = sigset_t()
        sigemptyset(&usr2)
        sigaddset(&usr2, SIGUSR2)
        pthread_sigmask(SIG_BLOCK, &usr2, &previous)
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "cat /proc/self/status; read -r line"], standardInput: .pipe)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        defer { child.kill() }
        let stat = try String(contentsOfFile: "/proc/\(child.processIdentifier)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")
        #expect(fields[2] == Substring(String(child.processIdentifier)), "pgrp is the child's own pid")
        var status = ""
        while let line = try child.readLine(timeout: 10) {
            status += String(decoding: line, as: UTF8.self) + "\n"
            if line.starts(with: Data("SigBlk:".utf8)) { break }
        }
        let blocked = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }?.split(separator: "\t").last
        #expect(blocked.flatMap { UInt64($0, radix: 16) } == 0, "\(status)")
    }

    @Test func noZombieOnAnyPath() throws {
        var pids: [pid_t] = []
        // Released while running: deinit kills and reaps.
        do {
            let child = try ChildProcess(executable: "/bin/sleep", arguments: ["30"])
            pids.append(child.processIdentifier)
        }
        // Ended by itself, never waited for: deinit reaps.
        do {
            let child = try ChildProcess(executable: "/bin/true", arguments: [])
            pids.append(child.processIdentifier)
            usleep(100_000)
        }
        // Waited for.
        let waited = try ChildProcess(executable: "/bin/true", arguments: [])
        #expect(waited.wait(timeout: 10) == .exited(0))
        pids.append(waited.processIdentifier)
        for pid in pids { #expect(!Self.isChild(pid), "pid \(pid)") }
    }
}
