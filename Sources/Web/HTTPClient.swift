internal import CCurl
import Foundation

/// One HTTP request, as `HTTPClient.perform` sends it: exactly these headers and this body,
/// nothing from the state.
public struct HTTPRequest: Sendable {
    /// The method: `GET`, `POST`, `PROPFIND`, `REPORT`.
    public var method: String
    /// Where to send it (http or https; no user information in it).
    public var url: URL
    /// Extra request headers, in order (`Depth: 1`, `If-None-Match: "…"`, `Content-Type: …`).
    public var headers: [(name: String, value: String)]
    /// The body, or `nil` for none.
    public var body: Data?
    /// HTTP Basic or Digest credentials (libcurl picks what the server offers), or `nil`.
    public var credentials: Credentials?
    /// Seconds for the whole request (connecting, sending, receiving).
    public var timeout: Double
    /// A PEM file of certificate authorities to trust instead of the system's (a home server's own
    /// authority), or `nil` for the system's store. Certificates are always verified.
    public var caFile: String?
    /// A proxy URL, only when the configuration names one; `nil` means no proxy whatever the
    /// environment's `http_proxy`/`https_proxy` say.
    public var proxy: String?
    /// The most body bytes accepted (decompressed); a longer answer fails with `.tooLarge`.
    public var maximumBytes: Int
    /// Whether to offer gzip/deflate (`Accept-Encoding`), decoded by libcurl.
    public var acceptCompressed: Bool

    /// A user name and password (kept in memory only; never rendered by `description`).
    public struct Credentials: Sendable, CustomStringConvertible {
        /// The user name.
        public var user: String
        /// The password.
        public var password: String
        /// Creates credentials.
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }
        /// `user` only: the password never reaches a message or a log.
        public var description: String { user }
    }

    /// A request with no extra header, no body, no credentials, the system's authorities, no proxy,
    /// 8 MB at most.
    public init(method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
                credentials: Credentials? = nil, timeout: Double = 60, caFile: String? = nil, proxy: String? = nil,
                maximumBytes: Int = 8 << 20, acceptCompressed: Bool = false) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.credentials = credentials
        self.timeout = timeout
        self.caFile = caFile
        self.proxy = proxy
        self.maximumBytes = maximumBytes
        self.acceptCompressed = acceptCompressed
    }
}

/// The answer to an `HTTPRequest`.
public struct HTTPResponse: Sendable {
    /// The HTTP status (200, 207, 304, 401…).
    public var status: Int
    /// Response headers, names lower-cased; a repeated header keeps its last value.
    public var headers: [String: String]
    /// The body, decoded when it came compressed.
    public var body: Data

    /// Creates a response (tests build them by hand).
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Blocking HTTP requests through libcurl's easy interface (Debian `libcurl4-openssl-dev`).
///
/// Not Foundation's `URLSession`: on Linux its libcurl multi-handle loop keeps a core busy while
/// it waits (measured: 0.8 CPU second per second of a slow answer), and a local model server
/// needs both cores. libcurl's easy interface sleeps in `poll` while it waits.
///
/// Privacy: no proxy unless the request names one (`CURLOPT_NOPROXY "*"`, whatever `http_proxy`
/// says), only http and https, redirects never followed here (`Fetcher` decides, one hop at a
/// time), TLS peers and host names always verified. Ownership: the handle and the header list are
/// created and freed here.
public enum HTTPClient {
    /// What went wrong before an HTTP status came back.
    public enum Failure: Error, Sendable, Equatable {
        /// The request took longer than its `timeout`.
        case timeout
        /// No connection (refused, unreachable, name not resolved, connection cut).
        case cannotConnect(String)
        /// The TLS handshake failed: certificate not trusted, expired, or for another host.
        case certificate(String)
        /// The body is longer than `maximumBytes`.
        case tooLarge(limit: Int)
        /// Anything else libcurl reports.
        case other(String)
    }

    /// libcurl's global initialisation, once per process (not thread-safe, so done eagerly).
    nonisolated(unsafe) private static var initialised: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return true
    }()

    final class Sink: @unchecked Sendable {
        var data = Data()
        var headers: [String: String] = [:]
        let limit: Int
        let cutsAtLimit: Bool
        var overflowed = false
        init(limit: Int, cutsAtLimit: Bool) {
            self.limit = limit
            self.cutsAtLimit = cutsAtLimit
        }
    }

    /// Sends `body` (JSON) to `url` with `method` (`POST`, or `GET` when `body` is nil), to a model
    /// server: JSON headers, no credentials, at most 8 MB kept (a longer answer is cut, not refused).
    /// - Parameters:
    ///   - timeout: seconds for the whole request.
    /// - Returns: the HTTP status and the response body.
    public static func send(_ url: URL, body: Data?, timeout: Double) throws(Failure) -> (status: Int, body: Data) {
        let request = HTTPRequest(
            method: body == nil ? "GET" : "POST", url: url,
            headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
            body: body, timeout: timeout)
        let response = try perform(request, cutAtLimit: true)
        return (response.status, response.body)
    }

