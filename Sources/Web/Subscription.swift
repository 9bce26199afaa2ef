import Foundation

/// A calendar published at a URL ("secret address in iCal format" of Google, a published
/// iCloud/Outlook calendar, any .ics URL).
///
/// One conditional GET per read (RFC 9110 section 13.1: `If-None-Match`, `If-Modified-Since`), so
/// an unchanged calendar costs a 304 and no body.
///
/// - Warning: such an address is a secret (anyone who has it reads the calendar). Errors thrown
///   by `fetch` name only its scheme, host and port (`https://calendar.google.com/…`), never its
///   path or query.
public struct Subscription: Sendable {
    /// The most body bytes read, decompressed: `CalendarReader`'s own cap.
    public static let maximumBytes = 256_000_000
    /// Seconds for one request (connecting, sending, receiving).
    public static let timeout: Double = 60

    /// The address to fetch for what a user pasted.
    ///
    /// `webcal://` and `webcals://` read as https; `https://` as is; `http://` kept (Fetcher decides).
    /// nil when `text` is not such a URL (no host, other scheme, user information in it: a password
    /// never goes in a URL).
    /// - Parameter text: the address as pasted; surrounding white space is ignored.
    /// - Returns: an http or https URL with a host and no user information, or `nil`.
    public static func url(from text: String) -> URL? {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.contains(where: { $0.isWhitespace }), var components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty,
              components.user == nil, components.password == nil
        else { return nil }
        // A stray "@" before the path (an encoded or half-typed user name) is user information too.
        let authority = text.dropFirst(scheme.count + 3).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard text.dropFirst(scheme.count).hasPrefix("://"), !authority.contains("@") else { return nil }
        switch scheme {
        case "webcal", "webcals", "https": components.scheme = "https"
        case "http": components.scheme = "http"
        default: return nil
        }
        return components.url
    }

    /// The validators of the last 200 answer, to send back as If-None-Match / If-Modified-Since.
    public struct Validators: Sendable, Equatable, Codable {
        /// The `ETag` header, verbatim (quotes and `W/` included), or `nil`.
        public var etag: String?
        /// The `Last-Modified` header, verbatim (an HTTP date), or `nil`.
        public var lastModified: String?

        /// Creates validators.
        public init(etag: String? = nil, lastModified: String? = nil) {
            self.etag = etag
            self.lastModified = lastModified
        }

        /// Whether neither validator is known (nothing to send back).
        public var isEmpty: Bool { etag == nil && lastModified == nil }
    }

    /// What a fetch brought.
    public enum Result: Sendable {
        /// 304: the calendar has not changed since the validators were given.
        case notModified
        /// 200: the calendar's bytes (decompressed) and the validators to keep for the next fetch.
        case calendar(bytes: [UInt8], validators: Validators)
    }

    /// Fetches the calendar at `url`.
    ///
    /// GET with conditional headers when `validators` is given (a 304 costs nothing), gzip accepted,
    /// at most 256 MB (the cap of a calendar file: 256_000_000), 60 s timeout. A 200 whose body is not a
    /// calendar (no BEGIN:VCALENDAR after an optional BOM and whitespace: a sign-in HTML page) is
    /// FetchError.unreadable (65); 404/410 → FetchError.refused (69) with Fetcher's hint.
    ///
    /// Redirects follow `fetcher`'s rules (an https address never ends on plain http, not even on
    /// loopback: a downgrade is `.redirect`, and nothing is sent in clear).
    /// The request carries only protocol headers: `Accept`, `Accept-Encoding` and the validators
    /// (libcurl adds `Host`; no `User-Agent`, no cookie, no credentials).
    /// - Parameters:
    ///   - url: an address from `url(from:)` (a `webcal` scheme is read as https).
    ///   - validators: those of the last 200, or `nil` for an unconditional GET.
    ///   - fetcher: redirects, retries, `--ca-file`, proxy.
    /// - Returns: `.notModified` or `.calendar(bytes:validators:)`.
    /// - Throws: `FetchError`: `.unreadable` (65) for a body that is not a calendar or is over the
    ///   cap, `.refused` (69) for 404, 410 and other refusals, and whatever `Fetcher` throws.
    ///   Its URL is `display(url)`, without the path.
    public static func fetch(_ url: URL, validators: Validators?, fetcher: Fetcher) throws(FetchError) -> Result {
        try fetch(url, validators: validators, fetcher: fetcher, maximumBytes: maximumBytes, timeout: timeout)
    }

