import DicteeCore
import Foundation
import Testing
@testable import Ingest
import DicteeTestSupport

/// One fixture: `Fixtures/ics/NAME.ics` with its expected `NAME.json` beside it.
struct FixtureCase: CustomStringConvertible, Sendable {
    var name: String
    var description: String { name }

    static var all: [FixtureCase] {
        let dir = repositoryRoot.appendingPathComponent("Fixtures/ics")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
            .map { FixtureCase(name: String($0.dropLast(5))) }
    }
}

@Suite("CalendarReader: one fixture per behaviour, with its expected JSON")
struct CalendarReaderFixtureTests {
    @Test("the fixture folder holds the behaviours of README 'How calendars are read'")
    func fixturesArePresent() {
        let names = Set(FixtureCase.all.map(\.name))
        #expect(names.count >= 40)
        for required in [
            "duration_nominal_vs_exact_dst", "tz_windows_name", "exdate_other_tz_and_value_date",
            "recurrence_id_move_into_window", "override_cancelled", "orphan_override",
            "text_fold_splits_utf8", "file_utf8_bom", "bad_impossible_date",
            "runaway_secondly_since_1970", "window_boundaries_oneoff", "window_boundaries_recurring",
        ] {
            #expect(names.contains(required), "missing fixture \(required)")
        }
    }

    @Test("expected occurrences and errors", arguments: FixtureCase.all)
    func fixture(_ fixture: FixtureCase) throws {
        let expectedData = try Data(contentsOf: fixtureURL(fixture.name + ".json"))
        let expected = try JSONSerialization.jsonObject(with: expectedData) as! [String: Any]
        let now = expected["now"] as! String
        let tz = expected["tz"] as! String
        let zone = try CalendarZone(identifier: tz)
        let result = try reader(now: now, tz: tz).read(paths: [fixtureURL(fixture.name + ".ics").path])

        let got: [[String: AnyHashable]] = result.occurrences.map {
            [
                "uid": $0.uid, "summary": $0.summary, "start": zone.iso8601($0.start),
                "end": zone.iso8601($0.end), "all_day": $0.isAllDay, "recurring": $0.isRecurring,
            ]
        }
        let want: [[String: AnyHashable]] = (expected["occurrences"] as! [[String: Any]]).map {
            [
                "uid": $0["uid"] as! String, "summary": $0["summary"] as! String,
                "start": $0["start"] as! String, "end": $0["end"] as! String,
                "all_day": $0["all_day"] as! Bool, "recurring": $0["recurring"] as! Bool,
            ]
        }
        #expect(got == want)

        let gotErrors = result.errors.map { "\($0.uid ?? "-")@\($0.location?.line ?? -1)" }
        let wantErrors = (expected["errors"] as! [[String: Any]]).map {
            "\($0["uid"] as! String)@\($0["line"] as! Int)"
        }
        #expect(gotErrors == wantErrors)
        for error in result.errors {
            #expect(error.location?.file.hasSuffix(fixture.name + ".ics") == true)
            #expect(!error.message.isEmpty)
        }
        let exit = result.fileErrors.isEmpty ? (result.errors.isEmpty ? 0 : 1) : 65
        #expect(exit == expected["exit"] as! Int)
    }
}

@Suite("CalendarReader: the demo family calendar")
struct FamilyCalendarTests {
    @Test("Fixtures/famille.ics: at least 400 VEVENTs, read without an error")
    func famille() throws {
        let r = try reader(now: "2026-11-29T18:00:00+01:00")
        let result = r.read(paths: [repositoryRoot.appendingPathComponent("Fixtures/famille.ics").path])
        #expect(result.eventCount >= 400)
        #expect(result.errors.isEmpty)
        #expect(result.fileErrors.isEmpty)
        let recurring = result.occurrences.filter(\.isRecurring)
        let oneOff = result.occurrences.filter { !$0.isRecurring }
        // Counted independently with Python icalendar + recurring-ical-events on the same window
        // (their 47 recurring results include 5 cancelled overrides, which do not take place).
        #expect(recurring.count == 42)
        #expect(oneOff.count == 387)
        let titles = Set(result.occurrences.map(\.summary))
        #expect(titles.contains("Orthophoniste Hugo"))
        #expect(titles.contains("Classe de neige CM1"))
    }
}

