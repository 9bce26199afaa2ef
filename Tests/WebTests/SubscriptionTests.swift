import DicteeTestSupport
import Foundation
import Testing
@testable import Web

/// `Subscription` against a real local server (`HTTPSTestServer`: Python over https with a
/// throwaway certificate authority, or plain http), through libcurl: conditional GET, gzip, the
/// size cap, certificates, redirects, retries, error mapping and the headers sent.
@Suite struct SubscriptionTests {
    static let calendar = Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n".utf8)

    /// A calendar of `events` events, compressible (the same lines again and again).
    static func bigCalendar(events: Int) -> Data {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        for i in 0..<events {
            text += "BEGIN:VEVENT\r\nUID:event-\(i)@test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T080000Z\r\nSUMMARY:Piscine\r\nEND:VEVENT\r\n"
        }
        return Data((text + "END:VCALENDAR\r\n").utf8)
    }

    /// A server with `family.ics` in it.
    static func server(secure: Bool = true, calendar: Data = calendar) throws -> HTTPSTestServer {
        let server = try HTTPSTestServer(secure: secure)
        try server.put("family.ics", calendar)
        return server
    }

    /// dictee's fetcher with the server's authority and a short back-off.
    static func fetcher(_ server: HTTPSTestServer) -> Fetcher {
        Fetcher(caFile: server.caFile, attempts: 3, backoff: 0.05)
    }

    /// The error `body` throws, or `nil` (with an issue recorded) when it does not throw.
    static func failure(_ body: () throws(FetchError) -> Subscription.Result,
                        sourceLocation: SourceLocation = #_sourceLocation) -> FetchError? {
        do {
            _ = try body()
            Issue.record("no error", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    static func bytes(_ result: Subscription.Result) -> [UInt8]? {
        if case .calendar(let bytes, _) = result { return bytes }
        return nil
    }

    // MARK: - Addresses

    @Test("webcal and webcals read as https; https and http kept", arguments: [
        ("webcal://p52-caldav.icloud.com/published/2/ABC", "https://p52-caldav.icloud.com/published/2/ABC"),
        ("WEBCALS://example.org/a.ics", "https://example.org/a.ics"),
        ("  https://calendar.google.com/calendar/ical/x%40group.calendar.google.com/private-0f/basic.ics\n",
         "https://calendar.google.com/calendar/ical/x%40group.calendar.google.com/private-0f/basic.ics"),
        ("http://127.0.0.1:8080/a.ics?x=1", "http://127.0.0.1:8080/a.ics?x=1"),
    ])
    func addresses(text: String, expected: String) {
        #expect(Subscription.url(from: text)?.absoluteString == expected)
    }

    @Test("not a subscription address: no host, another scheme, user information", arguments: [
        "https://user:secret@example.org/a.ics", "webcal://user@example.org/a.ics", "https://:secret@example.org/",
        "https://user%40mail:pw@example.org/", "ftp://example.org/a.ics", "file:///home/a.ics", "webcal:///a.ics",
        "example.org/a.ics", "", "https://exa mple.org/a.ics", "mailto:a@example.org",
    ])
    func refusedAddresses(text: String) {
        #expect(Subscription.url(from: text) == nil)
    }

    @Test func userInformationIsRefusedBeforeAnyRequest() throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = URL(string: "https://user:secret@127.0.0.1:\(server.port)/cal/family.ics")!
        let error = Self.failure { () throws(FetchError) in try Subscription.fetch(url, validators: nil, fetcher: Self.fetcher(server)) }
        #expect(error?.exitCode == 69)
        #expect(error.map { !$0.description.contains("secret") } == true)
        #expect(try server.requests().isEmpty)
    }

    @Test func webcalIsFetchedOverHTTPS() throws {
        let server = try Self.server()
        defer { server.stop() }
        let result = try Subscription.fetch(server.url("/cal/family.ics", scheme: "webcal"), validators: nil, fetcher: Self.fetcher(server))
        #expect(Self.bytes(result) == [UInt8](Self.calendar))
    }

    // MARK: - Conditional GET and compression

    @Test func secondFetchWithTheValidatorsIsA304() throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url("/cal/family.ics")
        guard case .calendar(let bytes, let validators) = try Subscription.fetch(url, validators: nil, fetcher: Self.fetcher(server)) else {
            Issue.record("no calendar")
            return
        }
        #expect(bytes == [UInt8](Self.calendar))
        #expect(validators.etag?.hasPrefix("\"") == true)
        #expect(validators.lastModified?.hasSuffix("GMT") == true)
        // Stored as the caller would store them, then sent back.
        let stored = try JSONDecoder().decode(Subscription.Validators.self, from: JSONEncoder().encode(validators))
        guard case .notModified = try Subscription.fetch(url, validators: stored, fetcher: Self.fetcher(server)) else {
            Issue.record("not a 304")
            return
        }
        // Last-Modified alone is enough too.
        guard case .notModified = try Subscription.fetch(url, validators: .init(lastModified: validators.lastModified),
                                                         fetcher: Self.fetcher(server)) else {
            Issue.record("not a 304 on If-Modified-Since")
            return
        }
        let requests = try server.requests()
        #expect(requests.map(\.status) == [200, 304, 304])
        #expect(try server.counts() == ["/cal/family.ics": 3])
        #expect(requests[0].header("If-None-Match") == nil && requests[0].header("If-Modified-Since") == nil)
        #expect(requests[1].header("If-None-Match") == validators.etag)
        #expect(requests[1].header("If-Modified-Since") == validators.lastModified)
        #expect(requests[2].header("If-None-Match") == nil)
    }

    @Test func aChangedCalendarComesBackWithNewValidators() throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url("/cal/family.ics")
        guard case .calendar(_, let first) = try Subscription.fetch(url, validators: nil, fetcher: Self.fetcher(server)) else {
            Issue.record("no calendar")
            return
        }
        try server.put("family.ics", Self.bigCalendar(events: 1))
        guard case .calendar(let bytes, let second) = try Subscription.fetch(url, validators: first, fetcher: Self.fetcher(server)) else {
            Issue.record("a 304 for a changed calendar")
            return
        }
        #expect(bytes == [UInt8](Self.bigCalendar(events: 1)))
        #expect(second.etag != first.etag)
    }

