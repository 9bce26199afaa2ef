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