@Suite("CalendarReader: files")
struct CalendarReaderFileTests {
    @Test("a missing file, a directory and a non-calendar are file errors; other files still read")
    func fileErrors() throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("dictee-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("notes.txt")
        try Data("hello, this is not a calendar\n".utf8).write(to: text)
        let png = dir.appendingPathComponent("photo.ics")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: png)
        let good = fixtureURL("dtend_basic.ics").path
        let link = dir.appendingPathComponent("link.ics")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: good)
        let result = try reader(now: "2026-03-25T12:00:00+01:00").read(paths: [
            dir.appendingPathComponent("absent.ics").path, dir.path, text.path, png.path, good,
            "/dev/zero", link.path,
        ])
        #expect(result.fileErrors.count == 5)
        #expect(result.fileErrors.contains(.unreadableFile(path: "/dev/zero", reason: "not a regular file")))
        #expect(result.occurrences.count == 5)
        #expect(!result.occurrences.isEmpty)
        for error in result.fileErrors where !error.description.contains("/dev/zero") {
            #expect(error.description.contains(dir.path))
        }
    }

    @Test("a Latin-1 or Windows-1252 calendar is read as such, with a warning; valid UTF-8 beside a stray byte is kept")
    func notUTF8() throws {
        func calendar(_ summary: [UInt8]) -> [UInt8] {
            Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:latin\r\nDTSTART:20260325T100000Z\r\nDTEND:20260325T110000Z\r\nSUMMARY:".utf8)
                + summary + Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        }
        // "Hôpital Léa – visite" in Windows-1252: ô = F4, é = E9, en dash = 96.
        let latin = calendar([0x48, 0xF4, 0x70, 0x69, 0x74, 0x61, 0x6C, 0x20, 0x4C, 0xE9, 0x61, 0x20, 0x96, 0x20, 0x76, 0x69, 0x73, 0x69, 0x74, 0x65])
        let result = try reader(now: "2026-03-25T12:00:00+01:00").read(bytes: latin, name: "latin.ics")
        #expect(result.occurrences.map(\.summary) == ["Hôpital Léa – visite"], "no U+FFFD splits a word")
        #expect(result.diagnostics.contains { $0.code == "not-utf8" && $0.severity == .warning })
        // UTF-8 "Léa" and one stray Latin-1 "é": the UTF-8 stays, the stray byte is read as é.
        let mixed = calendar(Array("Léa ".utf8) + [0x63, 0x61, 0x66, 0xE9])
        let second = try reader(now: "2026-03-25T12:00:00+01:00").read(bytes: mixed, name: "mixed.ics")
        #expect(second.occurrences.map(\.summary) == ["Léa café"])
        // A UTF-8 file is left alone, without a warning.
        let utf8 = calendar(Array("Hôpital".utf8))
        let third = try reader(now: "2026-03-25T12:00:00+01:00").read(bytes: utf8, name: "utf8.ics")
        #expect(third.occurrences.map(\.summary) == ["Hôpital"] && !third.diagnostics.contains { $0.code == "not-utf8" })
        // A fold inside a UTF-8 sequence (some exporters fold at a byte count) is UTF-8, not Latin-1.
        let folded = calendar([0x48, 0xC3, 0x0D, 0x0A, 0x20, 0xB4, 0x70, 0x69, 0x74, 0x61, 0x6C])
        let fourth = try reader(now: "2026-03-25T12:00:00+01:00").read(bytes: folded, name: "folded.ics")
        #expect(fourth.occurrences.map(\.summary) == ["Hôpital"] && !fourth.diagnostics.contains { $0.code == "not-utf8" })
    }

    @Test("a file whose series make more occurrences than a family has is cut at the cap, with an error")
    func occurrencesPerFileCap() throws {
        // 200 hourly series: about 100,000 occurrences in the three-week window.
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        for k in 0..<200 {
            text += "BEGIN:VEVENT\r\nUID:hourly-\(k)\r\nDTSTART:20260301T000000Z\r\nDTEND:20260301T003000Z\r\n"
                + "RRULE:FREQ=HOURLY\r\nSUMMARY:Série \(k)\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let result = try reader(now: "2026-03-25T12:00:00+01:00").read(bytes: Array(text.utf8), name: "amplified.ics")
        #expect(result.occurrences.count <= 50_000)
        #expect(result.diagnostics.filter { $0.code == "too-many-occurrences" }.count == 1)
        #expect(result.incompleteFiles.contains("amplified.ics"), "nothing stored from it is forgotten")
    }

    @Test("a VEVENT without a VCALENDAR around it is still read")
    func bareEvent() throws {
        let text = vevent(uid: "bare", [
            "DTSTART;TZID=Europe/Paris:20260326T100000", "SUMMARY:Bare",
        ]).joined(separator: "\r\n") + "\r\n"
        let result = try read(text)
        #expect(result.occurrences.map(\.uid) == ["bare"])
    }

    @Test("an empty VCALENDAR is a calendar with no events, not an error")
    func emptyCalendar() throws {
        let result = try read(calendar([]))
        #expect(result.fileErrors.isEmpty)
        #expect(result.occurrences.isEmpty)
        #expect(result.eventCount == 0)
    }

    @Test("the same export read twice gives each occurrence once")
    func duplicateImport() throws {
        let path = fixtureURL("dtend_basic.ics").path
        let r = try reader(now: "2026-03-25T12:00:00+01:00")
        let once = r.read(paths: [path])
        let twice = r.read(paths: [path, path])
        #expect(once.occurrences.count == twice.occurrences.count)
    }

    @Test("one bad event never costs the others: a missing DTSTART is an error on its VEVENT line")
    func missingStart() throws {
        let text = calendar(
            vevent(uid: "no-start", ["SUMMARY:Nothing"])
                + vevent(uid: "good", ["DTSTART:20260326T100000Z", "SUMMARY:Good"]))
        let result = try read(text)
        #expect(result.occurrences.map(\.uid) == ["good"])
        #expect(result.errors.map(\.code) == ["missing-dtstart"])
        #expect(result.errors.first?.location?.line == 4)
    }
}

