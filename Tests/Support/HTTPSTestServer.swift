// A local calendar server for tests: Scripts/test-servers/https_calendar_server.py on 127.0.0.1,
// behind a throwaway certificate authority made with the openssl command line. Foundation and the
// C library only (DicteeTestSupport depends on no module of dictee).
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A calendar server on 127.0.0.1, a free port, in https (its own certificate authority) or plain
/// http, started by the test that needs it and stopped by `stop()` or when the value goes away.
///
/// At start, in a fresh temporary folder: with the `openssl` command line, an authority (P-256,
/// two days) and a server certificate signed by it for `IP:127.0.0.1` and `DNS:localhost`; then
/// the Python server (standard library only), whose paths are listed in its own header
/// (`/cal/NAME`, `/redirect/NAME`, `/chain/N/NAME`, `/to-http/HOST/NAME`, `/flaky/NAME`,
/// `/status/CODE`, `/html`, `/slow/SECONDS/NAME`, `/_stats`). Files put with `put(_:_:)` are
/// served under `/cal/`.
///
/// The server never outlives the test: `stop()` sends SIGTERM, then SIGKILL after 2 s, and reaps
/// the process; and the server exits by itself when its standard input (a pipe this object holds)
/// closes, which happens even when the test process is killed.
public final class HTTPSTestServer: @unchecked Sendable {
    /// Why the server could not start; the message says what to install.
    public struct StartError: Error, CustomStringConvertible {
        /// One line, with the tool's own error output when there is one.
        public var description: String
    }

    /// One request the server got, as it recorded it before answering.
    public struct Request: Sendable {
        /// `GET`, `HEAD`…
        public var method: String
        /// The path with its query, e.g. `/cal/family.ics`.
        public var path: String
        /// The status it answered.
        public var status: Int
        /// The request headers, in the order they came.
        public var headers: [(name: String, value: String)]
        /// Whether the body went gzip-compressed.
        public var gzip: Bool
        /// The value of header `name` (case-insensitive), or `nil`.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// Whether the server speaks https (the default) or plain http.
    public let secure: Bool
    /// The temporary folder that holds everything (removed by `stop()`).
    public let directory: URL
    /// The folder served under `/cal/`.
    public let calendars: URL
    /// The PEM file of the throwaway authority (what `--ca-file` would name); `nil` in plain http.
    public let caFile: String?
    /// The TCP port on 127.0.0.1.
    public private(set) var port: Int = 0

    private var pid: pid_t = 0
    private var stdinWriter: Int32 = -1
    private let lock = NSLock()

    /// Makes the authority and certificate (https), starts the server and waits until it listens
    /// (polling, at most 60 s).
    /// - Parameter secure: https (`true`) or plain http.
    /// - Throws: `StartError` when openssl or python3 is missing or fails, or the server does not
    ///   listen within 60 s.
    public init(secure: Bool = true) throws {
        self.secure = secure
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-https-\(UUID().uuidString)")
        calendars = directory.appendingPathComponent("calendars")
        let state = directory.appendingPathComponent("state")
        for folder in [calendars, state] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        caFile = secure ? directory.appendingPathComponent("ca.pem").path : nil
        do {
            var arguments = [repositoryRoot.appendingPathComponent("Scripts/test-servers/https_calendar_server.py").path,
                             "--root", calendars.path, "--state", state.path]
            if secure {
                try makeCertificates()
                arguments += ["--cert", directory.appendingPathComponent("server.pem").path,
                              "--key", directory.appendingPathComponent("server.key").path]
            }
            guard let python = Self.executable(preferring: "/usr/bin/python3", name: "python3") else {
                throw StartError(description: "python3 not found: install it with Scripts/setup")
            }
            try launch(python, arguments, log: directory.appendingPathComponent("server.log").path)
            try waitForPort(file: state.appendingPathComponent("port").path)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// `scheme://host:port/path`, for a path such as `/cal/family.ics`.
    /// - Parameters:
    ///   - path: starts with `/`.
    ///   - host: `127.0.0.1` or `localhost` (the names the certificate holds).
    ///   - scheme: defaults to the server's own (`https`, or `http` in plain mode).
    public func url(_ path: String, host: String = "127.0.0.1", scheme: String? = nil) -> URL {
        URL(string: "\(scheme ?? (secure ? "https" : "http"))://\(host):\(port)\(path)")!
    }

    /// Writes a calendar file to serve under `/cal/NAME`.
    public func put(_ name: String, _ contents: Data) throws {
        try contents.write(to: calendars.appendingPathComponent(name))
    }

    /// Every request recorded so far (not `/_stats`), oldest first.
    public func requests() throws -> [Request] {
        let file = directory.appendingPathComponent("state/stats.json")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        return (object?["requests"] as? [[String: Any]] ?? []).map { entry in
            Request(method: entry["method"] as? String ?? "", path: entry["path"] as? String ?? "",
                    status: entry["status"] as? Int ?? 0,
                    headers: (entry["headers"] as? [[String]] ?? []).compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil },
                    gzip: entry["gzip"] as? Bool ?? false)
        }
    }

    /// How many requests each path got (not `/_stats`).
    public func counts() throws -> [String: Int] {
        try requests().reduce(into: [:]) { $0[$1.path, default: 0] += 1 }
    }

    /// Stops the server (SIGTERM, SIGKILL after 2 s), reaps it and removes the temporary folder.
    /// Safe to call twice.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        if stdinWriter >= 0 {
            close(stdinWriter)
            stdinWriter = -1
        }
        if pid > 0 {
            kill(pid, SIGTERM)
            if !reap(pid, within: 2) {
                kill(pid, SIGKILL)
                _ = reap(pid, within: 10)
            }
            pid = 0
        }
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Starting