    /// `fetch` with a smaller cap or timeout (tests).
    static func fetch(_ url: URL, validators: Validators?, fetcher: Fetcher,
                      maximumBytes: Int, timeout: Double) throws(FetchError) -> Result {
        let shown = display(url)
        guard let target = Self.url(from: url.absoluteString) else {
            throw .redirect(url: shown, detail: "not a calendar address (https or webcal, without a user name or password in it)")
        }
        var headers: [(name: String, value: String)] = [("Accept", "text/calendar, */*;q=0.1")]
        if let etag = validators?.etag { headers.append(("If-None-Match", etag)) }
        if let lastModified = validators?.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        let request = HTTPRequest(url: target, headers: headers, timeout: timeout,
                                  maximumBytes: maximumBytes, acceptCompressed: true)

        let response: HTTPResponse
        do {
            response = try fetcher.send(request).response
        } catch {
            throw hidingPath(error, shown: shown)
        }

        switch response.status {
        case 304:
            guard let validators, !validators.isEmpty else {
                throw .unreadable(url: shown, detail: "304 Not Modified to a request without validators")
            }
            return .notModified
        case 200, 203:
            guard isCalendar(response.body) else {
                let kind = response.headers["content-type"].map { $0.lowercased().contains("html") } == true
                    ? "a web page (a sign-in page?), not a calendar" : "not a calendar: no BEGIN:VCALENDAR"
                throw .unreadable(url: shown, detail: kind)
            }
            return .calendar(bytes: [UInt8](response.body),
                             validators: Validators(etag: response.headers["etag"], lastModified: response.headers["last-modified"]))
        case 200..<300:
            throw .unreadable(url: shown, detail: "\(response.status) without a calendar")
        default:
            throw .refused(url: shown, status: response.status)
        }
    }

    /// `url` as errors show it: scheme, host and port, then `/…` when there is a path, because the
    /// path of a published calendar is its secret (Google's `private-…/basic.ics`, iCloud's token).
    public static func display(_ url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme, let host = components.host, !host.isEmpty
        else { return "the calendar address" }
        let port = components.port.map { ":\($0)" } ?? ""
        let hidden = components.path.isEmpty || components.path == "/" ? "" : "/…"
        return "\(scheme.lowercased())://\(host)\(port)\(hidden)"
    }

    /// Whether `body` starts, after an optional UTF-8 byte order mark and white space, with
    /// `BEGIN:VCALENDAR` (RFC 5545 section 3.4; property names are case-insensitive, section 2).
    static func isCalendar(_ body: Data) -> Bool {
        var bytes = body.prefix(4096)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        let expected = Array("BEGIN:VCALENDAR".utf8)
        guard bytes.count >= expected.count else { return false }
        return zip(bytes.prefix(expected.count), expected).allSatisfy { a, b in
            (a >= 0x61 && a <= 0x7A ? a - 0x20 : a) == b
        }
    }

    /// `error` with the subscription's display (no path) instead of Fetcher's.
    private static func hidingPath(_ error: FetchError, shown: String) -> FetchError {
        switch error {
        case .refusedCredentials: return .refusedCredentials(url: shown)
        case .unreachable(_, let detail): return .unreachable(url: shown, detail: detail)
        case .certificate(_, let detail): return .certificate(url: shown, detail: detail)
        case .refused(_, let status): return .refused(url: shown, status: status)
        case .redirect(_, let detail):
            // Fetcher's redirect messages may name the next address; keep only its host.
            return .redirect(url: shown, detail: hidingPaths(in: detail))
        case .unreadable(_, let detail): return .unreadable(url: shown, detail: detail)
        }
    }

    /// `text` with every `scheme://host/path` cut to `scheme://host/…`.
    private static func hidingPaths(in text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard word.contains("://"), let url = URL(string: String(word)) else { return String(word) }
            return display(url)
        }.joined(separator: " ")
    }
}