@Suite("CalendarReader: several documents as one source")
struct CalendarReaderDocumentTests {
    let now = "2026-03-25T12:00:00+01:00"

    static func doc(_ name: String, _ lines: [String]) -> (name: String, bytes: [UInt8]) {
        (name, Array(calendar(lines).utf8))
    }

    @Test("a vdir folder: the master in one document, its override in another, grouped as in one file")
    func overrideAcrossDocuments() throws {
        let master = vevent(uid: "judo", [
            "DTSTART;TZID=Europe/Paris:20260304T170000", "DTEND;TZID=Europe/Paris:20260304T180000",
            "RRULE:FREQ=WEEKLY", "SUMMARY:Judo",
        ])
        let moved = vevent(uid: "judo", [
            "RECURRENCE-ID;TZID=Europe/Paris:20260401T170000", "DTSTART;TZID=Europe/Paris:20260402T170000",
            "DTEND;TZID=Europe/Paris:20260402T180000", "SUMMARY:Judo (jeudi)",
        ])
        let zone = try CalendarZone(identifier: "Europe/Paris")
        let r = try reader(now: now)
        let split = r.read(documents: [Self.doc("judo.ics", master), Self.doc("judo-0401.ics", moved)])
        let whole = r.read(bytes: Array(calendar(master + moved).utf8), name: "judo.ics")
        func starts(_ result: IngestResult) -> [String] { result.occurrences.map { "\(zone.iso8601($0.start)) \($0.summary)" } }
        #expect(starts(split) == starts(whole))
        #expect(starts(split) == [
            "2026-03-18T17:00:00+01:00 Judo", "2026-03-25T17:00:00+01:00 Judo",
            "2026-04-02T17:00:00+02:00 Judo (jeudi)",
        ])
        #expect(split.occurrences.map(\.source.file) == ["judo.ics", "judo.ics", "judo-0401.ics"])
        #expect(split.eventCount == 2)
    }

    @Test("diagnostics and file errors name the document; the other documents are still read")
    func namesInDiagnostics() throws {
        let url = "https://cal.example.org/dav/famille/piano.ics"
        let result = try reader(now: now).read(documents: [
            Self.doc(url, vevent(uid: "piano", ["DTSTART;TZID=Nowhere/Zone:20260326T100000", "SUMMARY:Piano"])),
            (name: "notes.txt", bytes: Array("not a calendar\n".utf8)),
            Self.doc("bon.ics", vevent(uid: "bon", ["DTSTART:20260326T100000Z", "SUMMARY:Bon"])),
            (name: "vide.ics", bytes: []),
        ])
        #expect(result.occurrences.map(\.uid) == ["bon"])
        #expect(result.errors.map { $0.location?.file } == [url])
        #expect(result.errors.first?.location?.line == 7, "the DTSTART line")
        #expect(result.fileErrors == [.notACalendar(path: "notes.txt"), .notACalendar(path: "vide.ics")])
        #expect(result.eventCount == 2)
    }

    @Test("a bare VEVENT document (no VCALENDAR around it) and the same document twice")
    func bareAndDuplicate() throws {
        let bare = vevent(uid: "bare", ["DTSTART:20260326T100000Z", "SUMMARY:Nu"]).joined(separator: "\r\n") + "\r\n"
        let r = try reader(now: now)
        let result = r.read(documents: [(name: "bare.ics", bytes: Array(bare.utf8)), (name: "bare.ics", bytes: Array(bare.utf8))])
        #expect(result.occurrences.map(\.uid) == ["bare"], "the same event twice counts once")
        #expect(r.read(documents: []).occurrences.isEmpty)
    }
}

