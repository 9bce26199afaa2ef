import DicteeCore
import Foundation
import Web

/// One calendar `dictee nightly` reads, as the configuration names it (`Config.sources`).
///
/// In the configuration file a source is a string (a file or folder path, or a subscription URL)
/// or an object for what needs options:
///
/// ```json
/// "sources": [
///   "/home/famille/calendrier.ics",
///   "/home/famille/.calendars/famille/",
///   "https://calendar.google.com/calendar/ical/…/basic.ics",
///   {"url": "https://cal.maison.lan/famille.ics", "ca_file": "/etc/ssl/maison-ca.pem"},
///   {"caldav": "https://cloud.example.org/remote.php/dav/calendars/anne/famille/", "user": "anne",
///    "password_file": "/home/anne/.config/dictee/caldav-password"}
/// ]
/// ```
///
/// The configuration keeps URLs, user names and the path of a password file; never a password
/// (`CalDAVPassword` finds it at run time).
public enum CalendarSource: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// A local path: an exported .ics file, or a vdir folder (one .ics per event, as vdirsyncer and
    /// khal keep them); which one is decided when it is read.
    case path(String)
    /// A calendar published at a URL (RFC 5545 text over https; `webcal://` is stored as https).
    case subscription(Remote)
    /// A CalDAV calendar collection (RFC 4791), read with a user name.
    case caldav(Remote)

    /// The address and options of a remote source.
    public struct Remote: Sendable, Hashable {
        /// The URL (https, or http to loopback / with `insecureHTTP`), without user information.
        public var url: String
        /// The CalDAV user name (`nil` for a subscription).
        public var user: String?
        /// A file holding the CalDAV password (first line), or `nil` for `DICTEE_CALDAV_PASSWORD`, then `~/.netrc`.
        public var passwordFile: String?
        /// A PEM file of certificate authorities for a home server's own certificate.
        public var caFile: String?
        /// Whether plain http is allowed to a host other than loopback (`--insecure-http`).
        public var insecureHTTP: Bool

        /// `url` as a URL.
        /// - Throws: `HouseholdError.fetch(.redirect)` when the configuration holds something that
        ///   is not one (a hand-edited file).
        public func address() throws(HouseholdError) -> URL {
            guard let address = URL(string: url), address.host != nil else {
                throw .fetch(.redirect(url: url, detail: "not a URL"))
            }
            return address
        }

        /// A remote source's address and options.
        public init(url: String, user: String? = nil, passwordFile: String? = nil, caFile: String? = nil, insecureHTTP: Bool = false) {
            self.url = url
            self.user = user
            self.passwordFile = passwordFile
            self.caFile = caFile
            self.insecureHTTP = insecureHTTP
        }
    }

    /// A string of the configuration: a URL (`https://`, `http://`, `webcal://`, `webcals://`) is a
    /// subscription, anything else a path.
    public init(text: String) {
        if let url = Self.subscriptionURL(text) {
            self = .subscription(Remote(url: url.absoluteString))
        } else {
            self = .path(text)
        }
    }

    /// A path or URL literal (tests and examples).
    public init(stringLiteral value: String) { self.init(text: value) }

    /// `text` as a subscription URL when it starts with a web scheme (webcal mapped to https), else `nil`.
    public static func subscriptionURL(_ text: String) -> URL? {
        let lower = text.lowercased()
        guard ["https://", "http://", "webcal://", "webcals://"].contains(where: { lower.hasPrefix($0) }) else { return nil }
        return Subscription.url(from: text)
    }

    /// What identifies the source in the state (the `sources` table): the path, the URL, or for
    /// CalDAV the URL with the user name in it (`https://anne@cloud.example.org/…`, never a
    /// password), so that two accounts reading the same collection keep their own sync state.
    public var identity: String {
        switch self {
        case .path(let path): return path
        case .subscription(let remote): return remote.url
        case .caldav(let remote):
            guard let user = remote.user, var components = URLComponents(string: remote.url) else { return remote.url }
            components.user = user
            return components.string ?? remote.url
        }
    }

    /// The remote options, `nil` for a path.
    public var remote: Remote? {
        switch self {
        case .path: return nil
        case .subscription(let remote), .caldav(let remote): return remote
        }
    }

    /// One line for `source list`: the path, the URL, or "caldav URL (user NAME)".
    public var description: String {
        switch self {
        case .path(let path): return path
        case .subscription(let remote): return remote.url
        case .caldav(let remote): return "caldav \(remote.url) (user \(TerminalText.sanitized(remote.user ?? "?")))"
        }
    }

    /// The host a remote source is read from, for `dictee privacy`.
    public var host: String? {
        remote.flatMap { URL(string: $0.url)?.host }
    }
}