    private func makeCertificates() throws {
        guard let openssl = Self.executable(preferring: "/usr/bin/openssl", name: "openssl") else {
            throw StartError(description: "openssl not found: install it with Scripts/setup (Debian package openssl)")
        }
        let config = """
            [req]
            distinguished_name = dn
            prompt = no
            [dn]
            CN = dictee test authority
            [ca_ext]
            basicConstraints = critical,CA:TRUE
            keyUsage = critical,keyCertSign,cRLSign
            subjectKeyIdentifier = hash
            [server_ext]
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature,keyEncipherment
            extendedKeyUsage = serverAuth
            subjectAltName = IP:127.0.0.1,DNS:localhost
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid

            """
        let d = directory.path
        try Data(config.utf8).write(to: directory.appendingPathComponent("openssl.cnf"))
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for arguments in [
            ["req", "-x509", "-config", "\(d)/openssl.cnf", "-extensions", "ca_ext"] + key
                + ["-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem", "-days", "2"],
            ["req", "-new", "-config", "\(d)/openssl.cnf", "-subj", "/CN=127.0.0.1"] + key
                + ["-keyout", "\(d)/server.key", "-out", "\(d)/server.csr"],
            ["x509", "-req", "-in", "\(d)/server.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key", "-set_serial", "2",
             "-days", "2", "-extfile", "\(d)/openssl.cnf", "-extensions", "server_ext", "-out", "\(d)/server.pem"],
        ] {
            let log = "\(d)/openssl.log"
            let child = try spawn(openssl, arguments, stdin: nil, log: log)
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            if status != 0 {
                let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw StartError(description: "openssl \(arguments[0]) failed: \(output.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
        }
    }

    private func launch(_ python: String, _ arguments: [String], log: String) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw StartError(description: "pipe: errno \(errno)") }
        // Neither end may leak into another child (the server's stdin must close when we close ours).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        do {
            pid = try spawn(python, arguments, stdin: fds[0], log: log)
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[0])
        stdinWriter = fds[1]
    }

    private func waitForPort(file: String) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                let output = (try? String(contentsOfFile: directory.appendingPathComponent("server.log").path, encoding: .utf8)) ?? ""
                throw StartError(description: "the test calendar server exited at start: \(output.suffix(600))")
            }
            if let text = try? String(contentsOfFile: file, encoding: .utf8), let port = Int(text), Self.accepts(port) {
                self.port = port
                return
            }
            usleep(20_000)
        }
        throw StartError(description: "the test calendar server did not listen within 60 s")
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port`.
    private static func accepts(_ port: Int) -> Bool {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Starts `path` with `arguments` (posix_spawn, not `Process`: the pid is ours to signal and
    /// reap), standard input from `stdin` (or /dev/null), output and errors to `log`.
    private func spawn(_ path: String, _ arguments: [String], stdin: Int32?, log: String) throws -> pid_t {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, nil, argv, environ)
        guard result == 0 else { throw StartError(description: "cannot start \(path): errno \(result)") }
        return child
    }

    private func reap(_ pid: pid_t, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        repeat {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno == ECHILD) { return true }
            usleep(10_000)
        } while Date() < deadline
        return false
    }

    private static func executable(preferring preferred: String, name: String) -> String? {
        if FileManager.default.isExecutableFile(atPath: preferred) { return preferred }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
