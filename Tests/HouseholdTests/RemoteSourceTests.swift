import DicteeCore
import DicteeTestSupport
import Foundation
import Household
import Ingest
import PrivacyFilter
import Store
import Testing
import Web

/// Sources other than one file (issue 14): vdir folders, subscription URLs against a local https
/// server, and a failing source that must cost nothing stored from the others nor its own earlier runs.
@Suite(.serialized) struct RemoteSourceTests {
    let zone: CalendarZone
    let now: Int64
    let folder: URL

    init() throws {
        zone = try CalendarZone(identifier: "Europe/Paris")
        now = try #require(zone.parseISO8601("2026-11-29T18:00:00+01:00"))
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-remote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// One VEVENT; `day` in November 2026, a title the whitelist knows.
    static func event(_ uid: String, _ title: String, day: Int, rrule: String? = nil) -> String {
        let d = String(format: "202611%02d", day)
        return "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;TZID=Europe/Paris:\(d)T100000\r\n"
            + "DTEND;TZID=Europe/Paris:\(d)T110000\r\n" + (rrule.map { "RRULE:\($0)\r\n" } ?? "") + "SUMMARY:\(title)\r\nEND:VEVENT\r\n"
    }

    static func calendar(_ events: [String]) -> Data {
        Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + events.joined() + "END:VCALENDAR\r\n").utf8)
    }

    /// A local https server publishing `famille.ics` (Saturday's swim, Friday's judo) and the
    /// subscription to it.
    static func swimmingAndJudo() throws -> (HTTPSTestServer, CalendarSource) {
        let server = try HTTPSTestServer()
        try server.put("famille.ics", calendar([event("p", "Piscine", day: 28), event("j", "Judo", day: 27)]))
        return (server, .subscription(.init(url: server.url("/cal/famille.ics").absoluteString, caFile: server.caFile)))
    }

    func store() throws -> StateStore { try StateStore(path: folder.appendingPathComponent("state.sqlite").path) }

    func run(_ sources: [CalendarSource], _ store: StateStore, now: Int64? = nil, audit: String? = nil) throws -> IngestReport {
        try IngestRun(sources: sources, zone: zone, now: now ?? self.now, auditFile: audit, fetcher: Fetcher(attempts: 2, backoff: 0.05))
            .run(into: store)
    }

    func events(_ store: StateStore) throws -> Set<String> {
        Set(try store.moments().map(\.eventReference.description))
    }

    @Test("a vdir folder: every .ics inside is read as one source; a broken file is its own error; a removed file's moments go")
    func vdirFolder() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let vdir = folder.appendingPathComponent("famille")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        try Self.calendar([Self.event("a", "Piscine", day: 28)]).write(to: vdir.appendingPathComponent("a.ics"))
        try Self.calendar([Self.event("b", "Judo", day: 27)]).write(to: vdir.appendingPathComponent("b.ics"))
        try Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:c\r\nDTSTART:2026XXXX\r\nSUMMARY:Piscine\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: vdir.appendingPathComponent("c.ics"))
        try Data("not a calendar".utf8).write(to: vdir.appendingPathComponent("notes.txt"))
        let store = try store()
        let first = try run([.path(vdir.path)], store)
        #expect(first.counts.events == 3, "\(first.counts)")
        #expect(first.counts.moments == 2, "\(first.counts)")
        #expect(first.eventErrors.count == 1)
        #expect(first.eventErrors.first?.description.contains("c.ics") == true, "\(first.eventErrors)")
        let moments = try events(store)
        #expect(moments == [EventReference(uid: "a").description, EventReference(uid: "b").description])

        // The broken file fixed, the judo file removed: the folder is read completely, so the
        // judo moment goes.
        try FileManager.default.removeItem(at: vdir.appendingPathComponent("b.ics"))
        try FileManager.default.removeItem(at: vdir.appendingPathComponent("c.ics"))
        _ = try run([.path(vdir.path)], store)
        #expect(try events(store) == [EventReference(uid: "a").description])
    }

    @Test("a subscription: the first night reads it, the next gets a 304 and keeps every moment; a change is read again")
    func subscriptionConditionalGET() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, source) = try Self.swimmingAndJudo()
        defer { server.stop() }
        let store = try store()
        let first = try run([source], store)
        #expect(first.sourceFailures.isEmpty, "\(first.sourceFailures)")
        #expect(first.counts.moments == 2)
        let audit = folder.appendingPathComponent("audit.jsonl").path
        let second = try run([source], store, audit: audit)
        #expect(second.sourceFailures.isEmpty)
        #expect(try events(store).count == 2, "a 304 keeps the moments")
        // The audit file lists every moment that may reach a model, also those of a calendar not
        // read again this night (a fresh user found them missing).
        let lines = try String(contentsOfFile: audit, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.contains("la sortie piscine") } && lines.contains { $0.contains("judo") }, "\(lines)")
        let verified = AuditFile.verify(try String(contentsOfFile: audit, encoding: .utf8), whitelist: .bundled, labels: [])
        #expect(verified.problems.isEmpty, "\(verified.problems)")
        let statuses = try server.requests().filter { $0.path == "/cal/famille.ics" }.map(\.status)
        #expect(statuses == [200, 304], "\(statuses)")

        // Only the protocol is sent: no cookie, no authorization, nothing from the state.
        for request in try server.requests() {
            let names = Set(request.headers.map { $0.name.lowercased() })
            #expect(names.isSubset(of: ["host", "accept", "accept-encoding", "if-none-match", "if-modified-since"]), "\(names)")
        }

        // The judo event deleted upstream: read again, forgotten.
        Thread.sleep(forTimeInterval: 1.1)  // Last-Modified has one-second resolution
        try server.put("famille.ics", Self.calendar([Self.event("p", "Piscine", day: 28)]))
        _ = try run([source], store)
        #expect(try events(store) == [EventReference(uid: "p").description])
    }

    @Test("new filter rules: a subscription not changed since is read whole once, so no moment decided by older rules stays")
    func rulesChangedReadsWhole() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, source) = try Self.swimmingAndJudo()
        defer { server.stop() }
        let store = try store()
        _ = try run([source], store)
        let key = try #require(try store.rulesKey())
        #expect(key.contains("held.txt:") && key.contains("registers.txt:"), "\(key)")
        _ = try run([source], store)
        // Rules changed since (a new dictee): the next night reads the calendar whole, the one
        // after is conditional again.
        try store.setRulesKey("moments.tsv:older")
        _ = try run([source], store)
        #expect(try store.rulesKey() == key)
        _ = try run([source], store)
        let statuses = try server.requests().filter { $0.path == "/cal/famille.ics" }.map(\.status)
        #expect(statuses == [200, 304, 200, 304], "\(statuses)")
        #expect(try events(store).count == 2)
    }

    @Test("a subscription with an event that enters the moving window is read again without waiting for a change")
    func subscriptionRecheckedWhenTheWindowMoves() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try HTTPSTestServer()
        defer { server.stop() }
        // A one-off three weeks after "now": outside the window today, inside in a week.
        try server.put("famille.ics", Self.calendar([Self.event("p", "Piscine", day: 28),
                                                     "BEGIN:VEVENT\r\nUID:later\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;TZID=Europe/Paris:20261219T100000\r\nDTEND;TZID=Europe/Paris:20261219T110000\r\nSUMMARY:Judo\r\nEND:VEVENT\r\n"]))
        let source = CalendarSource.subscription(.init(url: server.url("/cal/famille.ics").absoluteString, caFile: server.caFile))
        let store = try store()
        _ = try run([source], store)
        #expect(try events(store) == [EventReference(uid: "p").description])
        let nextWeek = now + 8 * 86_400
        _ = try run([source], store, now: nextWeek)
        #expect(try events(store).contains(EventReference(uid: "later").description), "the one-off entered the window")
        let statuses = try server.requests().filter { $0.path == "/cal/famille.ics" }.map(\.status)
        #expect(statuses == [200, 200], "read again in full because an occurrence entered the window: \(statuses)")
    }

    @Test("a failing source costs nothing: the file beside it is read, its own earlier moments stay, exit status 69")
    func failingSourceCostsNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try HTTPSTestServer()
        try server.put("ecole.ics", Self.calendar([Self.event("s", "Sortie au musée", day: 27)]))
        let subscription = CalendarSource.subscription(.init(url: server.url("/cal/ecole.ics").absoluteString, caFile: server.caFile))
        let file = folder.appendingPathComponent("famille.ics")
        try Self.calendar([Self.event("p", "Piscine", day: 28)]).write(to: file)
        let store = try store()
        let first = try run([.path(file.path), subscription], store)
        #expect(first.sourceFailures.isEmpty)
        let before = try events(store)
        #expect(before.count == 2, "\(first.counts)")

        server.stop()
        try Self.calendar([Self.event("p", "Piscine", day: 28), Self.event("j", "Judo", day: 27)]).write(to: file)
        let second = try run([.path(file.path), subscription], store)
        #expect(second.sourceFailures.count == 1)
        if case .fetch(let error)? = second.sourceFailures.first?.error {
            #expect(error.exitCode == 69)
        } else {
            Issue.record("expected a fetch failure, got \(second.sourceFailures)")
        }
        #expect(try events(store) == before.union([EventReference(uid: "j").description]),
                "the file's new moment is stored, the subscription's moments stay")
    }

    @Test("a certificate the system does not trust is refused without --ca-file (69), read with it")
    func certificateVerified() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try HTTPSTestServer()
        defer { server.stop() }
        try server.put("famille.ics", Self.calendar([Self.event("p", "Piscine", day: 28)]))
        let store = try store()
        let without = try run([.subscription(.init(url: server.url("/cal/famille.ics").absoluteString))], store)
        guard case .fetch(let error)? = without.sourceFailures.first?.error else {
            Issue.record("an untrusted certificate must fail")
            return
        }
        #expect(error.exitCode == 69)
        #expect(error.hint.contains("--ca-file"))
        let with = try run([.subscription(.init(url: server.url("/cal/famille.ics").absoluteString, caFile: server.caFile))], store)
        #expect(with.sourceFailures.isEmpty && with.counts.moments == 1)
    }
}
