import Foundation

/// Why a calendar could not be fetched, with the exit status the command line gives it
/// (`sysexits.h`: 77 refused credentials, 69 unreachable, 65 unreadable answer).
///
/// Messages name the URL without user information and never a password.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 401 or 403 to a request with credentials, or 401 without (exit 77).
    case refusedCredentials(url: String)
    /// No connection, a timeout, or a 5xx / 429 after the retries (exit 69).
    case unreachable(url: String, detail: String)
    /// The TLS certificate is not trusted (exit 69; `--ca-file` for a home server's authority).
    case certificate(url: String, detail: String)
    /// A status that means there is nothing to read here: 404, 410, 405… (exit 69).
    case refused(url: String, status: Int)
    /// A redirect dictee does not follow (to plain http, more than five hops, no Location) (exit 69).
    case redirect(url: String, detail: String)
    /// The answer cannot be read: not a calendar, broken XML, over the size cap (exit 65).
    case unreadable(url: String, detail: String)

    /// The exit status (`sysexits.h`).
    public var exitCode: Int32 {
        switch self {
        case .refusedCredentials: return 77
        case .unreachable, .certificate, .refused, .redirect: return 69
        case .unreadable: return 65
        }
    }

    /// The URL the error is about (no user information).
    public var url: String {
        switch self {
        case .refusedCredentials(let url), .unreachable(let url, _), .certificate(let url, _),
             .refused(let url, _), .redirect(let url, _), .unreadable(let url, _):
            return url
        }
    }

    /// One line, e.g. "https://cal.example.org/dav/: the server refused the user name or password".
    public var description: String {
        switch self {
        case .refusedCredentials(let url): return "\(url): the server refused access (the user name or password, or an address that is not this user's)"
        case .unreachable(let url, let detail): return "\(url): server unreachable (\(detail))"
        case .certificate(let url, let detail): return "\(url): certificate not trusted (\(detail))"
        case .refused(let url, let status):
            let reason = Fetcher.reason(status)
            return "\(url): the server answered \(status)" + (reason.isEmpty ? "" : " " + reason)
        case .redirect(let url, let detail): return "\(url): \(detail)"
        case .unreadable(let url, let detail): return "\(url): unreadable answer (\(detail))"
        }
    }

    /// What the user can do about it.
    public var hint: String {
        switch self {
        case .refusedCredentials:
            return "check the user name, and the password in the file, DICTEE_CALDAV_PASSWORD or ~/.netrc (many services want an app password)"
        case .unreachable: return "check the network and the address; the next run tries again"
        case .certificate: return "for a home server with its own certificate authority, give it with --ca-file"
        case .refused(_, let status) where status == 404 || status == 410:
            return "nothing at this address: copy it again from the calendar's sharing settings (for CalDAV, 'dictee caldav discover' lists the calendars)"
        case .refused: return "check the address"
        case .redirect: return "give the final https address"
        case .unreadable: return "check that the address is the calendar's own (.ics or CalDAV), not a web page"
        }
    }
}

/// Sends requests for calendar sources: follows redirects one hop at a time by dictee's rules,
/// retries what may pass a moment later, and maps failures to `FetchError`.
///
/// Redirects (at most `maximumRedirects`): to https on the same site as `credentialScope` (same
/// port, and the same host or registrable domain by the Public Suffix List, `Site.same`:
/// caldav.icloud.com → p42-caldav.icloud.com) silently, with the credentials; to https on another
/// site after saying so through `notice`, without the credentials; to plain http only for a loopback host or when `allowsInsecureHTTP`, and never
/// from https (a downgrade, even to loopback). A 303 turns
/// the request into a GET; other redirects keep the method and body (WebDAV's PROPFIND, REPORT).
///
/// Retries: a connection that fails, or a 429, 500, 502, 503 or 504, is tried `attempts` times in
/// all, waiting `backoff`, then twice that (a `Retry-After` of at most 30 s is honoured).
public struct Fetcher: Sendable {
    /// Sends one request (libcurl by default; tests give a fake).
    public typealias Transport = @Sendable (HTTPRequest) throws(HTTPClient.Failure) -> HTTPResponse

    /// A PEM file of certificate authorities to trust instead of the system's.
    public var caFile: String?
    /// A proxy, only when the configuration names one.
    public var proxy: String?
    /// Whether plain http to a host other than loopback is allowed (`--insecure-http`).
    public var allowsInsecureHTTP: Bool
    /// Tries per request in all (1 = no retry).
    public var attempts: Int
    /// Seconds before the first retry; doubled for each next one.
    public var backoff: Double
    /// Redirect hops followed at most.
    public var maximumRedirects = 5
    /// Where a redirect to another site is said (stderr, in the command line).
    public var notice: @Sendable (String) -> Void
    /// The address the user configured: credentials are sent only to its site (`Site.same`), whether
    /// a request goes elsewhere through a redirect or because a server named another address (a
    /// CalDAV calendar-home-set on another host). `nil`: the first address of each `send`.
    public var credentialScope: URL?
    /// When the whole fetch of a source must be over; a request after it fails as unreachable (a
    /// server answering slowly forever must not hold the nightly run for hours). `nil`: no limit.
    public var deadline: Date?
    /// How a request is sent.
    public var transport: Transport

