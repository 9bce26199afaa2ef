import Foundation
import Testing
@testable import Web

/// Redirect and retry rules of `Fetcher`, with a fake transport (no network).
@Suite struct FetcherTests {
    final class Log: @unchecked Sendable {
        var requests: [HTTPRequest] = []
        var notices: [String] = []
        let lock = NSLock()
        func add(_ r: HTTPRequest) { lock.lock(); requests.append(r); lock.unlock() }
    }

    func fetcher(_ log: Log, answers: @escaping @Sendable (HTTPRequest, Int) -> HTTPResponse) -> Fetcher {
        Fetcher(attempts: 3, backoff: 0.01, notice: { log.notices.append($0) }, transport: { request in
            log.add(request)
            return answers(request, log.requests.count)
        })
    }

    @Test func redirectOnTheSameSiteKeepsTheCredentials() throws {
        let log = Log()
        let f = fetcher(log) { request, _ in
            request.url.host == "caldav.icloud.com"
                ? HTTPResponse(status: 301, headers: ["location": "https://p42-caldav.icloud.com/123/"])
                : HTTPResponse(status: 207)
        }
        var request = HTTPRequest(method: "PROPFIND", url: URL(string: "https://caldav.icloud.com/")!)
        request.credentials = .init(user: "u", password: "p")
        let (response, url) = try f.send(request)
        #expect(response.status == 207)
        #expect(url.absoluteString == "https://p42-caldav.icloud.com/123/")
        #expect(log.requests.last?.credentials?.password == "p")
        #expect(log.requests.last?.method == "PROPFIND")
        #expect(log.notices.isEmpty)
    }

    @Test func redirectToAnotherSiteIsSaidAndDropsTheCredentials() throws {
        let log = Log()
        let f = fetcher(log) { request, _ in
            request.url.host == "cal.example.org"
                ? HTTPResponse(status: 302, headers: ["location": "https://elsewhere.example.net/a.ics"])
                : HTTPResponse(status: 200)
        }
        var request = HTTPRequest(url: URL(string: "https://cal.example.org/a.ics")!)
        request.credentials = .init(user: "u", password: "secret")
        _ = try f.send(request)
        #expect(log.requests.last?.credentials == nil)
        #expect(log.notices.count == 1)
        #expect(!log.notices[0].contains("secret"))
    }

    @Test func plainHTTPIsRefusedOutsideLoopback() {
        let log = Log()
        let f = fetcher(log) { _, _ in HTTPResponse(status: 301, headers: ["location": "http://cal.example.org/a.ics"]) }
        #expect(throws: FetchError.self) { try f.send(HTTPRequest(url: URL(string: "https://cal.example.org/a.ics")!)) }
        #expect(throws: FetchError.self) { try f.send(HTTPRequest(url: URL(string: "http://cal.example.org/a.ics")!)) }
        #expect(log.requests.count == 1)
        #expect(Fetcher.isLoopback("127.0.0.1") && Fetcher.isLoopback("LOCALHOST") && Fetcher.isLoopback("[::1]"))
        #expect(!Fetcher.isLoopback("127.0.0.1.example.org"))
    }

    @Test func wellKnownOnHTTPMayRedirectToHTTPS() throws {
        let log = Log()
        let f = Fetcher(allowsInsecureHTTP: false, attempts: 1, backoff: 0, transport: { request in
            log.add(request)
            return request.url.scheme == "http"
                ? HTTPResponse(status: 301, headers: ["location": "https://127.0.0.1/dav/"])
                : HTTPResponse(status: 207)
        })
        let (_, url) = try f.send(HTTPRequest(url: URL(string: "http://127.0.0.1/.well-known/caldav")!))
        #expect(url.absoluteString == "https://127.0.0.1/dav/")
    }

    @Test func atMostFiveRedirects() {
        let log = Log()
        let f = fetcher(log) { request, n in HTTPResponse(status: 302, headers: ["location": "/hop\(n)"]) }
        #expect(throws: FetchError.self) { try f.send(HTTPRequest(url: URL(string: "https://a.example.org/x")!)) }
        #expect(log.requests.count == 6)
    }

    @Test func serverErrorsAreRetriedThenExit69() {
        let log = Log()
        let f = fetcher(log) { _, _ in HTTPResponse(status: 503) }
        do {
            _ = try f.send(HTTPRequest(url: URL(string: "https://a.example.org/x")!))
            Issue.record("a 503 must fail")
        } catch {
            #expect(error.exitCode == 69)
        }
        #expect(log.requests.count == 3)
        let recovering = Log()
        let g = fetcher(recovering) { _, n in HTTPResponse(status: n < 2 ? 502 : 200) }
        #expect((try? g.send(HTTPRequest(url: URL(string: "https://a.example.org/x")!)))?.response.status == 200)
    }