/// `now` 2026-03-25T12:00:00+01:00 in Paris: recurring window [2026-03-18T12:00+01:00,
/// 2026-04-08T12:00+02:00), one-off window from 2024-03-25T12:00+01:00 to the same end.
@Suite("CalendarReader: nextEntry, when a document may need reading again")
struct NextEntryTests {
    let paris = try! CalendarZone(identifier: "Europe/Paris")

    func entries(_ readsEveryEvent: Bool = false) throws -> [String: Int64] {
        var r = try reader(now: "2026-03-25T12:00:00+01:00")
        r.readsEveryEvent = readsEveryEvent
        let documents: [(String, [String])] = [
            ("weekly.ics", vevent(uid: "w", ["DTSTART;TZID=Europe/Paris:20260304T100000", "RRULE:FREQ=WEEKLY"])),
            ("ahead.ics", vevent(uid: "a", ["DTSTART;TZID=Europe/Paris:20260415T090000", "SUMMARY:Dans trois semaines"])),
            ("past.ics", vevent(uid: "p", ["DTSTART;TZID=Europe/Paris:20250415T090000"])),
            ("ended.ics", vevent(uid: "e", ["DTSTART;TZID=Europe/Paris:20250904T100000", "RRULE:FREQ=WEEKLY;UNTIL=20260301T000000Z"])),
            ("allday.ics", vevent(uid: "d", ["DTSTART;VALUE=DATE:20260409"])),
            ("count.ics", vevent(uid: "c", ["DTSTART;TZID=Europe/Paris:20260318T100000", "RRULE:FREQ=WEEKLY;COUNT=3"])),
            ("broken.ics", vevent(uid: "b", ["DTSTART;TZID=Nowhere/Zone:20260409T100000"])),
            ("cancelled.ics", vevent(uid: "x", ["DTSTART:20260409T100000Z", "STATUS:CANCELLED"])),
            ("rdate.ics", vevent(uid: "r", ["DTSTART;TZID=Europe/Paris:20260320T100000", "RDATE;TZID=Europe/Paris:20260501T100000"])),
            ("moved.ics", vevent(uid: "m", ["DTSTART;TZID=Europe/Paris:20260318T100000", "RRULE:FREQ=WEEKLY;COUNT=3"])
                + vevent(uid: "m", ["RECURRENCE-ID;TZID=Europe/Paris:20260401T100000", "DTSTART;TZID=Europe/Paris:20260420T100000"])),
        ]
        return r.read(documents: documents.map { (name: $0.0, bytes: Array(calendar($0.1).utf8)) }).nextEntry
    }

    func at(_ text: String) -> Int64 { paris.parseISO8601(text)! }

    @Test("a weekly series, an all-day event, an RDATE and a moved instance: exactly 14 days (wall clock) before the next start",
          arguments: [
            ("weekly.ics", "2026-04-15T10:00:00+02:00", "2026-04-01T10:00:00+02:00"),
            // Midnight of 9 April, 14 days back across the DST change.
            ("allday.ics", "2026-04-09T00:00:00+02:00", "2026-03-26T00:00:00+01:00"),
            ("rdate.ics", "2026-05-01T10:00:00+02:00", "2026-04-17T10:00:00+02:00"),
            // The instance of 1 April moved to 20 April.
            ("moved.ics", "2026-04-20T10:00:00+02:00", "2026-04-06T10:00:00+02:00"),
          ])
    func exact(name: String, nextStart: String, entry: String) throws {
        let e = try entries()
        #expect(e[name] == at(entry))
        // The window of that now ends at the start: the occurrence is not inside yet, an instant later it is.
        let w = ReadWindow.around(nowSeconds: at(entry), zone: paris)
        #expect(w.recurring.upperBound == at(nextStart))
    }

    @Test("nothing after the window: a one-off in the past, an ended series, a COUNT ending inside the window, an error, a cancelled event")
    func absent() throws {
        let e = try entries()
        for name in ["past.ics", "ended.ics", "count.ics", "broken.ics", "cancelled.ics"] {
            #expect(e[name] == nil, "\(name)")
        }
        #expect(Set(e.keys) == ["weekly.ics", "ahead.ics", "allday.ics", "rdate.ics", "moved.ics"])
    }

    @Test("a one-off three weeks ahead, left out unread: from its DTSTART text less a day, never after the exact entry")
    func leftOutOneOff() throws {
        let exact = try #require(try entries(true)["ahead.ics"])
        #expect(exact == at("2026-04-01T09:00:00+02:00"))
        let estimate = try #require(try entries()["ahead.ics"])
        #expect(estimate <= exact && estimate >= exact - 2 * 86_400)
        // Every other document gets the same entry either way.
        var a = try entries()
        var b = try entries(true)
        a["ahead.ics"] = nil
        b["ahead.ics"] = nil
        #expect(a == b)
    }
}
