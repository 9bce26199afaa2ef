// One child process, started with posix_spawn and reaped with waitpid: no run loop, no socket.
// Foundation's `Process` on Linux notices a child's end through a CFSocket wake-up pair, which
// cannot be created in a network namespace whose loopback is down (`unshare -n`): its children
// then stay zombies and every wait runs into its timeout. This type needs no network at all.
import Foundation

/// A child process started with `posix_spawn` (never through a shell), in a process group of its
/// own, with its standard streams on pipes, `/dev/null`, a file or inherited.
///
/// - Start: `posix_spawn` with `POSIX_SPAWN_SETPGROUP` (the child leads a new process group, so
///   `signalGroup` reaches its own children too), `POSIX_SPAWN_SETSIGMASK` (empty mask) and
///   `POSIX_SPAWN_SETSIGDEF` (every signal back to its default action). Pipes are made with
///   `pipe2(O_CLOEXEC)` and every descriptor above 2 is closed in the child
///   (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34+), so no other descriptor of this
///   process (another child's pipe, the database) leaks into it.
/// - I/O: the pipe ends kept here are non-blocking; `write`, `readLine` and `readToEnd` run a
///   `poll(2)` loop that drains standard output and standard error while writing, so neither
///   side can block on a full pipe (64 kB on Linux). Standard error is kept in memory up to
///   `standardErrorLimit` bytes (the last ones).
/// - End: `poll()` / `isRunning` reap with `waitpid(WNOHANG)`; `wait(timeout:)` polls with short
///   sleeps; `terminate(grace:)` and `kill()` signal the whole group then reap. `deinit` kills the
///   group with SIGKILL and reaps if nobody did: a `ChildProcess` never leaves a zombie.
/// - SIGPIPE: writing to a child that closed its standard input fails with
///   `ChildProcessError.brokenPipe`; the signal is blocked on the writing thread meanwhile and a
///   pending one consumed, so it never kills this process.
///
/// Thread safety: any thread may call any method; I/O calls are serialised with one another.
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable, Equatable {
        /// A pipe to this process (`write` for standard input; `readLine` / `readToEnd` for the
        /// others).
        case pipe
        /// `/dev/null`.
        case null
        /// This process's own descriptor of the same number.
        case inherit
        /// A file: read from for standard input; for output, created with mode 0600 if missing
        /// and appended to (so standard output and error may name the same file).
        case file(String)
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status (0 to 255). `-1` when the status was lost (another part of
        /// this process reaped the child first).
        case exited(Int32)
        /// A signal ended it (signal number).
        case signaled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }

        /// The exit status, or `128 + signal` as a shell reports it.
        public var status: Int32 {
            switch self {
            case .exited(let status): status
            case .signaled(let signal): 128 + signal
            }
        }
    }

    /// Everything a finished child wrote, from `run`.
    public struct Output: Sendable {
        /// How it ended.
        public var termination: Termination
        /// All of its standard output.
        public var standardOutput: Data
        /// The last `standardErrorLimit` bytes of its standard error.
        public var standardError: Data
    }

    /// The child's process id, which is also its process group id.
    public let processIdentifier: pid_t
    /// The executable given to `init`.
    public let executable: String
    /// Bytes of standard error kept in memory (the last ones); default 64 kB.
    public let standardErrorLimit: Int

    private let stateLock = NSLock()
    private let ioLock = NSLock()
    private var ended: Termination?
    private var inputFD: Int32 = -1
    private var outputFD: Int32 = -1
    private var errorFD: Int32 = -1
    private var outputBuffer = Data()
    private var errorBuffer = Data()

    /// Starts a child process.
    ///
    /// - Parameters:
    ///   - executable: the program's path (a name without `/` is looked up in `PATH`).
    ///   - arguments: the arguments after `argv[0]` (which is `executable`).
    ///   - environment: the child's whole environment; nil passes this process's own.
    ///   - standardInput: where its standard input comes from (default `/dev/null`).
    ///   - standardOutput: where its standard output goes (default a pipe).
    ///   - standardError: where its standard error goes (default a pipe).
    ///   - standardErrorLimit: bytes of standard error kept, the last ones (default 64 kB).
    /// - Throws: `ChildProcessError.spawnFailed` (missing executable, file not openable, no more
    ///   processes...); nothing is left running then.
    public init(executable: String, arguments: [String], environment: [String: String]? = nil,
                standardInput: Stream = .null, standardOutput: Stream = .pipe, standardError: Stream = .pipe,
                standardErrorLimit: Int = 65_536) throws(ChildProcessError) {
        self.executable = executable
        self.standardErrorLimit = max(standardErrorLimit, 0)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        // Descriptors to close in this process once the child has its copies.
        var parentCloses: [Int32] = []
        var kept: [Int32] = [-1, -1, -1]
        func cleanUp() {
            for fd in parentCloses + kept where fd >= 0 { close(fd) }
        }
        let streams = [standardInput, standardOutput, standardError]
        for (target, stream) in streams.enumerated() {
            let target = Int32(target)
            switch stream {
            case .inherit:
                continue
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                let flags = target == 0 ? O_RDONLY : (O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW)
                let fd = open(path, flags | O_CLOEXEC, 0o600)
                guard fd >= 0 else {
                    let code = errno
                    cleanUp()
                    throw .spawnFailed(executable: executable, errno: code, detail: "cannot open \(path)")
                }
                parentCloses.append(fd)
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard Self.makePipe(&ends) else {
                    let code = errno
                    cleanUp()
                    throw .spawnFailed(executable: executable, errno: code, detail: "cannot create a pipe")
                }
                // Standard input: the child reads ends[0]; the others: the child writes ends[1].
                let (childEnd, ourEnd) = target == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                parentCloses.append(childEnd)
                kept[Int(target)] = ourEnd
                _ = fcntl(ourEnd, F_SETFL, fcntl(ourEnd, F_GETFL) | O_NONBLOCK)
                posix_spawn_file_actions_adddup2(&actions, childEnd, target)
            }
        }
        Self.closeFrom(&actions, 3)

        let flags = Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        posix_spawnattr_setflags(&attributes, Int16(flags))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } }
        defer { envp?.forEach { free($0) } }

        var pid: pid_t = 0
        let result: Int32 = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            let argvPointer = argvBuffer.baseAddress!
            func spawn(_ env: UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
                executable.contains("/")
                    ? posix_spawn(&pid, executable, &actions, &attributes, argvPointer, env)
                    : posix_spawnp(&pid, executable, &actions, &attributes, argvPointer, env)
            }
            if let envp {
                return (envp + [nil]).withUnsafeBufferPointer { spawn($0.baseAddress!) }
            }
            return spawn(UnsafePointer(environ))
        }
        for fd in parentCloses { close(fd) }
        parentCloses = []
        guard result == 0 else {
            cleanUp()
            throw .spawnFailed(executable: executable, errno: result, detail: nil)
        }
        processIdentifier = pid
        (inputFD, outputFD, errorFD) = (kept[0], kept[1], kept[2])
    }

    deinit {
        stateLock.lock()
        if ended == nil {
            Glibc.kill(-processIdentifier, SIGKILL)
            Glibc.kill(processIdentifier, SIGKILL)
            var status: Int32 = 0
            while waitpid(processIdentifier, &status, 0) == -1 && errno == EINTR {}
        }
        stateLock.unlock()
        for fd in [inputFD, outputFD, errorFD] where fd >= 0 { close(fd) }
    }

    // MARK: - Running to the end

    /// Runs a program to its end, feeding it `input` and collecting what it writes.
    ///
    /// - Parameters:
    ///   - executable: as in `init`.
    ///   - arguments: as in `init`.
    ///   - environment: as in `init`.
    ///   - input: bytes for its standard input, which is then closed (nil: `/dev/null`).
    ///   - timeout: seconds the whole run may take; then the process group is killed.
    /// - Returns: how it ended, its standard output, the end of its standard error.
    /// - Throws: `ChildProcessError.spawnFailed`, or `.timeout(seconds:)` after killing the group.
    public static func run(executable: String, arguments: [String], environment: [String: String]? = nil,
                           input: Data? = nil, timeout: Double) throws(ChildProcessError) -> Output {
        let child = try ChildProcess(executable: executable, arguments: arguments, environment: environment,
                                     standardInput: input == nil ? .null : .pipe)
        let deadline = Deadline(seconds: timeout)
        if let input {
            do { try child.write(input, timeout: deadline.remaining) } catch .brokenPipe {
                // It stopped reading: what it wrote still tells why.
            } catch .timeout {
                child.kill()
                throw .timeout(seconds: timeout)
            } catch {
                child.kill()
                throw error
            }
            child.closeStandardInput()
        }
        let output: Data
        do { output = try child.readToEnd(timeout: deadline.remaining) } catch .timeout {
            child.kill()
            throw .timeout(seconds: timeout)
        } catch {
            child.kill()
            throw error
        }
        guard let termination = child.wait(timeout: max(deadline.remaining, 0.5)) else {
            child.kill()
            throw .timeout(seconds: timeout)
        }
        return Output(termination: termination, standardOutput: output, standardError: child.standardErrorData)
    }

    // MARK: - Standard input

    /// Writes all of `data` to the child's standard input, draining its output meanwhile.
    ///
    /// - Parameters:
    ///   - data: the bytes.
    ///   - timeout: seconds without the pipe accepting a byte before giving up.
    /// - Throws: `.brokenPipe` if the child closed its end (it exited, usually), `.timeout`,
    ///   `.notAPipe` when standard input is not `.pipe` (or was closed), `.io` for another error.
    public func write(_ data: Data, timeout: Double) throws(ChildProcessError) {
        ioLock.lock()
        defer { ioLock.unlock() }
        guard inputFD >= 0 else { throw .notAPipe("standard input") }
        var offset = 0
        var deadline = Deadline(seconds: timeout)
        while offset < data.count {
            let written = data.withUnsafeBytes { bytes in
                Self.writeWithoutSIGPIPE(inputFD, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written > 0 {
                offset += written
                deadline = Deadline(seconds: timeout)
                continue
            }
            let code = errno
            if written < 0 && code == EINTR { continue }
            if written < 0 && code == EPIPE { throw .brokenPipe }
            if written < 0 && code != EAGAIN { throw .io(operation: "write", errno: code) }
            guard deadline.remaining > 0 else { throw .timeout(seconds: timeout) }
            try pump(writing: true, until: deadline)
        }
    }

    /// Closes the child's standard input (it reads end-of-file). Safe to call twice.
    public func closeStandardInput() {
        ioLock.lock()
        defer { ioLock.unlock() }
        if inputFD >= 0 { close(inputFD) }
        inputFD = -1
    }

    // MARK: - Standard output and error

    /// The next line of standard output, without its line feed.
    ///
    /// - Parameter timeout: seconds to wait for a complete line.
    /// - Returns: the line's bytes, or nil at end of file (a last line without a line feed is
    ///   dropped: a child that dies in the middle of a line did not finish it).
    /// - Throws: `.timeout` when no complete line came in time (the child is left running),
    ///   `.notAPipe` when standard output is not `.pipe`, `.io` on a read error.
    public func readLine(timeout: Double) throws(ChildProcessError) -> Data? {
        ioLock.lock()
        defer { ioLock.unlock() }
        let deadline = Deadline(seconds: timeout)
        while true {
            if let newline = outputBuffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = outputBuffer[outputBuffer.startIndex..<newline]
                outputBuffer = Data(outputBuffer[(newline + 1)...])
                return Data(line)
            }
            guard outputFD >= 0 else { return nil }
            guard deadline.remaining > 0 else { throw .timeout(seconds: timeout) }
            try pump(writing: false, until: deadline)
        }
    }

    /// Reads standard output and error until both reach end of file.
    ///
    /// - Parameter timeout: seconds for the whole read.
    /// - Returns: all of standard output not yet read by `readLine`.
    /// - Throws: `.timeout` when a pipe is still open at the deadline (the child, or a child of
    ///   its own, still holds it), `.io` on a read error.
    public func readToEnd(timeout: Double) throws(ChildProcessError) -> Data {
        ioLock.lock()
        defer { ioLock.unlock() }
        let deadline = Deadline(seconds: timeout)
        while outputFD >= 0 || errorFD >= 0 {
            guard deadline.remaining > 0 else { throw .timeout(seconds: timeout) }
            try pump(writing: false, until: deadline)
        }
        defer { outputBuffer = Data() }
        return outputBuffer
    }

    /// What the child wrote to standard error so far (the last `standardErrorLimit` bytes), as
    /// far as it has been read: `readLine`, `readToEnd` and `write` read it as they go, and this
    /// property reads what is available without waiting.
    public var standardErrorData: Data {
        ioLock.lock()
        defer { ioLock.unlock() }
        if errorFD >= 0 { drain(&errorFD, into: &errorBuffer, limit: standardErrorLimit) }
        return errorBuffer
    }

    // MARK: - End

    /// How the child ended, or nil while it runs; reaps it (`waitpid(WNOHANG)`) if it ended.
    public func poll() -> Termination? {
        stateLock.lock()
        defer { stateLock.unlock() }
        return reap(blocking: false)
    }

    /// Whether the child still runs (it is reaped if it ended).
    public var isRunning: Bool { poll() == nil }

    /// Waits for the child to end (polling every 1 to 20 ms).
    ///
    /// - Parameter timeout: seconds to wait; nil waits as long as it takes.
    /// - Returns: how it ended, or nil if it still runs at the timeout (it is left running).
    public func wait(timeout: Double? = nil) -> Termination? {
        let deadline = timeout.map { Deadline(seconds: $0) }
        var pause: useconds_t = 1_000
        while true {
            if let ended = poll() { return ended }
            if let deadline, deadline.remaining <= 0 { return nil }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Sends a signal to the child's whole process group (and to the child itself), unless it
    /// has already been reaped.
    ///
    /// - Parameter signal: e.g. `SIGTERM`.
    public func signalGroup(_ signal: Int32) {
        stateLock.lock()
        defer { stateLock.unlock() }
        // Once reaped, its pid (and group id) may belong to someone else.
        guard reap(blocking: false) == nil else { return }
        Glibc.kill(-processIdentifier, signal)
        Glibc.kill(processIdentifier, signal)
    }

    /// Asks the process group to stop (SIGTERM), then kills it (SIGKILL) after `grace` seconds,
    /// and reaps the child.
    ///
    /// - Parameter grace: seconds between SIGTERM and SIGKILL.
    /// - Returns: how the child ended.
    @discardableResult
    public func terminate(grace: Double) -> Termination {
        if let ended = poll() { return ended }
        signalGroup(SIGTERM)
        if let ended = wait(timeout: grace) { return ended }
        return kill()
    }

    /// Kills the process group (SIGKILL) and reaps the child.
    ///
    /// - Returns: how the child ended (`.signaled(SIGKILL)` unless it ended before).
    @discardableResult
    public func kill() -> Termination {
        stateLock.lock()
        defer { stateLock.unlock() }
        if let ended = reap(blocking: false) { return ended }
        Glibc.kill(-processIdentifier, SIGKILL)
        Glibc.kill(processIdentifier, SIGKILL)
        return reap(blocking: true) ?? .exited(-1)
    }

    // MARK: - Internals

    /// Call with `stateLock` held.
    private func reap(blocking: Bool) -> Termination? {
        if let ended { return ended }
        var status: Int32 = 0
        while true {
            let result = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG)
            if result == processIdentifier { break }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            // ECHILD: reaped elsewhere; the status is lost.
            ended = .exited(-1)
            return ended
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot call.
        let signal = status & 0x7f
        ended = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        return ended
    }

    /// One `poll(2)` round on the open pipes (at most 100 ms): reads what is there into the
    /// buffers; returns when something happened, the deadline passed, or stdin is writable.
    /// Call with `ioLock` held.
    private func pump(writing: Bool, until deadline: Deadline) throws(ChildProcessError) {
        var fds: [pollfd] = []
        if outputFD >= 0 { fds.append(pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)) }
        if errorFD >= 0 { fds.append(pollfd(fd: errorFD, events: Int16(POLLIN), revents: 0)) }
        if writing && inputFD >= 0 { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
        let milliseconds = Int32(max(0, min(deadline.remaining, 0.1)) * 1000) + 1
        if fds.isEmpty {
            usleep(useconds_t(milliseconds) * 1000)
            return
        }
        let ready = Glibc.poll(&fds, nfds_t(fds.count), milliseconds)
        if ready < 0 {
            if errno == EINTR { return }
            throw .io(operation: "poll", errno: errno)
        }
        for entry in fds where entry.revents != 0 {
            if entry.fd == outputFD {
                drain(&outputFD, into: &outputBuffer, limit: nil)
            } else if entry.fd == errorFD {
                drain(&errorFD, into: &errorBuffer, limit: standardErrorLimit)
            }
        }
    }

    /// Reads everything available from a non-blocking descriptor; closes it (and sets it to -1)
    /// at end of file or on an error.
    private func drain(_ fd: inout Int32, into buffer: inout Data, limit: Int?) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while fd >= 0 {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                if let limit, buffer.count > limit { buffer = Data(buffer.suffix(limit)) }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            close(fd)
            fd = -1
        }
    }

    /// `write(2)` with SIGPIPE blocked on this thread; a SIGPIPE it raised is consumed, so the
    /// caller sees EPIPE instead of dying.
    private static func writeWithoutSIGPIPE(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        let alreadyPending = sigismember(&pending, SIGPIPE) == 1
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        let written = Glibc.write(fd, bytes, count)
        let code = errno
        if written < 0 && code == EPIPE && !alreadyPending {
            var zero = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&pipeSignal, nil, &zero) == -1 && errno == EINTR {}
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        errno = code
        return written
    }

    /// `pipe2(O_CLOEXEC)`, looked up at run time (Swift's Glibc module does not declare it), or
    /// `pipe` + `FD_CLOEXEC` where it is missing.
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        if let pipe2 = pipe2Function {
            return ends.withUnsafeMutableBufferPointer { pipe2($0.baseAddress!, O_CLOEXEC) } == 0
        }
        guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress!) }) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// `posix_spawn_file_actions_addclosefrom_np(actions, from)` where glibc has it (2.34+).
    private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ from: Int32) {
        guard let function = closeFromFunction else { return }
        _ = function(&actions, from)
    }

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let pipe2Function: Pipe2? = symbol("pipe2")
    private static let closeFromFunction: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}