    @Test func refusedCredentialsExit77WithoutThePassword() {
        let log = Log()
        let f = fetcher(log) { _, _ in HTTPResponse(status: 401) }
        var request = HTTPRequest(url: URL(string: "https://u:pw@a.example.org/x?token=abc")!)
        request.credentials = .init(user: "u", password: "hunter2")
        do {
            _ = try f.send(request)
            Issue.record("a 401 must fail")
        } catch {
            #expect(error.exitCode == 77)
            #expect(!error.description.contains("hunter2") && !error.description.contains("pw@") && !error.description.contains("token"))
        }
        #expect(log.requests.count == 1)
    }
}

/// Where a password may go (`Site`, `Fetcher.credentialScope`), found by an adversarial run:
/// a calendar-home-set on another host, a redirect to another port.
@Suite struct CredentialScopeTests {
    @Test func sitesFollowThePublicSuffixList() {
        func same(_ a: String, _ b: String) -> Bool { Site.same(URL(string: a)!, URL(string: b)!) }
        #expect(same("https://caldav.icloud.com/", "https://p42-caldav.icloud.com/123/"))
        #expect(!same("https://anne.github.io/cal.ics", "https://evil.github.io/x"), "github.io is a public suffix")
        #expect(!same("https://cal.example.co.uk/", "https://evil.co.uk/"), "co.uk is a public suffix")
        #expect(!same("http://127.0.0.1:18001/", "http://127.0.0.1:18002/"), "another port is another site")
        #expect(!same("http://127.0.0.1/", "http://127.0.0.2/"), "an IP address is only itself")
        #expect(!same("https://cal.example.org/", "http://cal.example.org/"), "another scheme")
        #expect(same("https://cal.example.org/", "https://cal.example.org:443/dav/"))
    }

    @Test func theRegistrableDomainIsCopiedWhileTheHostNameLives() {
        // libpsl answers with a pointer into the host name's C string; reading it after that
        // string was freed went unseen until Scripts/test-sanitized (AddressSanitizer).
        #expect(Site.registrableDomain("p42-caldav.calendar-server.example.co.uk") == "example.co.uk")
        #expect(Site.registrableDomain("Caldav.iCloud.com") == "icloud.com")
        #expect(Site.registrableDomain("github.io") == nil, "a public suffix has no registrable domain")
        #expect(Site.registrableDomain("127.0.0.1") == nil)
    }

    @Test func aRedirectToAnotherPortDropsThePassword() throws {
        let log = FetcherTests.Log()
        let f = Fetcher(attempts: 1, backoff: 0, notice: { log.notices.append($0) }, transport: { request in
            log.add(request)
            return request.url.port == 18003
                ? HTTPResponse(status: 307, headers: ["location": "http://127.0.0.1:18002/home/"])
                : HTTPResponse(status: 207)
        })
        var request = HTTPRequest(method: "PROPFIND", url: URL(string: "http://127.0.0.1:18003/")!)
        request.credentials = .init(user: "anne", password: "S3cretPW")
        _ = try f.send(request)
        #expect(log.requests.last?.credentials == nil)
        #expect(log.notices.count == 1 && !log.notices[0].contains("S3cretPW"))
    }

    @Test func anAddressOnAnotherSiteNamedByTheServerGetsNoPassword() throws {
        // The server at 18001 named a calendar-home-set on localhost:18002: the client asks there,
        // but the fetcher of a source scoped to 18001 sends no password.
        let log = FetcherTests.Log()
        var f = Fetcher(attempts: 1, backoff: 0, notice: { log.notices.append($0) }, transport: { request in
            log.add(request)
            return HTTPResponse(status: 207)
        })
        f.credentialScope = URL(string: "http://127.0.0.1:18001/")
        var request = HTTPRequest(method: "PROPFIND", url: URL(string: "http://localhost:18002/home/")!)
        request.credentials = .init(user: "anne", password: "S3cretPW")
        _ = try f.send(request)
        #expect(log.requests.last?.credentials == nil)
        #expect(log.notices.first?.contains("another site") == true)
        var same = request
        same.url = URL(string: "http://127.0.0.1:18001/anne/")!
        _ = try f.send(same)
        #expect(log.requests.last?.credentials?.password == "S3cretPW")
    }

    @Test func aDeadlinePassedStopsTheFetch() {
        var f = Fetcher(attempts: 1, backoff: 0, transport: { _ in HTTPResponse(status: 200) })
        f.deadline = Date(timeIntervalSinceNow: -1)
        do {
            _ = try f.send(HTTPRequest(url: URL(string: "https://cal.example.org/a.ics")!))
            Issue.record("a fetch past its deadline must stop")
        } catch {
            #expect(error.exitCode == 69)
        }
    }
}
