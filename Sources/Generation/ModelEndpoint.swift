import DicteeCore
import Foundation

/// Where model requests may go: a server on this machine, or a remote one paired with the egress
/// log that records every request body before it leaves. The only way to build an
/// `OpenAICompatibleModel`, so a client for a remote host without an egress log cannot exist.
///
/// - `loopback(_:)` accepts only an http(s) URL whose host is this machine (`isLoopback`).
/// - `remote(_:egressLog:)` accepts any http(s) URL, and requires the log.
public struct ModelEndpoint: Sendable, Hashable {
    /// The base URL ending in `/v1`, e.g. `http://127.0.0.1:8080/v1`.
    public let url: URL
    /// The log every request body is appended to before it is sent; `nil` exactly for a loopback
    /// endpoint.
    public let egressLog: EgressLog?

    private init(url: URL, egressLog: EgressLog?) {
        self.url = url
        self.egressLog = egressLog
    }

    /// A server on this machine; `nil` when `text` is not an http(s) URL whose host is loopback.
    public static func loopback(_ text: String) -> ModelEndpoint? {
        guard isLoopback(text), let url = URL(string: text) else { return nil }
        return ModelEndpoint(url: url, egressLog: nil)
    }

    /// A server elsewhere, each request logged first in `egressLog`; `nil` when `text` is not an
    /// http(s) URL with a host.
    public static func remote(_ text: String, egressLog: EgressLog) -> ModelEndpoint? {
        guard isHTTPURL(text), let url = URL(string: text) else { return nil }
        return ModelEndpoint(url: url, egressLog: egressLog)
    }

    /// Whether `endpoint` is an http(s) URL whose host is this machine: `localhost`, a dotted
    /// IPv4 address in 127.0.0.0/8 (RFC 1122 section 3.2.1.3), or `[::1]` (RFC 4291 section 2.5.3).
    ///
    /// Strict on purpose: a URL with a user or password (`http://127.0.0.1@evil.com/` goes to
    /// evil.com), a backslash or white space, a percent-encoded host, a host that merely starts
    /// like a loopback one (`127.0.0.1.example.com`, `localhost.evil.com`, `localhost.`), the
    /// numeric forms some resolvers accept (`2130706433`, `0x7f000001`, `127.1`, octets with a
    /// leading zero, which some read as octal), `0.0.0.0`, and any other spelling of an IPv6
    /// address are all refused.
    public static func isLoopback(_ endpoint: String) -> Bool {
        guard !endpoint.unicodeScalars.contains(where: {
            $0 == "\\" || CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0)
        }),
            let components = URLComponents(string: endpoint),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            components.percentEncodedUser == nil, components.percentEncodedPassword == nil,
            let host = components.percentEncodedHost?.lowercased(), !host.isEmpty
        else { return false }
        if host == "localhost" || host == "[::1]" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        for octet in octets {
            guard (1...3).contains(octet.count), octet.allSatisfy({ $0.isASCII && $0.isNumber }),
                  octet == "0" || !octet.hasPrefix("0"), let value = Int(octet), value <= 255
            else { return false }
        }
        return octets[0] == "127"
    }

    /// Whether `text` is an http(s) URL with a non-empty host, and no white space, control
    /// character or backslash anywhere (what is printed is then what is reached).
    public static func isHTTPURL(_ text: String) -> Bool {
        guard !text.unicodeScalars.contains(where: {
            $0 == "\\" || CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0)
        }), let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return false }
        return true
    }
}

/// The egress log of a remote endpoint: every request body is appended to it (JSON Lines: a header
/// line `{"sent_at": ISO-8601 from the injected clock, "to": URL}`, then the body, then a line
/// feed), created with mode 0600 and `fsync`ed, before the request is sent. A body that cannot be
/// logged is not sent.
public struct EgressLog: Sendable, Hashable {
    /// The log file.
    public let path: String
    private let clock: any Clock

    /// - Parameters:
    ///   - path: the log file (created 0600 when missing; its folder must exist).
    ///   - clock: stamps each entry.
    public init(path: String, clock: any Clock) {
        self.path = path
        self.clock = clock
    }

    /// Why the log cannot be appended to, or `nil` when it can (checked before anything is sent).
    public var problem: String? { PrivateFile.appendProblem(path) }

    /// Appends one request body, sent to `endpoint` (the full URL the request goes to).
    /// - Throws: `FileWriteError` naming the log; the request must not be sent then.
    public func record(_ body: Data, to endpoint: URL) throws(FileWriteError) {
        let formatter = ISO8601DateFormatter()
        let header = "{\"sent_at\":" + JSONText.quoted(formatter.string(from: clock.now))
            + ",\"to\":" + JSONText.quoted(endpoint.absoluteString) + "}\n"
        try PrivateFile.append(path, Data(header.utf8) + body + Data("\n".utf8))
    }

    public static func == (a: EgressLog, b: EgressLog) -> Bool { a.path == b.path }
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }
}