    /// A fetcher with dictee's defaults: 3 tries, 2 s back-off, libcurl.
    public init(caFile: String? = nil, proxy: String? = nil, allowsInsecureHTTP: Bool = false, attempts: Int = 3,
                backoff: Double = 2, notice: @escaping @Sendable (String) -> Void = { _ in },
                transport: @escaping Transport = { request throws(HTTPClient.Failure) in try HTTPClient.perform(request) }) {
        self.caFile = caFile
        self.proxy = proxy
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.attempts = attempts
        self.backoff = backoff
        self.notice = notice
        self.transport = transport
    }

    /// Sends `request`, following redirects and retrying as described above.
    /// - Returns: the final response, whatever its status (the caller decides what 304, 207 or 404
    ///   mean), except 401 and 403, which throw `.refusedCredentials`.
    /// - Throws: `FetchError`.
    public func send(_ request: HTTPRequest) throws(FetchError) -> (response: HTTPResponse, url: URL) {
        var request = request
        request.caFile = request.caFile ?? caFile
        request.proxy = request.proxy ?? proxy
        let origin = request.url
        let scope = credentialScope ?? origin
        try checkScheme(request.url, shownAs: Self.display(origin))
        if request.credentials != nil, !Site.same(request.url, scope) {
            // Hosts only: the path of a published calendar is its secret.
            notice("\(scope.host ?? "?") points to \(request.url.host ?? "?")\(request.url.port.map { ":\($0)" } ?? "") (another site; no password sent there)")
            request.credentials = nil
        }
        for _ in 0...maximumRedirects {
            if let deadline, Date() > deadline {
                throw .unreachable(url: Self.display(request.url), detail: "the fetch of this source took too long; the next run tries again")
            }
            let response = try sendRetrying(request)
            switch response.status {
            case 301, 302, 303, 307, 308:
                guard let location = response.headers["location"],
                      let next = URL(string: location, relativeTo: request.url)?.absoluteURL
                else {
                    throw .redirect(url: Self.display(request.url), detail: "a redirect without a Location")
                }
                if request.url.scheme?.lowercased() == "https", next.scheme?.lowercased() != "https" {
                    throw .redirect(url: Self.display(request.url),
                                    detail: "a redirect from https to plain http is refused (the calendar would travel in clear)")
                }
                try checkScheme(next, shownAs: Self.display(request.url))
                if !Site.same(next, scope) {
                    // Hosts only: the path of a published calendar is its secret.
                    notice("\(request.url.host ?? "?") redirects to \(next.host ?? "?")\(next.port.map { ":\($0)" } ?? "") (another site; no password sent there)")
                    request.credentials = nil
                }
                if response.status == 303 {
                    request.method = "GET"
                    request.body = nil
                }
                request.url = next
            case 401:
                throw .refusedCredentials(url: Self.display(request.url))
            case 403 where request.credentials != nil:
                throw .refusedCredentials(url: Self.display(request.url))
            default:
                return (response, request.url)
            }
        }
        throw .redirect(url: Self.display(origin), detail: "more than \(maximumRedirects) redirects")
    }

    private func checkScheme(_ url: URL, shownAs shown: String) throws(FetchError) {
        switch url.scheme?.lowercased() {
        case "https": return
        case "http":
            if allowsInsecureHTTP || Self.isLoopback(url.host ?? "") { return }
            throw .redirect(url: shown, detail: "plain http to \(url.host ?? "?") is refused (the password and the calendar would travel in clear); use https, or --insecure-http")
        default:
            throw .redirect(url: shown, detail: "only https addresses are read")
        }
    }

    private func sendRetrying(_ request: HTTPRequest) throws(FetchError) -> HTTPResponse {
        var wait = backoff
        var last: FetchError = .unreachable(url: Self.display(request.url), detail: "no attempt")
        for attempt in 1...max(1, attempts) {
            if attempt > 1 {
                Thread.sleep(forTimeInterval: wait)
                wait *= 2
            }
            let response: HTTPResponse
            do {
                response = try transport(request)
            } catch {
                let shown = Self.display(request.url)
                switch error {
                case .timeout: throw .unreachable(url: shown, detail: "no answer within \(Int(request.timeout)) s")
                case .cannotConnect(let detail):
                    last = .unreachable(url: shown, detail: detail.lowercased())
                    continue
                case .certificate(let detail): throw .certificate(url: shown, detail: detail)
                case .tooLarge(let limit):
                    throw .unreadable(url: shown, detail: "more than \(limit / 1_000_000) MB")
                case .other(let detail): throw .unreachable(url: shown, detail: detail.lowercased())
                }
            }
            if [429, 500, 502, 503, 504].contains(response.status) {
                last = .unreachable(url: Self.display(request.url), detail: "\(response.status) \(Self.reason(response.status))")
                if let after = response.headers["retry-after"].flatMap(Double.init), after <= 30 { wait = max(wait, after) }
                continue
            }
            return response
        }
        throw last
    }

    // MARK: - Addresses

    /// `url` as messages show it: scheme, host, port and path, without user information or query.
    public static func display(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "the address" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "the address"
    }

    /// Whether `host` is a loopback address (`localhost`, 127.0.0.0/8, `::1`), compared
    /// case-insensitively.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return ""
        }
    }
}
