import DicteeCore
import Foundation
@testable import Household
import Ingest
import Store
import Testing
import Web

/// Faults an adversarial run found in the CalDAV and folder sources, each with a scripted server
/// (a fake transport: no network): what was not really read must not be stored as read.
@Suite struct CalDAVFaultTests {
    let zone: CalendarZone
    let now: Int64
    let folder: URL

    init() throws {
        zone = try CalendarZone(identifier: "Europe/Paris")
        now = try #require(zone.parseISO8601("2026-11-29T18:00:00+01:00"))
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-caldav-fault-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    static func event(_ uid: String, _ title: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\n"
            + "DTSTART;TZID=Europe/Paris:20261128T100000\r\nDTEND;TZID=Europe/Paris:20261128T110000\r\nSUMMARY:\(title)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// A scripted CalDAV collection at /cal/ on 127.0.0.1:9: its objects (href → (etag, data)),
    /// a sync token, and what the multiget answers for each href ("ok", "404", "garbage", "omit").
    final class Script: @unchecked Sendable {
        var objects: [String: (etag: String, data: String)] = [:]
        var token = "t1"
        var multiget: [String: String] = [:]
        var asked: [String] = []

        func answer(_ request: HTTPRequest) -> HTTPResponse {
            let body = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
            func response(_ href: String, _ inner: String) -> String {
                "<d:response><d:href>\(href)</d:href>\(inner)</d:response>"
            }
            var xml = #"<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            if body.contains("sync-collection") {
                for (href, object) in objects.sorted(by: { $0.key < $1.key }) {
                    xml += response(href, "<d:propstat><d:prop><d:getetag>\(object.etag)</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>")
                }
                // A server naming something outside the collection: not one of its objects.
                xml += response("/elsewhere/x.ics", "<d:propstat><d:prop><d:getetag>\"x\"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>")
                xml += "<d:sync-token>\(token)</d:sync-token>"
            } else if body.contains("calendar-multiget") {
                let hrefs = body.components(separatedBy: "<d:href>").dropFirst().compactMap { $0.components(separatedBy: "</d:href>").first }
                asked += hrefs
                for href in hrefs {
                    switch multiget[href] ?? "ok" {
                    case "404": xml += response(href, "<d:status>HTTP/1.1 404 Not Found</d:status>")
                    case "omit": continue
                    case "garbage":
                        xml += response(href, "<d:propstat><d:prop><d:getetag>\(objects[href]!.etag)</d:getetag><c:calendar-data>not a calendar</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>")
                    default:
                        let object = objects[href]!
                        xml += response(href, "<d:propstat><d:prop><d:getetag>\(object.etag)</d:getetag><c:calendar-data>\(object.data)</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>")
                    }
                }
            } else {
                return HTTPResponse(status: 404)
            }
            return HTTPResponse(status: 207, body: Data((xml + "</d:multistatus>").utf8))
        }
    }

    func ingest(_ script: Script, _ store: StateStore) throws -> IngestReport {
        let fetcher = Fetcher(attempts: 1, backoff: 0, transport: { request in script.answer(request) })
        let source = CalendarSource.caldav(.init(url: "http://127.0.0.1:9/cal/", user: "anne"))
        return try IngestRun(sources: [source], zone: zone, now: now, fetcher: fetcher,
                             environment: ["DICTEE_CALDAV_PASSWORD": "pw"]).run(into: store)
    }

    @Test func anObjectNotAnsweredOrNotACalendarIsAskedForAgainNextRun() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = Script()
        script.objects = ["/cal/e0.ics": ("\"0\"", Self.event("e0", "Piscine")),
                          "/cal/e1.ics": ("\"1\"", Self.event("e1", "Judo")),
                          "/cal/e2.ics": ("\"2\"", Self.event("e2", "Poney"))]
        script.multiget = ["/cal/e1.ics": "garbage", "/cal/e2.ics": "omit"]
        let store = try StateStore(path: folder.appendingPathComponent("s.sqlite").path)
        let first = try ingest(script, store)
        #expect(first.sourceFailures.isEmpty)
        #expect(!script.asked.contains("/elsewhere/x.ics"), "an href outside the collection is not fetched")
        let state = try store.remoteState(source: "http://anne@127.0.0.1:9/cal/")
        #expect(Set(state.objects.keys) == ["/cal/e0.ics"], "only what was read is stored as read: \(state.objects.keys)")
        #expect(state.syncToken == nil, "the token does not move past objects not read")

        // The server answers normally: the two are fetched again and read.
        script.multiget = [:]
        script.asked = []
        script.token = "t2"
        _ = try ingest(script, store)
        #expect(Set(script.asked) == ["/cal/e1.ics", "/cal/e2.ics"])
        #expect(Set(try store.moments().map(\.eventReference)) == Set(["e0", "e1", "e2"].map { EventReference(uid: $0) }))
        #expect(try store.remoteState(source: "http://anne@127.0.0.1:9/cal/").syncToken == "t2")
    }

    @Test func anObjectDeletedBetweenTheListingAndTheMultigetIsGoneNotAnError() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = Script()
        script.objects = ["/cal/e0.ics": ("\"0\"", Self.event("e0", "Piscine")),
                          "/cal/e1.ics": ("\"1\"", Self.event("e1", "Judo"))]
        let store = try StateStore(path: folder.appendingPathComponent("s.sqlite").path)
        _ = try ingest(script, store)
        #expect(try store.moments().count == 2)
        script.objects["/cal/e1.ics"] = ("\"1b\"", Self.event("e1", "Judo"))
        script.multiget = ["/cal/e1.ics": "404"]
        script.token = "t2"
        let second = try ingest(script, store)
        #expect(second.fileErrors.isEmpty && second.eventErrors.isEmpty, "\(second.fileErrors) \(second.eventErrors)")
        #expect(Set(try store.moments().map(\.eventReference)) == [EventReference(uid: "e0")])
        #expect(try store.remoteState(source: "http://anne@127.0.0.1:9/cal/").objects["/cal/e1.ics"] == nil)
    }

    @Test func aFolderThatCannotBeListedKeepsItsMoments() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let reading = SourceReading(reader: CalendarReader(zone: zone, window: .around(nowSeconds: now, zone: zone)), now: now,
                                    fetcher: Fetcher(), environment: [:], quietly: { $0() })
        let read = reading.folder(folder.appendingPathComponent("gone").path)
        #expect(!read.complete, "not listed is not empty: nothing of it may be forgotten")
        #expect(read.result?.fileErrors.first?.description.contains("cannot be listed") == true)
    }

    @Test func twoAccountsOnOneCollectionKeepTheirOwnState() {
        let anne = CalendarSource.caldav(.init(url: "https://dav.example.org/cal/famille/", user: "anne"))
        let bob = CalendarSource.caldav(.init(url: "https://dav.example.org/cal/famille/", user: "bob"))
        #expect(anne.identity != bob.identity)
        #expect(anne.identity == "https://anne@dav.example.org/cal/famille/")
    }

    @Test func aPasswordFileSavedOnWindowsIsReadWithoutItsCarriageReturn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pw")
        try Data("S3cret\r\nsecond line\r\n".utf8).write(to: file)
        let remote = CalendarSource.Remote(url: "https://dav.example.org/", user: "anne", passwordFile: file.path)
        #expect(try CalDAVPassword.find(for: remote, environment: [:]) == "S3cret")
        #expect(CalDAVPassword.netrcPassword("machine dav.example.org\r\n login anne\r\n password pw2\r\n", host: "dav.example.org", user: "anne") == "pw2")
    }
}
