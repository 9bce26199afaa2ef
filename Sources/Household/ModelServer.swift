import DicteeCore
import Foundation
import Generation
import Web

/// Managed mode: the `llama-cpp-python` server started for one `dictee nightly` run, on a free
/// 127.0.0.1 port, from the project's virtual environment (`Scripts/model/install-server`), and
/// stopped at the end, also on failure (`stop()` is idempotent; the server runs in its own
/// process group, which is killed).
final class ModelServer: @unchecked Sendable {
    /// The version of `llama-cpp-python` the setup installs (the venv folder is keyed by it).
    static let version = "0.3.36"
    /// How long the server may take to load the model, in seconds.
    static let startTimeout: Double = 90

    /// The server's process (through the launcher), leader of its own process group.
    let process: ChildProcess
    /// `http://127.0.0.1:PORT/v1`.
    let endpoint: URL
    let contextLength: Int
    private var stopped = false

    private init(process: ChildProcess, endpoint: URL, contextLength: Int) {
        self.process = process
        self.endpoint = endpoint
        self.contextLength = contextLength
    }

    /// The venv's python: `model.python` in the config, else
    /// `$XDG_CACHE_HOME/dictee/llama-cpp-python-0.3.36/bin/python` (default `~/.cache`).
    static func python(configured: String?, environment: [String: String]) -> String {
        if let configured, !configured.isEmpty { return configured }
        return XDGFolder.cache.dictee(environment) + "/llama-cpp-python-\(version)/bin/python"
    }

    /// Runs `llama_cpp.server` with the arguments after `-c CODE`, after PR_SET_PDEATHSIG (1).
    static let launcher = """
        import ctypes, runpy, signal, sys; ctypes.CDLL(None).prctl(1, signal.SIGTERM)
        sys.argv = ["llama_cpp.server"] + sys.argv[1:]; runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
        """

    /// A free TCP port on 127.0.0.1 (bound, connected to once, released).
    ///
    /// - Throws: `ServerError` saying why: no loopback interface (a network namespace whose `lo`
    ///   is down, e.g. `unshare -n`: 127.0.0.1 can be bound but not reached, ENETUNREACH), or
    ///   another socket error.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError(tr("no TCP socket: %@", String(cString: strerror(errno)))) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            if code == EADDRNOTAVAIL || code == ENETUNREACH || code == ENETDOWN { throw loopbackError(code) }
            throw ServerError(tr("no free port on 127.0.0.1: %@", String(cString: strerror(code))))
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw ServerError(tr("no free port on 127.0.0.1: %@", String(cString: strerror(errno)))) }
        // Binding 127.0.0.1 succeeds even when `lo` is down; connecting then fails with
        // ENETUNREACH. So connect once to the bound port (loopback connects at once).
        guard listen(fd, 1) == 0 else { throw ServerError(tr("no free port on 127.0.0.1: %@", String(cString: strerror(errno)))) }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard client >= 0 else { throw ServerError(tr("no TCP socket: %@", String(cString: strerror(errno)))) }
        defer { close(client) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw loopbackError(errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func loopbackError(_ code: Int32) -> ServerError {
        ServerError(tr("no loopback interface: 127.0.0.1 is unreachable (%@); the managed model server needs it ('lo' is down, e.g. in a network namespace without network)",
                       String(cString: strerror(code))))
    }

    /// Starts the server for `gguf` and waits until it answers `GET /v1/models`.
    /// - Parameters:
    ///   - gguf: the model file.
    ///   - python: the venv's python.
    ///   - contextLength: `--n_ctx`, in tokens.
    ///   - environment: the command's environment, passed to the server (PATH, HOME...).
    ///   - log: where the server's own output goes (a file, created with mode 0600 and
    ///     truncated; `nil` discards it).
    /// - Throws: a message saying why it could not start (missing python or model, no loopback
    ///   interface, no port, exited early, no answer within `startTimeout`); the process is
    ///   stopped then.
    static func start(gguf: String, python: String, contextLength: Int, log: String?,
                      environment given: [String: String]) throws -> ModelServer {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ServerError(tr("%@ is missing: run Scripts/setup --model (it builds the llama-cpp-python server once, 3 to 5 minutes)", python))
        }
        guard FileManager.default.isReadableFile(atPath: gguf) else { throw ServerError(tr("%@: no such model file", gguf)) }
        let port = try freePort()
        var sink = ChildProcess.Stream.null
        if let log {
            // Emptied (or created 0600) here; the child appends to it from both streams.
            do { try PrivateFile.replace(log, with: Data()) } catch {
                throw ServerError(tr("%@: cannot write the server's log (%@)", log, error.reason))
            }
            sink = .file(log)
        }
        var environment = given
        environment["PYTHONUNBUFFERED"] = "1"
        let process: ChildProcess
        do {
            // Through a two-line launcher that asks Linux to send the server SIGTERM when dictee
            // dies (prctl PR_SET_PDEATHSIG): even a SIGKILLed nightly leaves no server behind.
            // ChildProcess starts it in a process group of its own, which `stop()` signals.
            process = try ChildProcess(
                executable: python,
                arguments: ["-c", Self.launcher, "--model", gguf, "--host", "127.0.0.1", "--port", String(port),
                            "--n_ctx", String(contextLength), "--n_threads", "2", "--verbose", "False"],
                environment: environment, standardInput: .null, standardOutput: sink, standardError: sink)
        } catch {
            throw ServerError("\(error)")
        }
        let server = ModelServer(process: process, endpoint: URL(string: "http://127.0.0.1:\(port)/v1")!, contextLength: contextLength)
        let deadline = Date().addingTimeInterval(startTimeout)
        while Date() < deadline {
            if let ended = process.poll() {
                server.stop()
                throw ServerError(tr("the model server exited during start-up (%@)", "\(ended)") + (log.map { tr("; see %@", $0) } ?? ""))
            }
            if server.answers() { return server }
            usleep(250_000)
        }
        server.stop()
        throw ServerError(tr("the model server did not answer within %ld s", Int(startTimeout)))
    }

    /// Whether `GET /v1/models` answers 200.
    func answers() -> Bool {
        (try? HTTPClient.send(endpoint.appendingPathComponent("models"), body: nil, timeout: 2))?.status == 200
    }

    /// Stops the server (SIGTERM to its process group, SIGKILL after 5 s) and reaps it. Safe to
    /// call twice.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process.terminate(grace: 5)
    }

    deinit { stop() }

    struct ServerError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