    @Test func gzipIsAskedForAndDecoded() throws {
        let big = Self.bigCalendar(events: 2000)
        let server = try Self.server(calendar: big)
        defer { server.stop() }
        let result = try Subscription.fetch(server.url("/cal/family.ics"), validators: nil, fetcher: Self.fetcher(server))
        #expect(Self.bytes(result) == [UInt8](big))
        let request = try #require(try server.requests().first)
        #expect(request.gzip)
        #expect(request.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test func overTheSizeCapIsUnreadable() throws {
        let big = Self.bigCalendar(events: 2000)  // about 230 kB, a few kB gzipped
        let server = try Self.server(calendar: big)
        defer { server.stop() }
        // The cap counts decompressed bytes: a small gzip body cannot hide a big calendar.
        let error = Self.failure { () throws(FetchError) in
            try Subscription.fetch(server.url("/cal/family.ics"), validators: nil, fetcher: Self.fetcher(server),
                                   maximumBytes: 100_000, timeout: 60)
        }
        guard case .unreadable = error else {
            Issue.record("not unreadable: \(String(describing: error))")
            return
        }
        #expect(error?.exitCode == 65)
        #expect(try server.requests().first?.gzip == true)
        #expect(Subscription.maximumBytes == 256_000_000)
    }

    // MARK: - Certificates

