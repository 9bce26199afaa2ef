// Real CalDAV servers for the CalDAV client's tests: Radicale and Xandikos (Debian packages), each
// on 127.0.0.1, a free port and a throwaway storage folder. This file launches processes and gives
// URLs; it changes the servers over HTTP through Scripts/test-servers/caldav-admin.py (Python's
// standard library), never through the module under test.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a test CalDAV server could not be used.
public enum CalDAVTestServerError: Error, CustomStringConvertible {
    /// The server program is not installed (with the command that installs it).
    case missing(String)
    /// The server did not answer on its port within 60 s, or exited (with its log's last lines).
    case didNotStart(String)
    /// A helper script failed (with its standard error).
    case helperFailed(String)

    /// One line for the test's output.
    public var description: String {
        switch self {
        case .missing(let s): return "CalDAV test server missing: \(s)"
        case .didNotStart(let s): return "CalDAV test server did not start: \(s)"
        case .helperFailed(let s): return "CalDAV test helper failed: \(s)"
        }
    }
}

/// A Radicale or Xandikos server for one test, with user "parent" and password "secret-pw"
/// (HTTP Basic; a wrong password gets 401 on both).
///
/// `start()` launches it and waits (polling, up to 60 s) until its port answers; `stop()` sends
/// SIGTERM, waits up to 10 s, then SIGKILL, and reaps; `deinit` stops it too. `start()` again uses
/// the same storage and port. The launcher scripts also exit by themselves when the test process
/// goes away, so a crashed run leaves no server behind.
public final class CalDAVTestServer: @unchecked Sendable {
    /// The two servers the client is tested against.
    public enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        /// Radicale 3 (Debian `radicale`): principal and calendar home both `/parent/`.
        case radicale
        /// Xandikos (Debian `xandikos`): principal `/parent/`, calendar home `/parent/calendars/`,
        /// a default calendar `calendar` (and an address book) made at the first start.
        case xandikos
        /// The name.
        public var description: String { rawValue }
    }

    /// The user name the servers accept.
    public static let user = "parent"
    /// The password the servers accept.
    public static let password = "secret-pw"
    /// The Python that has the servers' modules (Debian's, not a pyenv shim).
    public static let python = "/usr/bin/python3"

    /// Which server.
    public let kind: Kind
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The storage folder (and the log file `server.log`, the configuration).
    public let directory: URL
    private var process: Process?
    private let lock = NSLock()

    /// Whether the CalDAV tests are opted out (`DICTEE_TESTS_WITHOUT_CALDAV=1`).
    public static var optedOut: Bool { ProcessInfo.processInfo.environment["DICTEE_TESTS_WITHOUT_CALDAV"] == "1" }

    /// `nil` when `kind` can be launched here, else what is missing and how to install it.
    public static func missing(_ kind: Kind) -> String? {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return "\(python) not found (apt-get install python3)"
        }
        let module = kind == .radicale ? "radicale" : "xandikos.web, aiohttp, dulwich"
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import \(module)"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        do { try check.run() } catch { return "\(python) cannot run" }
        check.waitUntilExit()
        if check.terminationStatus != 0 {
            return "the Python module(s) \(module) are missing (apt-get install \(kind == .radicale ? "radicale" : "xandikos python3-aiohttp"))"
        }
        return nil
    }

    /// The folder with the launcher and helper scripts.
    public static let scripts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/test-servers")

    /// Prepares a server (not started) storing under `directory` (created), on a free port.
    public init(kind: Kind, directory: URL) throws {
        self.kind = kind
        self.directory = directory
        self.port = try Self.freePort()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if kind == .radicale {
            try "\(Self.user):\(Self.password)\n".write(to: directory.appendingPathComponent("users"), atomically: true, encoding: .utf8)
            let config = """
                [server]
                hosts = 127.0.0.1:\(port)
                max_content_length = 300000000
                timeout = 120
                [auth]
                type = htpasswd
                htpasswd_filename = \(directory.appendingPathComponent("users").path)
                htpasswd_encryption = plain
                delay = 0
                [rights]
                type = owner_only
                [storage]
                filesystem_folder = \(directory.appendingPathComponent("collections").path)
                [web]
                type = none
                [logging]
                level = warning

                """
            try config.write(to: directory.appendingPathComponent("radicale.conf"), atomically: true, encoding: .utf8)
        }
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT/`.
    public var rootURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    /// `http://127.0.0.1:PORT` (no slash), for the helper scripts.
    public var base: String { "http://127.0.0.1:\(port)" }
    /// The principal's path (`/parent/`).
    public var principalPath: String { "/\(Self.user)/" }
    /// The calendar home set's path (Radicale `/parent/`, Xandikos `/parent/calendars/`).
    public var homePath: String { kind == .radicale ? "/\(Self.user)/" : "/\(Self.user)/calendars/" }
    /// The URL of `path` on this server.
    public func url(_ path: String) -> URL { URL(string: base + path)! }

    /// Starts the server and waits until its port answers (up to 60 s).
    /// - Throws: `.missing`, or `.didNotStart` with the log's end.
    public func start() throws {
        if let missing = Self.missing(kind) { throw CalDAVTestServerError.missing(missing) }
        stop()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        switch kind {
        case .radicale:
            process.arguments = [Self.scripts.appendingPathComponent("radicale-watched.py").path,
                                 directory.appendingPathComponent("radicale.conf").path]
        case .xandikos:
            process.arguments = [Self.scripts.appendingPathComponent("xandikos-with-auth.py").path,
                                 directory.appendingPathComponent("store").path, String(port), Self.user, Self.password]
        }
        let logURL = directory.appendingPathComponent("server.log")
        if !FileManager.default.fileExists(atPath: logURL.path) { _ = FileManager.default.createFile(atPath: logURL.path, contents: nil) }
        let log = try FileHandle(forWritingTo: logURL)
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        lock.lock(); self.process = process; lock.unlock()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if !process.isRunning {
                let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                stop()
                throw CalDAVTestServerError.didNotStart("\(kind) exited: \(text.suffix(800))")
            }
            if Self.answers(port: port) { return }
            usleep(50_000)
        }
        stop()
        throw CalDAVTestServerError.didNotStart("\(kind) did not answer on port \(port) within 60 s")
    }

    /// Stops the server: SIGTERM, up to 10 s, then SIGKILL; reaps it. Does nothing when stopped.
    public func stop() {
        lock.lock()
        let process = self.process
        self.process = nil
        lock.unlock()
        guard let process, process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    // MARK: - Changing the server (over HTTP, through the helper script)

    /// Creates a calendar at `path` (MKCALENDAR, RFC 4791 5.3.1) with a display name and a
    /// supported component set (`["VTODO"]` for a to-do list).
    public func makeCalendar(_ path: String, displayName: String, components: [String] = ["VEVENT"]) throws {
        try admin(["mkcalendar", path, displayName, components.joined(separator: ",")])
    }

    /// PUTs an event with `uid` and `summary` at `collection` + `uid.ics` (creates or replaces).
    /// - Returns: the event's path.
    @discardableResult
    public func putEvent(in collection: String, uid: String, summary: String) throws -> String {
        let path = collection + uid + ".ics"
        try admin(["put", path, uid, summary])
        return path
    }

    /// PUTs a whole calendar object (`text`: a VCALENDAR with one event, its overrides included)
    /// at `path` (creates or replaces).
    public func putCalendar(_ path: String, _ text: String) throws {
        let file = directory.appendingPathComponent("put-\(UUID().uuidString).ics")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try admin(["put-file", path, file.path])
    }

    /// DELETEs `path`.
    public func delete(_ path: String) throws { try admin(["delete", path]) }

    /// Fills the calendar at `collection` with `count` events (UIDs `bulk-N@dictee.test`, paths
    /// `bulk-N@dictee.test.ics` or Radicale's own names) the fastest way each server takes:
    /// Radicale, one PUT of a whole VCALENDAR on the collection (it replaces the collection's
    /// items; its display name is sent again as X-WR-CALNAME); Xandikos, one Git commit of all
    /// the files into its repository (one PUT each costs a commit each).
    /// - Returns: the seconds it took.
    @discardableResult
    public func fill(_ collection: String, count: Int, displayName: String) throws -> Double {
        let start = Date()
        switch kind {
        case .radicale:
            try admin(["fill-whole", collection, String(count), displayName])
        case .xandikos:
            let folder = directory.appendingPathComponent("store").appendingPathComponent(String(collection.dropFirst()))
            try run([Self.scripts.appendingPathComponent("xandikos-fill.py").path, folder.path, String(count)])
        }
        return Date().timeIntervalSince(start)
    }

    private func admin(_ arguments: [String]) throws {
        try run([Self.scripts.appendingPathComponent("caldav-admin.py").path, base, Self.user, Self.password] + arguments)
    }

    private func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw CalDAVTestServerError.helperFailed("\(arguments.dropFirst(4).first ?? "?"): \(text.suffix(600))")
        }
    }

    // MARK: - Ports

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CalDAVTestServerError.didNotStart("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw CalDAVTestServerError.didNotStart("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func answers(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
