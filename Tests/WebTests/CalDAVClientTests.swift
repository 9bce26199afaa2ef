import DicteeTestSupport
import Foundation
import Testing
@testable import Web

/// `CalDAVClient` against real servers (Radicale and Xandikos, started by each test on
/// loopback), and its multistatus reader on canned bodies.
@Suite struct CalDAVClientTests {
    static let kinds = CalDAVTestServer.Kind.allCases
    static let password = CalDAVTestServer.password

    /// A started server in a fresh folder, or `nil` (said loudly) when the tests are opted out.
    /// A missing server fails the test.
    static func server(_ kind: CalDAVTestServer.Kind, _ name: String = #function) throws -> CalDAVTestServer? {
        if CalDAVTestServer.optedOut {
            print("⚠️  SKIPPED \(name) on \(kind): DICTEE_TESTS_WITHOUT_CALDAV=1 (CalDAV tests not run)")
            return nil
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("dictee-caldav-\(kind)-\(UUID().uuidString.prefix(8))")
        let server = try CalDAVTestServer(kind: kind, directory: folder)
        try server.start()
        return server
    }

    static func client(password: String = password, attempts: Int = 2) -> CalDAVClient {
        CalDAVClient(fetcher: Fetcher(attempts: attempts, backoff: 0.2),
                     credentials: .init(user: CalDAVTestServer.user, password: password))
    }

    static func cleanUp(_ server: CalDAVTestServer) {
        server.stop()
        try? FileManager.default.removeItem(at: server.directory)
    }

    // MARK: - Discovery

    @Test(arguments: kinds) func discoveryFromEveryStartingPoint(kind: CalDAVTestServer.Kind) throws {
        guard let server = try Self.server(kind) else { return }
        defer { Self.cleanUp(server) }
        let home = server.homePath
        try server.makeCalendar(home + "family/", displayName: "Famille", components: ["VEVENT"])
        try server.makeCalendar(home + "todo/", displayName: "Tâches", components: ["VTODO"])
        // Xandikos 0.2.8 ignores the set given to MKCALENDAR and always reports these four.
        let todo = kind == .radicale ? ["VTODO"] : ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY"]
        let client = Self.client()
        let starts = [server.rootURL, server.url("/.well-known/caldav"), server.url(server.principalPath), server.url(home)]
        for start in starts {
            let calendars = try client.discover(start)
            let byPath = Dictionary(calendars.map { (DAVHref.path(of: $0.url), $0) }, uniquingKeysWith: { a, _ in a })
            #expect(byPath[home + "family/"]?.displayName == "Famille", "from \(start)")
            #expect(byPath[home + "family/"]?.components == (kind == .radicale ? ["VEVENT"] : todo), "from \(start)")
            #expect(byPath[home + "todo/"]?.displayName == "Tâches", "from \(start)")
            #expect(byPath[home + "todo/"]?.components == todo, "from \(start)")
            #expect(byPath[home + "family/"]?.supportsSync == true, "from \(start)")
            #expect(byPath[home + "family/"]?.syncToken != nil, "from \(start)")
            #expect(calendars.count == (kind == .radicale ? 2 : 3), "from \(start): \(calendars.map(\.url))")
        }
        let alone = try client.discover(server.url(home + "todo/"))
        #expect(alone.count == 1)
        #expect(alone.first.map { DAVHref.path(of: $0.url) } == home + "todo/")
        #expect(alone.first?.components == todo)
    }

    // MARK: - Sync

    @Test(arguments: kinds) func firstSyncThenExactlyTheChangesThenAStoppedServer(kind: CalDAVTestServer.Kind) throws {
        guard let server = try Self.server(kind) else { return }
        defer { Self.cleanUp(server) }
        let path = server.homePath + "family/"
        try server.makeCalendar(path, displayName: "Famille")
        let kept = try server.putEvent(in: path, uid: "kept", summary: "Piscine")
        let modified = try server.putEvent(in: path, uid: "modified", summary: "Judo")
        let removed = try server.putEvent(in: path, uid: "removed", summary: "Dentiste")
        let collection = server.url(path)
        let client = Self.client()

        let first = try client.changes(in: collection, syncToken: nil, known: [:])
        #expect(first.isFullListing)
        #expect(Set(first.changed.keys) == [kept, modified, removed])
        #expect(first.deleted.isEmpty)
        #expect(first.syncToken != nil)
        #expect(first.changed.values.allSatisfy { !$0.isEmpty })

        let objects = try client.fetch(Array(first.changed.keys), in: collection)
        #expect(objects.count == 3)
        for object in objects {
            #expect(object.etag == first.changed[object.href])
            #expect(String(decoding: object.data, as: UTF8.self).contains("BEGIN:VCALENDAR"))
        }
        #expect(objects.contains { String(decoding: $0.data, as: UTF8.self).contains("SUMMARY:Judo") })

        // The server goes away in the middle: 69, then it comes back on the same storage and port.
        server.stop()
        #expect(throws: FetchError.self) { try Self.client(attempts: 1).changes(in: collection, syncToken: first.syncToken, known: first.changed) }
        do {
            _ = try Self.client(attempts: 1).changes(in: collection, syncToken: first.syncToken, known: first.changed)
        } catch {
            #expect(error.exitCode == 69)
        }
        try server.start()

        let added = try server.putEvent(in: path, uid: "added", summary: "Anniversaire")
        try server.putEvent(in: path, uid: "modified", summary: "Judo à 15 h")
        try server.delete(removed)
        let next = try client.changes(in: collection, syncToken: first.syncToken, known: first.changed)
        #expect(!next.isFullListing)
        #expect(Set(next.changed.keys) == [added, modified])
        #expect(next.changed[modified] != first.changed[modified])
        #expect(next.deleted == [removed])
        #expect(next.syncToken != nil && next.syncToken != first.syncToken)

        let again = try client.changes(in: collection, syncToken: next.syncToken, known: [:])
        #expect(again.changed.isEmpty && again.deleted.isEmpty)

        let refetched = try client.fetch([added, removed], in: collection)
        #expect(refetched.first { $0.href == added }?.etag == next.changed[added])
        #expect(refetched.first { $0.href == removed }.map(\.isDeleted) ?? true)
    }

    @Test(arguments: kinds) func aRefusedTokenFallsBackToAFullListing(kind: CalDAVTestServer.Kind) throws {
        guard let server = try Self.server(kind) else { return }
        defer { Self.cleanUp(server) }
        let path = server.homePath + "family/"
        try server.makeCalendar(path, displayName: "Famille")
        let one = try server.putEvent(in: path, uid: "one", summary: "Piscine")
        let two = try server.putEvent(in: path, uid: "two", summary: "Judo")
        let collection = server.url(path)
        let client = Self.client()
        let first = try client.changes(in: collection, syncToken: nil, known: [:])
        let gone = path + "gone%20away.ics"
        var known = first.changed
        known[gone] = "\"old\""
        let bogus = kind == .radicale ? "http://radicale.org/ns/sync/0000" : "deadbeef"
        let fallback = try client.changes(in: collection, syncToken: bogus, known: known)
        #expect(fallback.isFullListing)
        #expect(fallback.changed.isEmpty)
        #expect(fallback.deleted == [DAVHref.normalise(gone, base: collection)])
        #expect(fallback.syncToken != nil)
        _ = (one, two)
    }

    @Test(arguments: kinds) func aWrongPasswordIs77WithoutThePassword(kind: CalDAVTestServer.Kind) throws {
        guard let server = try Self.server(kind) else { return }
        defer { Self.cleanUp(server) }
        let wrong = "not-the-password-42"
        for action in [
            { try Self.client(password: wrong).discover(server.rootURL) as Any },
            { try Self.client(password: wrong).changes(in: server.url(server.homePath), syncToken: "x", known: [:]) as Any },
        ] {
            do {
                _ = try action()
                Issue.record("a wrong password was accepted")
            } catch let error as FetchError {
                #expect(error.exitCode == 77)
                #expect(!error.description.contains(wrong) && !error.description.contains(Self.password))
            }
        }
    }

    // The 5,000-event collection (first and incremental sync, timed) is exercised through the
    // ingest itself: Tests/HouseholdTests/CalDAVSourceTests.swift.

    // MARK: - Multistatus bodies (canned, from real servers' habits)

    @Test func defaultNamespaceWithoutPrefixAndPercentEncodedHrefs() throws {
        // Radicale: DAV: as the default namespace, "@" written %40.
        let body = """
            <?xml version='1.0' encoding='utf-8'?>
            <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response><href>/parent/family/</href>\
            <propstat><prop><resourcetype><collection /><C:calendar /></resourcetype><displayname>Famille</displayname>\
            <C:supported-calendar-component-set><C:comp name="VTODO" /></C:supported-calendar-component-set></prop>\
            <status>HTTP/1.1 200 OK</status></propstat><propstat><prop><sync-token /></prop>\
            <status>HTTP/1.1 404 Not Found</status></propstat></response>\
            <response><href>/parent/family/a%40b.ics</href><propstat><prop><getetag>"e1"</getetag></prop>\
            <status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
            """
        let multistatus = try #require(Multistatus.parse(Data(body.utf8)))
        #expect(multistatus.responses.count == 2)
        #expect(multistatus.responses[0].isCalendar && multistatus.responses[0].isCollection)
        #expect(multistatus.responses[0].property(DAVNamespace.dav, "sync-token") == nil)
        #expect(multistatus.responses[0].missing.contains("DAV: sync-token"))
        #expect(multistatus.responses[1].etag == "\"e1\"")
        let base = URL(string: "http://127.0.0.1:5232/parent/family/")!
        #expect(DAVHref.normalise("/parent/family/a%40b.ics", base: base) == DAVHref.normalise("/parent/family/a@b.ics", base: base))
        #expect(DAVHref.normalise("/parent/family/a%20b.ics", base: base) == "/parent/family/a%20b.ics")
        #expect(DAVHref.normalise("/parent/family/%7Ex.ics", base: base) == "/parent/family/~x.ics")
    }

    @Test func prefixedNamespacesAndAbsoluteHrefs() throws {
        // Xandikos: ns0/ns3 prefixes; some servers (SOGo, iCloud) write absolute URLs.
        let body = """
            <ns0:multistatus xmlns:ns0="DAV:" xmlns:ns3="urn:ietf:params:xml:ns:caldav"><ns0:response>\
            <ns0:href>https://cal.example.org/dav/parent/calendars/family/x%20y.ics</ns0:href><ns0:propstat>\
            <ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:getetag>"abc"</ns0:getetag>\
            <ns3:calendar-data>BEGIN:VCALENDAR&#13;\nEND:VCALENDAR&#13;\n</ns3:calendar-data></ns0:prop></ns0:propstat></ns0:response>\
            <ns0:response><ns0:href>/dav/parent/calendars/family/gone.ics</ns0:href><ns0:status>HTTP/1.1 404 Not Found</ns0:status></ns0:response>\
            <ns0:sync-token>http://example.org/sync/7</ns0:sync-token></ns0:multistatus>
            """
        let multistatus = try #require(Multistatus.parse(Data(body.utf8)))
        let base = URL(string: "https://cal.example.org/dav/parent/calendars/family/")!
        #expect(DAVHref.normalise(multistatus.responses[0].href, base: base) == "/dav/parent/calendars/family/x%20y.ics")
        #expect(multistatus.responses[0].property(DAVNamespace.caldav, "calendar-data")?.text == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        #expect(multistatus.responses[1].status == 404)
        #expect(multistatus.syncToken == "http://example.org/sync/7")
    }

    @Test func brokenXMLIsUnreadable() throws {
        #expect(Multistatus.parse(Data("<d:multistatus xmlns:d=\"DAV:\"><d:response>".utf8)) == nil)
        #expect(Multistatus.parse(Data("<html><body>Login</body></html>".utf8)) == nil)
        let fetcher = Fetcher(attempts: 1, backoff: 0, transport: { _ in
            HTTPResponse(status: 207, body: Data("<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a".utf8))
        })
        let client = CalDAVClient(fetcher: fetcher, credentials: nil)
        do {
            _ = try client.changes(in: URL(string: "https://cal.example.org/c/")!, syncToken: nil, known: [:])
            Issue.record("broken XML was read")
        } catch {
            #expect(error.exitCode == 65)
        }
    }

    @Test func multigetRefusedFallsBackToGETAndBatchesOfAHundred() throws {
        final class Log: @unchecked Sendable {
            var requests: [HTTPRequest] = []
            let lock = NSLock()
        }
        let log = Log()
        let fetcher = Fetcher(attempts: 1, backoff: 0, transport: { request in
            log.lock.lock(); log.requests.append(request); log.lock.unlock()
            if request.method == "REPORT" { return HTTPResponse(status: 501) }
            if request.url.path.hasSuffix("missing.ics") { return HTTPResponse(status: 404) }
            return HTTPResponse(status: 200, headers: ["etag": "\"g\""], body: Data("BEGIN:VCALENDAR\r\n".utf8))
        })
        let client = CalDAVClient(fetcher: fetcher, credentials: nil)
        let hrefs = (0..<150).map { "/c/e\($0).ics" } + ["/c/missing.ics"]
        let objects = try client.fetch(hrefs, in: URL(string: "https://cal.example.org/c/")!)
        #expect(objects.count == 151)
        #expect(objects.filter(\.isDeleted).map(\.href) == ["/c/missing.ics"])
        #expect(log.requests.filter { $0.method == "REPORT" }.count == 2)
        #expect(log.requests.filter { $0.method == "GET" }.count == 151)
    }
}
