import Store
import DicteeCore
import Foundation
import Testing
@testable import DicteeCLI
import DicteeTestSupport

@Suite("dictee events: the command contract")
struct EventsCommandTests {
    let now = ["--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"]

    @Test("--json prints exactly {occurrences, errors} with the documented keys")
    func jsonContract() throws {
        let r = runDictee(["events", fixture("famille.ics"), "--json"] + now)
        #expect(r.code == .ok)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["occurrences", "errors"])
        let occurrences = try #require(object["occurrences"] as? [[String: Any]])
        #expect(occurrences.count == 429)
        for o in occurrences {
            #expect(Set(o.keys) == ["uid", "event_ref", "summary", "start", "end", "all_day", "recurring"])
            #expect(o["event_ref"] as? String == EventReference(uid: try #require(o["uid"] as? String)).description)
            let start = try #require(o["start"] as? String)
            if o["all_day"] as? Bool == true {
                #expect(start.count == 10)
            } else {
                #expect(start.count == 25)
                #expect(start.hasSuffix("+01:00") || start.hasSuffix("+02:00"))
            }
        }
        #expect((object["errors"] as? [Any])?.isEmpty == true)
        #expect(r.stderr.contains("456 events: 429 occurrences in the window, 0 errors"))
    }

    @Test("per-event errors: exit 1, the other events printed, errors name file, line and UID")
    func itemErrors() throws {
        let path = fixture("ics/bad_impossible_date.ics")
        let r = runDictee(["events", path, "--json", "--now", "2026-03-25T12:00:00+01:00", "--tz", "Europe/Paris"])
        #expect(r.code == .itemErrors)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let errors = try #require(object["errors"] as? [[String: Any]])
        #expect(!errors.isEmpty)
        for e in errors {
            #expect(Set(e.keys) == ["uid", "event_ref", "file", "line", "message"])
            #expect(e["file"] as? String == path)
            #expect((e["line"] as? Int ?? 0) > 0)
        }
        #expect((object["occurrences"] as? [Any])?.isEmpty == false)
        #expect(r.stderr.contains("\(path):"))
    }

    @Test("an unreadable file or a non-calendar: exit 65, the other files still printed")
    func dataError() throws {
        let r = runDictee(["events", "/nonexistent/x.ics", fixture("famille.ics"), "--json"] + now)
        #expect(r.code == .dataError)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect((object["occurrences"] as? [Any])?.count == 429)
        let errors = try #require(object["errors"] as? [[String: Any]])
        #expect(errors.first?["file"] as? String == "/nonexistent/x.ics")
        #expect(errors.first?["uid"] is NSNull)
        #expect(r.stderr.contains("/nonexistent/x.ics: cannot read the file: no such file"))
        #expect(errors.first?["message"] as? String == "cannot read the file: no such file")
        #expect(r.stderr.contains("456 events: 429 occurrences in the window, 0 errors, 1 unreadable file"))

        let notCalendar = runDictee(["events", repositoryRoot.appendingPathComponent("Package.swift").path] + now)
        #expect(notCalendar.code == .dataError)
        #expect(notCalendar.stderr.contains("not an iCalendar file"))
    }