    /// Sends `request` once, without following a redirect.
    /// - Throws: `Failure` when no HTTP status came back, or the body is over `maximumBytes`.
    public static func perform(_ request: HTTPRequest) throws(Failure) -> HTTPResponse {
        try perform(request, cutAtLimit: false)
    }

    private static func perform(_ request: HTTPRequest, cutAtLimit: Bool) throws(Failure) -> HTTPResponse {
        _ = initialised
        guard let curl = curl_easy_init() else { throw .other("libcurl could not start") }
        defer { curl_easy_cleanup(curl) }
        var headers: UnsafeMutablePointer<curl_slist>?
        for header in request.headers {
            headers = curl_slist_append(headers, "\(header.name): \(header.value)")
        }
        headers = curl_slist_append(headers, "Expect:")
        defer { curl_slist_free_all(headers) }
        let sink = Sink(limit: request.maximumBytes, cutsAtLimit: cutAtLimit)
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }

        _ = dictee_curl_set_string(curl, CURLOPT_URL, request.url.absoluteString)
        if let proxy = request.proxy {
            _ = dictee_curl_set_string(curl, CURLOPT_PROXY, proxy)
        } else {
            _ = dictee_curl_set_string(curl, CURLOPT_NOPROXY, "*")
            _ = dictee_curl_set_string(curl, CURLOPT_PROXY, "")
        }
        _ = dictee_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = dictee_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        _ = dictee_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = dictee_curl_set_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
        _ = dictee_curl_set_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = request.caFile { _ = dictee_curl_set_string(curl, CURLOPT_CAINFO, caFile) }
        _ = dictee_curl_set_long(curl, CURLOPT_TIMEOUT_MS, max(1, Int(request.timeout * 1000)))
        _ = dictee_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(min(request.timeout, 10) * 1000)))
        if request.acceptCompressed { _ = dictee_curl_set_string(curl, CURLOPT_ACCEPT_ENCODING, "gzip, deflate") }
        if let credentials = request.credentials {
            _ = dictee_curl_set_string(curl, CURLOPT_USERNAME, credentials.user)
            _ = dictee_curl_set_string(curl, CURLOPT_PASSWORD, credentials.password)
            _ = dictee_curl_set_basic_or_digest_auth(curl)
        }
        if request.method != "GET", request.method != "POST" {
            _ = dictee_curl_set_string(curl, CURLOPT_CUSTOMREQUEST, request.method)
        }
        _ = dictee_curl_set_pointer(curl, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
        _ = dictee_curl_set_write_function(curl) { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            let n = size * count
            if sink.data.count + n > sink.limit {
                sink.overflowed = true
                // Over the cap: stop the transfer now (an endless body must not run to the timeout),
                // unless the caller keeps the first bytes of a longer answer.
                if !sink.cutsAtLimit { return 0 }
            }
            if sink.data.count < sink.limit {
                sink.data.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: min(n, sink.limit - sink.data.count))
            }
            return n
        }
        _ = dictee_curl_set_pointer(curl, CURLOPT_WRITEDATA, context.toOpaque())
        _ = dictee_curl_set_header_function(curl) { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            let n = size * count
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: n), as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                sink.headers = [:]  // a new response (after a 100 Continue or an authentication round)
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                sink.headers[name] = value
            }
            return n
        }
        _ = dictee_curl_set_pointer(curl, CURLOPT_HEADERDATA, context.toOpaque())

        let result: CURLcode
        if let body = request.body {
            result = body.withUnsafeBytes { raw -> CURLcode in
                if request.method == "POST" { _ = dictee_curl_set_long(curl, CURLOPT_POST, 1) }
                _ = dictee_curl_set_long(curl, CURLOPT_POSTFIELDSIZE, raw.count)
                _ = dictee_curl_set_pointer(curl, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress))
                return curl_easy_perform(curl)
            }
        } else {
            result = curl_easy_perform(curl)
        }
        if sink.overflowed, !cutAtLimit { throw .tooLarge(limit: request.maximumBytes) }
        switch result {
        case CURLE_OK:
            if sink.overflowed, !cutAtLimit { throw .tooLarge(limit: request.maximumBytes) }
            var code = 0
            _ = dictee_curl_response_code(curl, &code)
            return HTTPResponse(status: code, headers: sink.headers, body: sink.data)
        case CURLE_OPERATION_TIMEDOUT:
            throw .timeout
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_GOT_NOTHING,
             CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            throw .cannotConnect(String(cString: curl_easy_strerror(result)))
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM:
            throw .certificate(String(cString: curl_easy_strerror(result)))
        default:
            throw .other(String(cString: curl_easy_strerror(result)))
        }
    }
}
