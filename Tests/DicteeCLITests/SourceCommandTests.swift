import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import DicteeCLI
@testable import Household
import Store

/// `dictee source add URL`, `source add caldav`, `caldav discover`, `ingest URL` and `privacy`
/// against servers on 127.0.0.1 (issue 14): what the parent sees, and that no password is kept.
@Suite(.serialized) struct SourceCommandTests {
    let folder: String
    var config: String { folder + "/config.json" }
    var environment: [String: String] { ["DICTEE_CONFIG": config, "DICTEE_STATE": folder + "/state.sqlite", "HOME": folder, "TZ": "Europe/Paris"] }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-source-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func run(_ arguments: [String], _ extra: [String: String] = [:]) -> Captured {
        runDictee(arguments, environment: environment.merging(extra) { $1 })
    }

    static let calendar = Data("""
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:piscine\r
        DTSTAMP:20261101T000000Z\r
        DTSTART;TZID=Europe/Paris:20261128T100000\r
        DTEND;TZID=Europe/Paris:20261128T110000\r
        SUMMARY:Piscine\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:judo\r
        DTSTAMP:20261101T000000Z\r
        DTSTART;TZID=Europe/Paris:20261127T170000\r
        DTEND;TZID=Europe/Paris:20261127T180000\r
        SUMMARY:Judo\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.utf8)

    @Test("source add URL checks the subscription once, keeps the CA file, and privacy says what is fetched from where")
    func subscription() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try HTTPSTestServer()
        defer { server.stop() }
        try server.put("famille.ics", Self.calendar)
        let url = server.url("/cal/famille.ics").absoluteString

        let untrusted = run(["source", "add", url])
        #expect(untrusted.code == .unavailable, "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("certificate") && untrusted.stderr.contains("--ca-file"))
        #expect(!FileManager.default.fileExists(atPath: config), "nothing saved after a refusal")

        let added = run(["source", "add", url, "--ca-file", server.caFile!])
        #expect(added.code == .ok, "\(added.stderr)")
        #expect(added.stdout.contains("answers with a calendar of 2 events"), "\(added.stdout)")
        #expect(added.stdout.contains("added source 1"))
        let saved = try Config.load(path: config)
        #expect(saved.sources == [.subscription(.init(url: url, caFile: server.caFile))])

        let privacy = run(["privacy"])
        #expect(privacy.stdout.contains("reads the calendar from 127.0.0.1 (a subscription, https)"), "\(privacy.stdout)")
        #expect(privacy.stdout.contains("nothing about your children"))
        #expect(privacy.stdout.contains("no proxy is used"))

        let ingest = run(["ingest", url, "--now", "2026-11-29T18:00:00+01:00"], [:])
        #expect(ingest.code == .unavailable, "the ingest command has no --ca-file: the system's authorities refuse it")
        let webcal = run(["source", "add", url.replacingOccurrences(of: "https://", with: "webcal://"), "--ca-file", server.caFile!])
        #expect(webcal.code == .ok && webcal.stdout.contains("already added as source 1"), "webcal:// is the same https address: \(webcal.stdout)")
    }

    @Test("a URL with a password, plain http to another machine, an unknown scheme: refused before any request")
    func refusedAddresses() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let password = run(["source", "add", "https://anne:s3cret@cal.example.org/famille.ics"])
        #expect(password.code == .usage && !password.stderr.contains("s3cret"))
        let plain = run(["source", "add", "http://cal.example.org/famille.ics"])
        #expect(plain.code == .usage && plain.stderr.contains("--insecure-http"), "\(plain.stderr)")
        let user = run(["source", "add", "https://cal.example.org/famille.ics", "--user", "anne"])
        #expect(user.code == .usage && user.stderr.contains("needs no user name"), "\(user.stderr)")
        let ftp = run(["source", "add", "ftp://cal.example.org/famille.ics"])
        #expect(ftp.code == .usage, "\(ftp.stderr)")
        let caldavWithoutUser = run(["source", "add", "caldav", "https://cal.example.org/"])
        #expect(caldavWithoutUser.code == .usage && caldavWithoutUser.stderr.contains("--user"))
        #expect(!FileManager.default.fileExists(atPath: config))
    }

    @Test("ingest reads a file beside a source that fails: the file's moments are stored, the exit status is the source's")
    func ingestWithAFailingSource() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/famille.ics"
        try Self.calendar.write(to: URL(fileURLWithPath: file))
        // Port 1 on loopback: nothing listens.
        let r = run(["ingest", file, "http://127.0.0.1:1/ecole.ics", "--now", "2026-11-29T18:00:00+01:00"])
        #expect(r.code == .unavailable, "\(r.stderr)")
        #expect(r.stderr.contains("http://127.0.0.1:1/…: server unreachable"), "\(r.stderr)")
        #expect(r.stderr.contains("(exit status 69)"))
        #expect(r.stdout.contains("2 moments"), "\(r.stdout)")
    }

    @Test("caldav discover lists the calendars; source add caldav asks for one and keeps no password")
    func caldav() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        if CalDAVTestServer.optedOut {
            print("⚠️  SKIPPED SourceCommandTests.caldav: DICTEE_TESTS_WITHOUT_CALDAV=1 (CalDAV tests not run)")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-caldav-cli-\(UUID().uuidString.prefix(8))")
        let server = try CalDAVTestServer(kind: .radicale, directory: directory)
        try server.start()
        defer { server.stop(); try? FileManager.default.removeItem(at: directory) }
        try server.makeCalendar(server.homePath + "famille/", displayName: "Famille")
        try server.makeCalendar(server.homePath + "ecole/", displayName: "École")
        try server.makeCalendar(server.homePath + "courses/", displayName: "Courses", components: ["VTODO"])
        let passwordFile = folder + "/caldav-password"
        try Data((CalDAVTestServer.password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
        let root = server.rootURL.absoluteString

        let discover = run(["caldav", "discover", root, "--user", CalDAVTestServer.user, "--password-file", passwordFile])
        #expect(discover.code == .ok, "\(discover.stderr)")
        #expect(discover.stdout.contains("\"Famille\"") && discover.stdout.contains("\"École\""), "\(discover.stdout)")
        #expect(discover.stdout.contains("(tasks only: skipped)"))

        let several = run(["source", "add", "caldav", root, "--user", CalDAVTestServer.user, "--password-file", passwordFile])
        #expect(several.code == .usage, "\(several.stderr)")
        #expect(several.stdout.contains("leads to 2 calendars"), "\(several.stdout)")

        let wrong = run(["source", "add", "caldav", root, "--user", CalDAVTestServer.user], ["DICTEE_CALDAV_PASSWORD": "not-it"])
        #expect(wrong.code == .noPermission, "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("not-it"))

        let collection = server.url(server.homePath + "famille/").absoluteString
        let added = run(["source", "add", "caldav", collection, "--user", CalDAVTestServer.user, "--password-file", passwordFile])
        #expect(added.code == .ok, "\(added.stderr)")
        let text = try String(contentsOfFile: config, encoding: .utf8)
        #expect(!text.contains(CalDAVTestServer.password), "the config keeps the password file's path, never the password")
        #expect(text.contains("\"password_file\"") && text.contains("\"user\""))
        let list = run(["source", "list"])
        #expect(list.stdout.contains("caldav \(collection) (user \(CalDAVTestServer.user))"), "\(list.stdout)")
        let privacy = run(["privacy"])
        #expect(privacy.stdout.contains("reads the calendar from 127.0.0.1 as user \(CalDAVTestServer.user) (CalDAV)"), "\(privacy.stdout)")
    }

    @Test("source remove forgets what was read from the source: its moments leave the cards")
    func removeForgets() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/famille.ics"
        try Self.calendar.write(to: URL(fileURLWithPath: file))
        #expect(run(["source", "add", file]).code == .ok)
        #expect(run(["ingest", file, "--now", "2026-11-29T18:00:00+01:00"]).code == .ok)
        let removed = run(["source", "remove", "1"])
        #expect(removed.code == .ok, "\(removed.stderr)")
        #expect(removed.stdout.contains("forgot the 2 occurrences read from it"), "\(removed.stdout)")
        let store = try StateStore(path: folder + "/state.sqlite")
        #expect(try store.moments().isEmpty)
    }

    @Test("a server that is not CalDAV is exit 65 with a hint; no password found is exit 77 and nothing is sent")
    func notCalDAVAndNoPassword() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try HTTPSTestServer(secure: false)
        defer { server.stop() }
        let passwordFile = folder + "/pw"
        try Data("secret\r\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        let plain = run(["source", "add", "caldav", server.url("/cal/").absoluteString, "--user", "anne", "--password-file", passwordFile])
        #expect(plain.code == .dataError, "\(plain.stderr)")
        #expect(plain.stderr.contains("not a CalDAV server") && plain.stderr.contains("dictee source add URL"), "\(plain.stderr)")
        let before = try server.requests().count
        let none = run(["caldav", "discover", server.url("/").absoluteString, "--user", "anne"])
        #expect(none.code == .noPermission, "\(none.stderr)")
        #expect(none.stderr.contains("no CalDAV password found for user anne"), "\(none.stderr)")
        #expect(try server.requests().count == before, "nothing sent without a password")
    }
}
