import DicteeCore
import Foundation
import Testing
@testable import Ingest
import DicteeTestSupport

/// Generates family-like calendars at random (seeded): one-off and recurring events in several
/// zones and value types, EXDATEs, overrides moving in and out, cancellations, floating times.
struct CalendarGenerator {
    var g: RuleGenerator

    init(seed: UInt64) { g = RuleGenerator(rng: SeededGenerator(seed: seed)) }

    mutating func stamp(_ year: ClosedRange<Int>) -> String {
        String(format: "%04d%02d%02dT%02d%02d%02d", g.int(year), g.int(1...12), g.int(1...28),
               g.int(0...23), g.pick([0, 15, 30, 45]), g.pick([0, 0, 59]))
    }

    mutating func date(_ year: ClosedRange<Int>) -> String {
        String(format: "%04d%02d%02d", g.int(year), g.int(1...12), g.int(1...28))
    }

    mutating func start() -> String {
        switch g.int(0...5) {
        case 0: return "DTSTART;VALUE=DATE:\(date(2023...2026))"
        case 1: return "DTSTART:\(stamp(2023...2026))Z"
        case 2: return "DTSTART:\(stamp(2023...2026))"
        case 3: return "DTSTART;TZID=\(g.pick(["America/New_York", "Asia/Tokyo", "Romance Standard Time"])):\(stamp(2023...2026))"
        default: return "DTSTART;TZID=Europe/Paris:\(stamp(2023...2026))"
        }
    }

    mutating func calendarText(events: Int) -> String {
        var body: [String] = []
        for n in 0..<events {
            let uid = "gen-\(n)"
            var lines = [start(), "SUMMARY:Titre \(n)"]
            let allDay = lines[0].contains("VALUE=DATE")
            switch g.int(0...2) {
            case 0: lines.append(allDay ? "DURATION:P\(g.int(1...5))D" : "DURATION:PT\(g.int(0...3))H\(g.int(0...59))M")
            case 1: lines.append(allDay ? "DTEND;VALUE=DATE:\(date(2023...2027))" : "DTEND:\(stamp(2023...2027))Z")
            default: break
            }
            let recurring = g.int(0...2) == 0
            if recurring {
                lines.append("RRULE:\(g.rule())")
                if g.int(0...2) == 0 { lines.append(allDay ? "EXDATE;VALUE=DATE:\(date(2026...2026))" : "EXDATE:\(stamp(2026...2026))Z") }
                if g.int(0...3) == 0 { lines.append(allDay ? "RDATE;VALUE=DATE:\(date(2026...2026))" : "RDATE:\(stamp(2026...2026))Z") }
            }
            if g.int(0...9) == 0 { lines.append("STATUS:CANCELLED") }
            body += vevent(uid: uid, lines)
            if recurring, g.int(0...1) == 0 {
                let rid = allDay ? "RECURRENCE-ID;VALUE=DATE:\(date(2026...2026))" : "RECURRENCE-ID:\(stamp(2026...2026))Z"
                body += vevent(uid: uid, [rid, start(), "SUMMARY:Déplacé \(n)"]
                    + (g.int(0...3) == 0 ? ["STATUS:CANCELLED"] : []))
            }
        }
        return calendar(body, header: g.int(0...1) == 0 ? ["X-WR-TIMEZONE:America/Los_Angeles"] : [])
    }
}

@Suite("Properties over generated calendars")
struct WindowPropertyTests {
    @Test("every occurrence starts inside its window, sorted, ends after it starts (60 seeded calendars)",
          arguments: 0..<60)
    func occurrencesStayInsideTheWindow(seed: Int) throws {
        var generator = CalendarGenerator(seed: UInt64(seed) &* 7919 &+ 11)
        let text = generator.calendarText(events: 40)
        let zones = ["Europe/Paris", "Pacific/Auckland", "America/Los_Angeles", "UTC"]
        let tz = zones[seed % zones.count]
        let zone = try CalendarZone(identifier: tz)
        let r = try reader(now: "2026-0\(seed % 9 + 1)-1\(seed % 10)T1\(seed % 10):00:00Z", tz: tz)
        let result = r.read(bytes: Array(text.utf8), name: "gen.ics")
        var previous: Int64 = .min
        for o in result.occurrences {
            let start: Int64
            switch o.start {
            case .instant(let s): start = s
            case .date(let d): start = zone.instant(year: d.year, month: d.month, day: d.day)
            }
            let window = o.isRecurring ? r.window.recurring : r.window.oneOff
            #expect(window.contains(start), "\(o.uid) \(zone.iso8601(o.start)) outside \(tz) window")
            #expect(start >= previous, "not sorted at \(o.uid)")
            previous = start
            switch (o.start, o.end) {
            case (.instant(let s), .instant(let e)): #expect(e >= s)
            case (.date(let s), .date(let e)): #expect(e > s)
            default: Issue.record("start and end of \(o.uid) have different kinds")
            }
        }
        // Each slot of a UID at most once.
        let keys = result.occurrences.map { "\($0.uid)|\(zone.iso8601($0.start))" }
        #expect(Set(keys).count == keys.count)
    }