    @Test("usage errors exit 64 with a hint", arguments: [
        (["events"], "events needs at least one .ics file"),
        (["events", "a.ics", "--tz", "Mars/Olympus"], "unknown time zone 'Mars/Olympus'"),
        (["events", "a.ics", "--now", "tomorrow"], "--now: 'tomorrow' is not a valid ISO 8601 date-time"),
        (["events", "a.ics", "--jsn"], "did you mean '--json'?"),
        (["evnets"], "unknown command 'evnets'; did you mean 'events'?"),
        (["--verison"], "did you mean '--version'?"),
        (["events", "a.ics", "-j"], "unknown option '-j'; did you mean '--json'?"),
        (["events", "a.ics", "--now", "2026-02-30"], "is not a valid ISO 8601 date-time"),
    ])
    func usage(_ arguments: [String], _ message: String) {
        let r = runDictee(arguments)
        #expect(r.code == .usage)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("--help on the tool and on the command, with an example; --version")
    func help() {
        let top = runDictee(["--help"])
        #expect(top.code == .ok)
        #expect(top.stdout.contains("events"))
        let command = runDictee(["events", "--help"])
        #expect(command.code == .ok)
        #expect(command.stdout.contains("example:"))
        #expect(command.stdout.contains("dictee events Fixtures/famille.ics"))
        #expect(runDictee(["help", "events"]).stdout == command.stdout)
        #expect(runDictee(["--version"]).stdout == "dictee \(Dictee.version)\n")
    }

    @Test("the default zone comes from TZ when --tz is absent")
    func zoneFromEnvironment() throws {
        let r = runDictee(["events", fixture("famille.ics"), "--json", "--now", "2026-11-29T17:00:00Z"],
                          environment: ["TZ": "America/New_York"])
        #expect(r.code == .ok)
        #expect(r.stdout.contains("-05:00\""))
        #expect(!r.stdout.contains("+01:00\""))
    }

    @Test("a TZ that is not an IANA name falls back to the system zone, with a warning")
    func posixTZ() {
        let r = runDictee(["events", fixture("famille.ics"), "--now", "2026-11-29T17:00:00Z"],
                          environment: ["TZ": "CET-1CEST"])
        #expect(r.code == .ok)
        #expect(r.stderr.contains("warning: TZ='CET-1CEST' is not an IANA zone name"))
    }

    @Test("the summary line counts in the singular and the plural")
    func summaryPlurals() {
        let one = runDictee(["events", fixture("ics/file_end_before_begin.ics"),
                             "--now", "2026-03-25T12:00:00+01:00", "--tz", "Europe/Paris"])
        #expect(one.stderr.hasSuffix("1 event: 1 occurrence in the window, 0 errors\n"))
    }

    @Test("--state must name a file; read-only commands never create a state")
    func stateOption() throws {
        let empty = runDictee(["--state", "", "child", "list"])
        #expect(empty.code == .usage)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-st-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("none.sqlite").path
        let r = runDictee(["--state", missing, "suggestions", "list"])
        #expect(r.code == .dataError)
        #expect(r.stderr.contains("no state yet"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}

@Suite("dictee review: the interactive queue")
struct ReviewCommandTests {
    @Test("on a terminal: one event at a time, no title unless asked; label, reject, skip, quit")
    func interactive() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-review-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("s.sqlite").path
        let ingest = runDictee(["--state", state, "ingest", fixture("famille.ics"),
                                "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"])
        #expect(ingest.code == .ok)
        final class Box: @unchecked Sendable {
            var out = "", err = ""
            var answers: [String]
            init(answers: [String]) { self.answers = answers }
        }
        let box = Box(answers: ["l", "la fête des voisins", "r", "x", "s", "q"])
        let sink = OutputSink(out: { box.out += $0 }, err: { box.err += $0 })
        let code = DicteeCLI.run(
            arguments: ["--state", state, "review", "--tz", "Europe/Paris"], environment: [:], output: sink,
            readLine: { box.answers.isEmpty ? nil : box.answers.removeFirst() }, isInteractive: true)
        #expect(code == .ok)
        #expect(box.out.contains("[1/158]"))
        #expect(box.out.range(of: #"labeled [0-9]+: la fête des voisins \(fete, for the whole family; "#, options: .regularExpression) != nil)
        #expect(box.out.contains("rejected: never suggested again"))
        #expect(box.out.contains("1 labeled, 1 rejected"))
        #expect(!box.out.contains("title (this terminal only)"))
        let list = runDictee(["--state", state, "suggestions", "list", "--json"])
        #expect(list.stdout.components(separatedBy: "\"id\":").count - 1 == 156)

        let titles = Box(answers: ["q"])
        let sink2 = OutputSink(out: { titles.out += $0 }, err: { _ in })
        _ = DicteeCLI.run(
            arguments: ["--state", state, "review", "--show-titles", "--tz", "Europe/Paris"], environment: [:],
            output: sink2, readLine: { titles.answers.isEmpty ? nil : titles.answers.removeFirst() }, isInteractive: true)
        #expect(titles.out.contains("title (this terminal only): "))
    }

    @Test("the nearest event to today comes first; with two children, whom the moment is for")
    func nearestFirstAndForWhom() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-review-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("s.sqlite").path
        for (name, gender, grade) in [("Léa", "f", "CE1"), ("Hugo", "m", "CM1")] {
            #expect(runDictee(["--state", state, "child", "add", name, "--gender", gender, "--grade", grade]).code == .ok)
        }
        #expect(runDictee(["--state", state, "ingest", fixture("famille.ics"), "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"]).code == .ok)
        let list = runDictee(["--state", state, "suggestions", "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        // The order review must follow, computed here from the listed occurrences' dates.
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-29T17:00:00Z")).timeIntervalSince1970
        func distance(_ row: [String: Any]) -> Double {
            let starts = (row["occurrences"] as? [[String: Any]] ?? []).compactMap { $0["start"] as? String }
            let seconds = starts.compactMap { text -> Double? in
                if let t = ISO8601DateFormatter().date(from: text) { return t.timeIntervalSince1970 }
                let day = ISO8601DateFormatter(); day.formatOptions = [.withFullDate]; day.timeZone = TimeZone(identifier: "Europe/Paris")
                return day.date(from: text)?.timeIntervalSince1970
            }
            return seconds.map { abs($0 - now) }.min() ?? .infinity
        }
        let nearest = try #require(rows.min { distance($0) != distance($1) ? distance($0) < distance($1) : ($0["id"] as! Int) < ($1["id"] as! Int) })
        let nearestID = try #require(nearest["id"] as? Int)
        #expect(nearestID != 1, "the fixture's first event is not its nearest; the order would not be tested")

        final class Box: @unchecked Sendable { var out = ""; var answers: [String]; init(_ a: [String]) { answers = a } }
        let box = Box(["l", "la fête des voisins", "Hugi", "Hugo", "l", "le dîner chez Mamie", "", "q"])
        let code = DicteeCLI.run(
            arguments: ["--state", state, "review", "--tz", "Europe/Paris"], environment: [:],
            output: OutputSink(out: { box.out += $0 }, err: { box.out += $0 }),
            clock: FixedClock(Date(timeIntervalSince1970: now)),
            readLine: { box.answers.isEmpty ? nil : box.answers.removeFirst() }, isInteractive: true)
        #expect(code == .ok)
        #expect(box.out.components(separatedBy: "for whom? (Enter: the whole family; or first names separated by commas, e.g. ").count - 1 == 3, "\(box.out)")
        // A typo is named with the nearest first name, and the question asked again.
        #expect(box.out.contains("error: no child named 'Hugi'\nhint: did you mean 'Hugo'?\n"), "\(box.out)")
        #expect(box.out.contains("labeled \(nearestID): la fête des voisins (fete, for Hugo; "), "\(box.out)")
        #expect(box.out.contains(": le dîner chez Mamie (") && box.out.contains("for the whole family; "), "\(box.out)")
    }

    @Test("without a terminal, review points to the suggestions commands")
    func notInteractive() {
        let r = runDictee(["--state", "/tmp/none.sqlite", "review"])
        #expect(r.code == .usage)
        #expect(r.stderr.contains("dictee suggestions list"))
    }
}

@Suite("dictee classify: the contract")
struct ClassifyCommandTests {
    @Test("--json: one object per title with exactly decision, phrase, first_name, rule")
    func json() throws {
        let r = runDictee(["classify", "--json", "Anniv de Tom", "Dentiste Léa", "Coiffeur"])
        #expect(r.code == .ok)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        for o in objects { #expect(Set(o.keys) == ["decision", "phrase", "first_name", "rule"]) }
        #expect(objects[0]["decision"] as? String == "moment")
        #expect(objects[0]["phrase"] as? String == "l'anniversaire de Tom")
        #expect(objects[0]["first_name"] as? String == "Tom")
        #expect(objects[1]["decision"] as? String == "disqualified")
        #expect(objects[1]["phrase"] is NSNull)
        #expect((objects[1]["rule"] as? String)?.hasPrefix("D") == true)
        #expect(objects[2]["decision"] as? String == "unlabeled")
        #expect(objects[2]["rule"] is NSNull)
    }

    @Test("titles on stdin, one per line")
    func stdin() {
        final class Box: @unchecked Sendable { var out = "" }
        let box = Box()
        let sink = OutputSink(out: { box.out += $0 }, err: { _ in })
        let code = DicteeCLI.run(arguments: ["classify", "--json"], environment: [:], output: sink,
                                 standardInput: { "Vacs chez papi\r\nPiscine 10h\n" })
        #expect(code == .ok)
        #expect(box.out == """
            {"decision":"moment","phrase":"les vacances chez papi","first_name":"papi","rule":"M059"}
            {"decision":"moment","phrase":"la sortie piscine","first_name":null,"rule":"M001"}

            """)
    }
}

@Suite("dictee ingest: what a later ingest may forget")
struct IngestForgettingTests {
    @Test("a truncated file, or an event that became unreadable, forgets nothing stored")
    func keepsWhatItCannotSee() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-forget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("s.sqlite").path
        let file = dir.appendingPathComponent("cal.ics")
        let full = try Data(contentsOf: URL(fileURLWithPath: fixture("famille.ics")))
        try full.write(to: file)
        let now = ["--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"]
        #expect(runDictee(["--state", state, "ingest", file.path] + now).code == .ok)
        let before = try StateStore(path: state).dump()
        try full.prefix(20_000).write(to: file)
        #expect(runDictee(["--state", state, "ingest", file.path] + now).code == .itemErrors)
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n".utf8).write(to: file)
        _ = runDictee(["--state", state, "ingest", file.path] + now)
        // Nothing stored disappeared (a cut file may add rows: an instance whose override was cut
        // off shows up as a plain instance).
        let after = Set(try StateStore(path: state).dump().split(separator: "\n"))
        let missing = Set(before.split(separator: "\n")).subtracting(after)
        #expect(missing.isEmpty, "\(missing.count) stored rows were forgotten")

        // A series whose RRULE became unreadable keeps its stored occurrences.
        let series = dir.appendingPathComponent("judo.ics")
        func write(_ rule: String) throws {
            try Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:judo\r\nSUMMARY:Judo\r\n"
                + "DTSTART;TZID=Europe/Paris:20261123T170000\r\nRRULE:\(rule)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
                .write(to: series)
        }
        try write("FREQ=WEEKLY")
        _ = runDictee(["--state", state, "ingest", series.path] + now)
        let withJudo = try StateStore(path: state).dump()
        try write("FREQ=WEEKLY;BYDAY=XX")
        #expect(runDictee(["--state", state, "ingest", series.path] + now).code == .itemErrors)
        #expect(try StateStore(path: state).dump() == withJudo)
    }
}