/// Finds a CalDAV password at run time: the source's password file (its first line), else
/// `DICTEE_CALDAV_PASSWORD`, else the `~/.netrc` entry of the server's host (and the user, when
/// the entry names one). The password never goes in argv, the configuration, the state, a log or
/// an error.
public enum CalDAVPassword {
    /// The password for `remote`.
    /// - Throws: `HouseholdError.password` when the password file is named but cannot be read,
    ///   `.noPassword` when none is given anywhere (nothing is sent: an empty password would count
    ///   as a failed login on the server).
    public static func require(for remote: CalendarSource.Remote, environment: [String: String]) throws(HouseholdError) -> String {
        guard let password = try find(for: remote, environment: environment) else {
            throw .noPassword(user: remote.user ?? "", host: URL(string: remote.url)?.host ?? remote.url)
        }
        return password
    }

    /// The password for `remote`, or `nil` when none is given anywhere.
    /// - Throws: `HouseholdError.password` when the password file is named but cannot be read.
    public static func find(for remote: CalendarSource.Remote, environment: [String: String]) throws(HouseholdError) -> String? {
        if let file = remote.passwordFile {
            guard let data = FileManager.default.contents(atPath: file),
                  let text = String(data: data, encoding: .utf8)
            else {
                throw .password(path: file, reason: FileManager.default.fileExists(atPath: file) ? tr("not readable (permissions?)") : tr("no such file"))
            }
            // Split on the scalars: "\r\n" is one Character in Swift (a file saved on Windows).
            let password = text.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" })
                .first.map { String(String.UnicodeScalarView($0)) } ?? ""
            guard !password.isEmpty else { throw .password(path: file, reason: tr("the first line is empty")) }
            return password
        }
        if let password = environment["DICTEE_CALDAV_PASSWORD"], !password.isEmpty { return password }
        guard let home = environment["HOME"], let host = URL(string: remote.url)?.host,
              let data = FileManager.default.contents(atPath: home + "/.netrc")
        else { return nil }
        return netrcPassword(String(decoding: data, as: UTF8.self), host: host, user: remote.user)
    }

    /// The password of the `machine HOST` entry of a .netrc text (or `default`), when its `login`
    /// is `user` or absent (the netrc format of ftp(1) and curl: tokens separated by blanks).
    static func netrcPassword(_ text: String, host: String, user: String?) -> String? {
        // Character.isWhitespace: "\r\n" is one Character in Swift (a file saved on Windows).
        let tokens = text.split(whereSeparator: \.isWhitespace).map(String.init)
        var entries: [(machine: String?, login: String?, password: String?)] = []
        var k = 0
        while k < tokens.count {
            switch tokens[k] {
            case "machine" where k + 1 < tokens.count:
                entries.append((tokens[k + 1].lowercased(), nil, nil)); k += 2
            case "default":
                entries.append((nil, nil, nil)); k += 1
            case "login" where k + 1 < tokens.count && !entries.isEmpty:
                entries[entries.count - 1].login = tokens[k + 1]; k += 2
            case "password" where k + 1 < tokens.count && !entries.isEmpty:
                entries[entries.count - 1].password = tokens[k + 1]; k += 2
            default:
                k += 1
            }
        }
        let host = host.lowercased()
        let fits = { (e: (machine: String?, login: String?, password: String?)) in
            e.password != nil && (user == nil || e.login == nil || e.login == user)
        }
        return (entries.first { $0.machine == host && fits($0) } ?? entries.first { $0.machine == nil && fits($0) })?.password
    }
}