/// Why a child process could not be started, written to or read from.
public enum ChildProcessError: Error, Equatable, CustomStringConvertible {
    /// `posix_spawn` failed (`errno`: ENOENT for a missing executable, EACCES, EAGAIN...), or a
    /// file or pipe for its streams could not be made (`detail` says which).
    case spawnFailed(executable: String, errno: Int32, detail: String?)
    /// Nothing happened within this many seconds.
    case timeout(seconds: Double)
    /// The child closed its standard input (it exited, usually).
    case brokenPipe
    /// The stream is not a pipe of this process (or was closed).
    case notAPipe(String)
    /// Another system call failed.
    case io(operation: String, errno: Int32)

    public var description: String {
        switch self {
        case .spawnFailed(let executable, let code, let detail):
            "cannot start \(executable)" + (detail.map { ": \($0)" } ?? "") + ": " + String(cString: strerror(code))
        case .timeout(let seconds):
            "no progress within \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s"
        case .brokenPipe:
            "the child closed its standard input"
        case .notAPipe(let stream):
            "\(stream) is not a pipe"
        case .io(let operation, let code):
            "\(operation) failed: " + String(cString: strerror(code))
        }
    }
}

/// A point in time on the monotonic clock, `seconds` from its creation.
fileprivate struct Deadline {
    private let end: UInt64

    init(seconds: Double) {
        end = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min(seconds, 1e9)) * 1e9)
    }

    /// Seconds left (negative once passed).
    var remaining: Double {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= end ? -Double(now - end) / 1e9 : Double(end - now) / 1e9
    }
}