    @Test func theThrowawayAuthorityIsTrustedOnlyWhenGiven() throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url("/cal/family.ics")
        let error = Self.failure { () throws(FetchError) in
            try Subscription.fetch(url, validators: nil, fetcher: Fetcher(attempts: 3, backoff: 0.05))
        }
        guard case .certificate = error else {
            Issue.record("not a certificate error: \(String(describing: error))")
            return
        }
        #expect(error?.exitCode == 69)
        #expect(error?.hint.contains("--ca-file") == true)
        #expect(try server.requests().isEmpty)  // refused at the handshake, and not retried
        #expect(Self.bytes(try Subscription.fetch(url, validators: nil, fetcher: Self.fetcher(server))) == [UInt8](Self.calendar))
        // The certificate names localhost too.
        let byName = try Subscription.fetch(server.url("/cal/family.ics", host: "localhost"), validators: nil, fetcher: Self.fetcher(server))
        #expect(Self.bytes(byName) == [UInt8](Self.calendar))
    }

    // MARK: - Redirects

    @Test func aRedirectOnTheSameHostIsFollowed() throws {
        let server = try Self.server()
        defer { server.stop() }
        final class Notices: @unchecked Sendable {
            let lock = NSLock()
            var texts: [String] = []
        }
        let notices = Notices()
        var fetcher = Self.fetcher(server)
        fetcher.notice = { text in notices.lock.withLock { notices.texts.append(text) } }
        let result = try Subscription.fetch(server.url("/redirect/family.ics"), validators: nil, fetcher: fetcher)
        #expect(Self.bytes(result) == [UInt8](Self.calendar))
        #expect(try server.counts() == ["/redirect/family.ics": 1, "/cal/family.ics": 1])
        #expect(notices.lock.withLock { notices.texts.isEmpty })
    }

    @Test func fiveRedirectsAreFollowedAndSixRefused() throws {
        let server = try Self.server()
        defer { server.stop() }
        #expect(Self.bytes(try Subscription.fetch(server.url("/chain/5/family.ics"), validators: nil, fetcher: Self.fetcher(server))) != nil)
        let error = Self.failure { () throws(FetchError) in
            try Subscription.fetch(server.url("/chain/6/family.ics"), validators: nil, fetcher: Self.fetcher(server))
        }
        guard case .redirect = error else {
            Issue.record("not a redirect error: \(String(describing: error))")
            return
        }
        #expect(error?.exitCode == 69)
        let counts = try server.counts()
        #expect(counts["/cal/family.ics"] == 1)  // the five-hop chain only
        #expect((1...6).allSatisfy { counts["/chain/\($0)/family.ics"] == ($0 == 6 ? 1 : 2) })
    }

    @Test("https to plain http is refused, on loopback too, and nothing is sent in clear",
          arguments: ["127.0.0.1", "calendar.example.org"])
    func downgradeIsRefused(host: String) throws {
        let server = try Self.server()
        defer { server.stop() }
        let error = Self.failure { () throws(FetchError) in
            try Subscription.fetch(server.url("/to-http/\(host)/family.ics"), validators: nil, fetcher: Self.fetcher(server))
        }
        guard case .redirect(_, let detail) = error else {
            Issue.record("not a redirect error: \(String(describing: error))")
            return
        }
        #expect(detail.contains("plain http"))
        #expect(error?.exitCode == 69)
        #expect(try server.counts() == ["/to-http/\(host)/family.ics": 1])
    }

    @Test func plainHTTPToLoopbackIsAllowed() throws {
        let server = try Self.server(secure: false)
        defer { server.stop() }
        #expect(server.caFile == nil)
        let url = server.url("/cal/family.ics")
        #expect(url.scheme == "http")
        guard case .calendar(let bytes, let validators) = try Subscription.fetch(url, validators: nil, fetcher: Fetcher(attempts: 1, backoff: 0)) else {
            Issue.record("no calendar")
            return
        }
        #expect(bytes == [UInt8](Self.calendar))
        guard case .notModified = try Subscription.fetch(url, validators: validators, fetcher: Fetcher(attempts: 1, backoff: 0)) else {
            Issue.record("not a 304")
            return
        }
    }

    // MARK: - Retries and errors

    @Test func a503ThenA200RecoversThroughTheRetry() throws {
        let server = try Self.server()
        defer { server.stop() }
        let result = try Subscription.fetch(server.url("/flaky/family.ics"), validators: nil, fetcher: Self.fetcher(server))
        #expect(Self.bytes(result) == [UInt8](Self.calendar))
        #expect(try server.requests().map(\.status) == [503, 200])
    }

    @Test func aSignInPageIsUnreadable() throws {
        let server = try Self.server()
        defer { server.stop() }
        let error = Self.failure { () throws(FetchError) in
            try Subscription.fetch(server.url("/html"), validators: nil, fetcher: Self.fetcher(server))
        }
        guard case .unreadable(_, let detail) = error else {
            Issue.record("not unreadable: \(String(describing: error))")
            return
        }
        #expect(detail.contains("web page"))
        #expect(error?.exitCode == 65)
        #expect(try server.counts() == ["/html": 1])  // not retried
    }

    @Test("404 and 410 are refused with the hint to copy the address again", arguments: [404, 410])
    func goneAddress(status: Int) throws {
        let server = try Self.server()
        defer { server.stop() }
        let error = Self.failure { () throws(FetchError) in
            try Subscription.fetch(server.url("/status/\(status)"), validators: nil, fetcher: Self.fetcher(server))
        }
        #expect(error == .refused(url: "https://127.0.0.1:\(server.port)/…", status: status))
        #expect(error?.exitCode == 69)
        #expect(error?.hint.contains("copy it again") == true)
        #expect(try server.counts() == ["/status/\(status)": 1])
    }

    @Test func errorsNeverShowTheSecretPath() throws {
        let server = try Self.server()
        defer { server.stop() }
        let secret = "private-8f3c0d2e9b7a4c1f"
        for path in ["/status/404?token=\(secret)", "/html?\(secret)", "/chain/6/\(secret).ics", "/to-http/127.0.0.1/\(secret).ics"] {
            let error = Self.failure { () throws(FetchError) in
                try Subscription.fetch(server.url(path), validators: nil, fetcher: Self.fetcher(server))
            }
            #expect(error.map { !$0.description.contains(secret) && !$0.url.contains(secret) } == true, "\(path)")
        }
        #expect(Subscription.display(URL(string: "https://calendar.google.com/calendar/ical/x/private-1/basic.ics")!)
                == "https://calendar.google.com/…")
    }

    @Test func aSlowServerTimesOut() throws {
        let server = try Self.server()
        defer { server.stop() }
        let error = Self.failure { () throws(FetchError) in
            try Subscription.fetch(server.url("/slow/5/family.ics"), validators: nil, fetcher: Fetcher(caFile: server.caFile, attempts: 1, backoff: 0),
                                   maximumBytes: Subscription.maximumBytes, timeout: 1)
        }
        guard case .unreachable = error else {
            Issue.record("not unreachable: \(String(describing: error))")
            return
        }
        #expect(error?.exitCode == 69)
    }

    // MARK: - What is sent

    @Test func requestsCarryNothingButTheProtocol() throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url("/redirect/family.ics")
        guard case .calendar(_, let validators) = try Subscription.fetch(url, validators: nil, fetcher: Self.fetcher(server)) else {
            Issue.record("no calendar")
            return
        }
        _ = try Subscription.fetch(url, validators: validators, fetcher: Self.fetcher(server))
        let allowed: Set<String> = ["host", "accept", "accept-encoding", "if-none-match", "if-modified-since"]
        let requests = try server.requests()
        #expect(requests.count == 4)
        for request in requests {
            let names = Set(request.headers.map { $0.name.lowercased() })
            #expect(names.isSubset(of: allowed), "\(request.path): \(names.subtracting(allowed).sorted())")
            #expect(request.header("Host") == "127.0.0.1:\(server.port)")
        }
    }

    // MARK: - What a calendar looks like

    @Test("calendar or not", arguments: [
        ("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", true),
        ("\u{FEFF}BEGIN:VCALENDAR\r\n", true),
        ("\r\n \t\nbegin:vcalendar\n", true),
        ("<!DOCTYPE html><html>", false),
        ("BEGIN:VCARD\r\n", false),
        ("", false),
        ("BEGIN:VCAL", false),
    ])
    func isCalendar(text: String, expected: Bool) {
        #expect(Subscription.isCalendar(Data(text.utf8)) == expected)
    }
}
