internal import CCurl
import Foundation

/// One blocking HTTP request through libcurl's easy interface (Debian `libcurl4-openssl-dev`).
///
/// Not Foundation's `URLSession`: on Linux its libcurl multi-handle loop keeps a core busy while
/// it waits (measured: 0.8 CPU second per second of a slow answer), and a local model server
/// needs both cores. libcurl's easy interface sleeps in `poll` while it waits.
///
/// Privacy: no proxy is ever used (`CURLOPT_NOPROXY "*"`, whatever `http_proxy` says), only
/// http and https are allowed, redirects are not followed: a request goes exactly where the
/// configuration says. Ownership: the handle and the header list are created and freed here.
public enum HTTPClient {
    /// What went wrong, for `OpenAICompatibleModel` to map.
    public enum Failure: Error, Sendable {
        case timeout
        case cannotConnect(String)
        case other(String)
    }

    /// libcurl's global initialisation, once per process (not thread-safe, so done eagerly).
    nonisolated(unsafe) private static var initialised: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return true
    }()

    final class Sink: @unchecked Sendable {
        var data = Data()
        /// The most bytes kept: an answer bigger than this is cut (a chat answer is a few KB).
        let limit = 8 << 20
    }

    /// Sends `body` (JSON) to `url` with `method` (`POST`, or `GET` when `body` is nil).
    /// - Parameters:
    ///   - timeout: seconds for the whole request.
    /// - Returns: the HTTP status and the response body.
    public static func send(_ url: URL, body: Data?, timeout: Double) throws(Failure) -> (status: Int, body: Data) {
        _ = initialised
        guard let curl = curl_easy_init() else { throw .other("libcurl could not start") }
        defer { curl_easy_cleanup(curl) }
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = curl_slist_append(headers, "Content-Type: application/json")
        headers = curl_slist_append(headers, "Accept: application/json")
        headers = curl_slist_append(headers, "Expect:")
        defer { curl_slist_free_all(headers) }
        let sink = Sink()
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }

        _ = dictee_curl_set_string(curl, CURLOPT_URL, url.absoluteString)
        _ = dictee_curl_set_string(curl, CURLOPT_NOPROXY, "*")
        _ = dictee_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = dictee_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        _ = dictee_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = dictee_curl_set_long(curl, CURLOPT_TIMEOUT_MS, max(1, Int(timeout * 1000)))
        _ = dictee_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(min(timeout, 10) * 1000)))
        _ = dictee_curl_set_pointer(curl, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
        _ = dictee_curl_set_write_function(curl) { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            let n = size * count
            if sink.data.count < sink.limit {
                sink.data.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: min(n, sink.limit - sink.data.count))
            }
            return n
        }
        _ = dictee_curl_set_pointer(curl, CURLOPT_WRITEDATA, context.toOpaque())

        let result: CURLcode = body.map { body in
            body.withUnsafeBytes { raw -> CURLcode in
                _ = dictee_curl_set_long(curl, CURLOPT_POST, 1)
                _ = dictee_curl_set_long(curl, CURLOPT_POSTFIELDSIZE, raw.count)
                _ = dictee_curl_set_pointer(curl, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress))
                return curl_easy_perform(curl)
            }
        } ?? curl_easy_perform(curl)
        switch result {
        case CURLE_OK:
            var code = 0
            _ = dictee_curl_response_code(curl, &code)
            return (code, sink.data)
        case CURLE_OPERATION_TIMEDOUT:
            throw .timeout
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            throw .cannotConnect(String(cString: curl_easy_strerror(result)))
        default:
            throw .other(String(cString: curl_easy_strerror(result)))
        }
    }
}