    @Test("mangled calendars never crash or hang: every event is either read or reported (300 seeded mutations)")
    func mutationsNeverCrash() throws {
        let sources = ["famille.ics"].map { repositoryRoot.appendingPathComponent("Fixtures/\($0)") }
            + ["rrule_wkst_interval.ics", "tz_vtimezone_in_file.ics", "recurrence_id_utc_against_tzid_master.ics",
               "rdate_list_date_period.ics", "text_fold_splits_utf8.ics"].map(fixtureURL)
        var rng = SeededGenerator(seed: 42)
        let r = try reader(now: "2026-11-29T18:00:00+01:00")
        let garbage = ["DTSTART:", "RRULE:FREQ=", "END:VEVENT", "BEGIN:VEVENT", "BEGIN:VCALENDAR",
                       "DTSTART;TZID=\"unterminated:20260101T100000", "EXDATE:2026", " ", ":", ";;;",
                       "RRULE:FREQ=DAILY;BYDAY=99MO", "DTEND;VALUE=PERIOD:x", "\u{0}", "é\u{301}\u{FEFF}"]
        for k in 0..<300 {
            let source = sources[k % sources.count]
            // Work on bytes: a fixture folds inside a UTF-8 character on purpose.
            var lines = splitLines(try Data(contentsOf: source))
            for _ in 0..<(1 + Int(rng.next() % 6)) {
                let at = Int(rng.next() % UInt64(max(lines.count, 1)))
                switch rng.next() % 5 {
                case 0: if !lines.isEmpty { lines.remove(at: at) }
                case 1: lines.insert(Array(garbage[Int(rng.next() % UInt64(garbage.count))].utf8), at: at)
                case 2: if at < lines.count { lines[at] = Array(lines[at].prefix(Int(rng.next() % 20))) }
                case 3: if at < lines.count { lines.insert(lines[at], at: at) }
                default: lines = Array(lines.prefix(at))
                }
            }
            let bytes = Array(lines.joined(separator: [0x0D, 0x0A]))
            let started = Date()
            let result = r.read(bytes: bytes, name: "mangled-\(k).ics")
            #expect(Date().timeIntervalSince(started) < 5, "mutation \(k) took too long")
            #expect(result.errors.allSatisfy { $0.location?.file == "mangled-\(k).ics" && !$0.message.isEmpty })
        }
    }
}

/// Splits CRLF-separated bytes into lines (no decoding).
func splitLines(_ data: Data) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    let bytes = [UInt8](data)
    var i = 0
    while i < bytes.count {
        if bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
            lines.append(current)
            current = []
            i += 2
        } else {
            current.append(bytes[i])
            i += 1
        }
    }
    lines.append(current)
    return lines
}

@Suite("Diagnostics never quote calendar text")
struct DiagnosticPrivacyTests {
    @Test("no error or warning message contains a title, place or description (80 seeded broken calendars)",
          arguments: 0..<80)
    func messagesCarryNoText(seed: Int) throws {
        var g = RuleGenerator(rng: SeededGenerator(seed: UInt64(seed) &+ 1000))
        let secret = "Zqx\(seed)Secret"
        let broken = [
            "DTSTART:20260230T100000", "DTSTART:\(secret)", "DTSTART;TZID=\(secret)/Zone:20260326T100000",
            "RRULE:FREQ=\(secret)", "DTEND:\(secret)", "DURATION:\(secret)", "EXDATE:\(secret)",
            "RRULE:FREQ=SECONDLY", "RDATE;VALUE=PERIOD:\(secret)", "RECURRENCE-ID:\(secret)",
            "STATUS:\(secret)", "X-LIC-ERROR:\(secret)", "ATTENDEE;CN=\(secret):mailto:\(secret)@x",
        ]
        var body: [String] = []
        for n in 0..<12 {
            var lines = [
                "DTSTART;TZID=Europe/Paris:20260326T10\(String(n).leftPadded(2))00",
                "SUMMARY:\(secret) anniversaire \(n)", "LOCATION:\(secret) hôpital",
                "DESCRIPTION:\(secret)\\nligne",
            ]
            if n % 2 == 0 { lines.append(g.pick(broken)) }
            if n % 3 == 0 { lines.insert(g.pick(broken), at: 0) }
            body += vevent(uid: "uid-\(n)", lines)
        }
        let result = try read(calendar(body, header: ["X-WR-TIMEZONE:\(secret)"]))
        #expect(!result.diagnostics.isEmpty)
        for d in result.diagnostics {
            #expect(!d.message.contains(secret), "\(d.code): \(d.message)")
            #expect(!d.description.contains(secret))
            #expect(!d.description.contains("uid-"), "a log line names the UID: \(d.description)")
        }
    }
}
