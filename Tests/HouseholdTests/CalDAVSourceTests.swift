import DicteeCore
import DicteeTestSupport
import Foundation
import Household
import Ingest
import Store
import Testing
import Web

/// CalDAV collections as sources of the ingest (issue 14), against real Radicale and Xandikos on
/// 127.0.0.1: recurring events with EXDATE, moved and cancelled instances read as from a file;
/// deletions withdraw moments; a wrong password, a server stopped in the middle of a sync and a
/// refused sync token cost nothing stored; 5,000 events, first and incremental sync timed.
@Suite(.serialized) struct CalDAVSourceTests {
    static let kinds = CalDAVTestServer.Kind.allCases
    let zone: CalendarZone
    let now: Int64
    let folder: URL

    init() throws {
        zone = try CalendarZone(identifier: "Europe/Paris")
        now = try #require(zone.parseISO8601("2026-11-29T18:00:00+01:00"))
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-caldav-source-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A started server, or `nil` (said loudly) when `DICTEE_TESTS_WITHOUT_CALDAV=1`; a missing
    /// server fails the test.
    static func server(_ kind: CalDAVTestServer.Kind, _ name: String = #function) throws -> CalDAVTestServer? {
        if CalDAVTestServer.optedOut {
            print("⚠️  SKIPPED \(name) on \(kind): DICTEE_TESTS_WITHOUT_CALDAV=1 (CalDAV tests not run)")
            return nil
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-caldav-\(kind)-\(UUID().uuidString.prefix(8))")
        let server = try CalDAVTestServer(kind: kind, directory: directory)
        try server.start()
        return server
    }

    // MARK: Calendar objects

    static let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//dictee tests//EN\r\n"
    static let tail = "END:VCALENDAR\r\n"

    /// A weekly swimming lesson on Wednesdays: one slot deleted (EXDATE), one moved a day later,
    /// one cancelled (RECURRENCE-ID overrides in the same object, as CalDAV keeps them).
    static let series = head + """
        BEGIN:VEVENT\r
        UID:piscine-mercredi\r
        DTSTAMP:20261101T000000Z\r
        DTSTART;TZID=Europe/Paris:20261104T140000\r
        DTEND;TZID=Europe/Paris:20261104T150000\r
        RRULE:FREQ=WEEKLY;BYDAY=WE\r
        EXDATE;TZID=Europe/Paris:20261125T140000\r
        SUMMARY:Piscine\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:piscine-mercredi\r
        DTSTAMP:20261101T000000Z\r
        RECURRENCE-ID;TZID=Europe/Paris:20261202T140000\r
        DTSTART;TZID=Europe/Paris:20261203T160000\r
        DTEND;TZID=Europe/Paris:20261203T170000\r
        SUMMARY:Piscine\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:piscine-mercredi\r
        DTSTAMP:20261101T000000Z\r
        RECURRENCE-ID;TZID=Europe/Paris:20261209T140000\r
        DTSTART;TZID=Europe/Paris:20261209T140000\r
        DTEND;TZID=Europe/Paris:20261209T150000\r
        STATUS:CANCELLED\r
        SUMMARY:Piscine\r
        END:VEVENT\r

        """ + tail

    static func oneOff(_ uid: String, _ title: String, _ day: String) -> String {
        head + "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;TZID=Europe/Paris:\(day)T100000\r\n"
            + "DTEND;TZID=Europe/Paris:\(day)T120000\r\nSUMMARY:\(title)\r\nEND:VEVENT\r\n" + tail
    }

    /// Counts the hrefs asked for in calendar-multiget requests, and can stop the server before one.
    final class Spy: @unchecked Sendable {
        let lock = NSLock()
        var multigetHrefs = 0
        var beforeMultiget: (() -> Void)?
        func transport() -> Fetcher.Transport {
            { request throws(HTTPClient.Failure) in
                if let body = request.body, let text = String(data: body, encoding: .utf8), text.contains("calendar-multiget") {
                    self.lock.lock()
                    self.multigetHrefs += text.components(separatedBy: "href>").count / 2
                    let hook = self.beforeMultiget
                    self.beforeMultiget = nil
                    self.lock.unlock()
                    hook?()
                }
                return try HTTPClient.perform(request)
            }
        }
    }

    /// A "Famille" calendar on `server` with the Saturday judo and Tom's birthday, one object
    /// each (`judo.ics`, `anniv.ics`); its path.
    static func judoAndBirthday(on server: CalDAVTestServer) throws -> String {
        let path = server.homePath + "famille/"
        try server.makeCalendar(path, displayName: "Famille")
        try server.putCalendar(path + "judo.ics", oneOff("judo-samedi", "Judo", "20261128"))
        try server.putCalendar(path + "anniv.ics", oneOff("anniv-tom", "Anniversaire de Tom", "20261121"))
        return path
    }

    func source(_ server: CalDAVTestServer, _ path: String) -> CalendarSource {
        .caldav(.init(url: server.url(path).absoluteString, user: CalDAVTestServer.user, insecureHTTP: false))
    }

    func ingest(_ sources: [CalendarSource], _ store: StateStore, password: String = CalDAVTestServer.password,
                spy: Spy? = nil, now: Int64? = nil) throws -> IngestReport {
        var fetcher = Fetcher(attempts: 2, backoff: 0.2)
        if let spy { fetcher.transport = spy.transport() }
        return try IngestRun(sources: sources, zone: zone, now: now ?? self.now, fetcher: fetcher,
                             environment: ["DICTEE_CALDAV_PASSWORD": password]).run(into: store)
    }

    /// The stored moments as (event, start) pairs, comparable across stores.
    func moments(_ store: StateStore) throws -> Set<String> {
        Set(try store.moments().map { "\($0.eventReference) \($0.start)" })
    }

    func store(_ name: String) throws -> StateStore { try StateStore(path: folder.appendingPathComponent(name).path) }

    // MARK: Tests

    @Test(arguments: kinds) func recurringEventsReadAsFromAFileAndDeletionsWithdraw(kind: CalDAVTestServer.Kind) throws {
        guard let server = try Self.server(kind) else { return }
        defer { server.stop(); try? FileManager.default.removeItem(at: server.directory); try? FileManager.default.removeItem(at: folder) }
        let path = server.homePath + "famille/"
        try server.makeCalendar(path, displayName: "Famille")
        try server.putCalendar(path + "piscine.ics", Self.series)
        try server.putCalendar(path + "judo.ics", Self.oneOff("judo-samedi", "Judo", "20261128"))
        try server.putCalendar(path + "anniv.ics", Self.oneOff("anniv-tom", "Anniversaire de Tom", "20261121"))

        // The same events from a file, for comparison: dictee expands, not the server.
        let file = folder.appendingPathComponent("same.ics")
        let allInOne = Self.series.replacingOccurrences(of: Self.tail, with: "")
            + Self.oneOff("judo-samedi", "Judo", "20261128").replacingOccurrences(of: Self.head, with: "").replacingOccurrences(of: Self.tail, with: "")
            + Self.oneOff("anniv-tom", "Anniversaire de Tom", "20261121").replacingOccurrences(of: Self.head, with: "")
        try Data(allInOne.utf8).write(to: file)
        let fromFile = try store("file.sqlite")
        _ = try IngestRun(sources: [.path(file.path)], zone: zone, now: now).run(into: fromFile)

        let store = try store("caldav.sqlite")
        let spy = Spy()
        let first = try ingest([source(server, path)], store, spy: spy)
        #expect(first.sourceFailures.isEmpty, "\(first.sourceFailures)")
        #expect(first.eventErrors.isEmpty, "\(first.eventErrors)")
        #expect(try moments(store) == moments(fromFile), "CalDAV gives the same moments as the file")
        let series = EventReference(uid: "piscine-mercredi")
        let starts = try store.moments().filter { $0.eventReference == series }.map { zone.iso8601($0.start) }
        #expect(starts == ["2026-12-03T16:00:00+01:00"], "EXDATE, moved and cancelled slots: \(starts)")
        #expect(spy.multigetHrefs == 3)

        // Nothing changed: nothing fetched, nothing changes.
        let unchanged = Spy()
        _ = try ingest([source(server, path)], store, spy: unchanged)
        #expect(unchanged.multigetHrefs == 0)
        #expect(try moments(store) == moments(fromFile))

        // The judo event deleted on the server, the birthday moved: only the birthday is fetched.
        try server.delete(path + "judo.ics")
        try server.putCalendar(path + "anniv.ics", Self.oneOff("anniv-tom", "Anniversaire de Tom", "20261122"))
        let after = Spy()
        let third = try ingest([source(server, path)], store, spy: after)
        #expect(third.sourceFailures.isEmpty)
        #expect(after.multigetHrefs == 1)
        let refs = Set(try store.moments().map(\.eventReference))
        #expect(!refs.contains(EventReference(uid: "judo-samedi")), "a deleted event withdraws its moments")
        let birthday = try store.moments().filter { $0.eventReference == EventReference(uid: "anniv-tom") }.map { zone.iso8601($0.start) }
        #expect(birthday == ["2026-11-22T10:00:00+01:00"], "\(birthday)")
    }

    @Test(arguments: kinds) func aWrongPasswordIs77AndCostsNothing(kind: CalDAVTestServer.Kind) throws {
        guard let server = try Self.server(kind) else { return }
        defer { server.stop(); try? FileManager.default.removeItem(at: server.directory); try? FileManager.default.removeItem(at: folder) }
        let path = server.homePath + "famille/"
        try server.makeCalendar(path, displayName: "Famille")
        try server.putCalendar(path + "judo.ics", Self.oneOff("judo-samedi", "Judo", "20261128"))
        let store = try store("s.sqlite")
        _ = try ingest([source(server, path)], store)
        let before = try moments(store)
        #expect(before.count == 1)
        let refused = try ingest([source(server, path)], store, password: "wrong-password-123")
        guard case .fetch(let error)? = refused.sourceFailures.first?.error else {
            Issue.record("a wrong password must fail: \(refused.sourceFailures)")
            return
        }
        #expect(error.exitCode == 77)
        #expect(!error.description.contains("wrong-password-123") && !error.description.contains(CalDAVTestServer.password))
        #expect(try moments(store) == before)
        let dump = try store.dump()
        #expect(!dump.contains(CalDAVTestServer.password) && !dump.contains("Judo"), "no password, no calendar text in the state")
    }

    @Test(arguments: kinds) func theServerStoppedInTheMiddleOfASyncLosesNothing(kind: CalDAVTestServer.Kind) throws {
        guard let server = try Self.server(kind) else { return }
        defer { server.stop(); try? FileManager.default.removeItem(at: server.directory); try? FileManager.default.removeItem(at: folder) }
        let path = server.homePath + "famille/"
        try server.makeCalendar(path, displayName: "Famille")
        try server.putCalendar(path + "piscine.ics", Self.series)
        let store = try store("s.sqlite")
        _ = try ingest([source(server, path)], store)
        try server.putCalendar(path + "judo.ics", Self.oneOff("judo-samedi", "Judo", "20261128"))
        try server.delete(path + "piscine.ics")
        let before = try moments(store)
        let identity = source(server, path).identity
        let tokenBefore = try store.remoteState(source: identity).syncToken

        let spy = Spy()
        spy.beforeMultiget = { server.stop() }
        let cut = try ingest([source(server, path)], store, spy: spy)
        guard case .fetch(let error)? = cut.sourceFailures.first?.error else {
            Issue.record("a server stopped mid-sync must fail: \(cut.sourceFailures)")
            return
        }
        #expect(error.exitCode == 69)
        #expect(try moments(store) == before, "nothing stored from a cut sync")
        #expect(try store.remoteState(source: identity).syncToken == tokenBefore, "the token did not move")

        try server.start()
        let next = try ingest([source(server, path)], store)
        #expect(next.sourceFailures.isEmpty, "\(next.sourceFailures)")
        let refs = Set(try store.moments().map(\.eventReference))
        #expect(refs == [EventReference(uid: "judo-samedi")], "the next run completes: the judo added, the series withdrawn")
    }

    @Test(arguments: kinds) func aRefusedSyncTokenFallsBackToAFullListing(kind: CalDAVTestServer.Kind) throws {
        guard let server = try Self.server(kind) else { return }
        defer { server.stop(); try? FileManager.default.removeItem(at: server.directory); try? FileManager.default.removeItem(at: folder) }
        let path = try Self.judoAndBirthday(on: server)
        let store = try store("s.sqlite")
        _ = try ingest([source(server, path)], store)
        // The state is kept under the source's identity (the URL with the user name in it).
        let url = source(server, path).identity
        var state = try store.remoteState(source: url)
        // The server forgot the token (or it expired): dictee's stored token is refused.
        try store.record([], remote: [RemoteUpdate(source: url, syncToken: "http://example.org/sync/expired-0", objects: [:], removed: [])])
        state = try store.remoteState(source: url)
        #expect(state.objects.count == 2)
        try server.delete(path + "judo.ics")
        let spy = Spy()
        let report = try ingest([source(server, path)], store, spy: spy)
        #expect(report.sourceFailures.isEmpty, "\(report.sourceFailures)")
        #expect(spy.multigetHrefs == 0, "the full listing compares ETags: nothing to fetch again")
        #expect(Set(try store.moments().map(\.eventReference)) == [EventReference(uid: "anniv-tom")])
        #expect(try store.remoteState(source: url).syncToken != "http://example.org/sync/expired-0")
    }

    @Test(arguments: kinds) func newFilterRulesFetchEveryObjectAgainAndStillNoticeDeletions(kind: CalDAVTestServer.Kind) throws {
        guard let server = try Self.server(kind) else { return }
        defer { server.stop(); try? FileManager.default.removeItem(at: server.directory); try? FileManager.default.removeItem(at: folder) }
        let path = try Self.judoAndBirthday(on: server)
        try server.putCalendar(path + "piscine.ics", Self.oneOff("piscine-sam", "Piscine", "20261128"))
        let store = try store("s.sqlite")
        _ = try ingest([source(server, path)], store)
        let unchanged = Spy()
        _ = try ingest([source(server, path)], store, spy: unchanged)
        #expect(unchanged.multigetHrefs == 0)
        // A new dictee's rules, and the judo event deleted meanwhile: every object still there is
        // fetched again, and the deletion withdraws the judo moment.
        try store.setRulesKey("moments.tsv:older")
        try server.delete(path + "judo.ics")
        let whole = Spy()
        let report = try ingest([source(server, path)], store, spy: whole)
        #expect(report.sourceFailures.isEmpty, "\(report.sourceFailures)")
        #expect(whole.multigetHrefs == 2)
        #expect(Set(try store.moments().map(\.eventReference)) == [EventReference(uid: "anniv-tom"), EventReference(uid: "piscine-sam")])
        let after = Spy()
        _ = try ingest([source(server, path)], store, spy: after)
        #expect(after.multigetHrefs == 0, "the rules are remembered: the next night syncs as before")
    }

    @Test(arguments: kinds) func fiveThousandEventsFirstAndIncrementalSync(kind: CalDAVTestServer.Kind) throws {
        guard let server = try Self.server(kind) else { return }
        defer { server.stop(); try? FileManager.default.removeItem(at: server.directory); try? FileManager.default.removeItem(at: folder) }
        let path = server.homePath + "big/"
        try server.makeCalendar(path, displayName: "Big")
        let fill = try server.fill(path, count: 5000, displayName: "Big")
        let store = try store("s.sqlite")
        let spy = Spy()
        var clock = Date()
        let first = try ingest([source(server, path)], store, spy: spy)
        let firstSeconds = Date().timeIntervalSince(clock)
        #expect(first.sourceFailures.isEmpty, "\(first.sourceFailures)")
        #expect(first.counts.events == 5000)
        #expect(spy.multigetHrefs == 5000)

        for i in 0..<7 { try server.putEvent(in: path, uid: "new-\(i)", summary: "Piscine") }
        for i in 0..<3 { try server.putEvent(in: path, uid: "bulk-\(i)@dictee.test", summary: "Judo") }
        let incremental = Spy()
        clock = Date()
        let next = try ingest([source(server, path)], store, spy: incremental)
        let nextSeconds = Date().timeIntervalSince(clock)
        #expect(next.sourceFailures.isEmpty)
        #expect(incremental.multigetHrefs == 10, "only the 10 changed events are fetched")
        print(String(format: "CalDAV source, 5,000 events on %@ (ingest through IngestRun): fill %.1f s; first sync %.1f s; incremental after 10 changes %.2f s",
                     kind.rawValue, fill, firstSeconds, nextSeconds))
    }

    @Test func aCalendarOfTasksOnlyIsNotOfferedAsASource() throws {
        // Radicale keeps the component set given at MKCALENDAR (Xandikos reports all four for every calendar).
        guard let server = try Self.server(.radicale) else { return }
        defer { server.stop(); try? FileManager.default.removeItem(at: server.directory); try? FileManager.default.removeItem(at: folder) }
        try server.makeCalendar(server.homePath + "famille/", displayName: "Famille")
        try server.makeCalendar(server.homePath + "courses/", displayName: "Courses", components: ["VTODO"])
        let remote = CalendarSource.Remote(url: server.rootURL.absoluteString, user: CalDAVTestServer.user)
        let calendars = try SourceSetup.discover(remote, fetcher: Fetcher(attempts: 1, backoff: 0),
                                                 environment: ["DICTEE_CALDAV_PASSWORD": CalDAVTestServer.password])
        #expect(calendars.count == 2)
        let events = SourceSetup.eventCalendars(calendars)
        #expect(events.map(\.displayName) == ["Famille"], "\(events)")
    }
}
