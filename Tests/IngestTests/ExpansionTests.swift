import DicteeCore
import Foundation
import Testing
@testable import Ingest
import DicteeTestSupport

/// Random RRULEs of the kinds families and calendar apps write, with random BY parts.
struct RuleGenerator {
    var rng: SeededGenerator

    mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(rng.next() % UInt64(range.count))
    }

    mutating func rule() -> String {
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        var parts: [String] = []
        let freq = pick(["DAILY", "WEEKLY", "WEEKLY", "WEEKLY", "MONTHLY", "MONTHLY", "YEARLY"])
        parts.append("FREQ=\(freq)")
        if int(0...2) == 0 { parts.append("INTERVAL=\(int(2...4))") }
        switch freq {
        case "WEEKLY":
            if int(0...1) == 0 {
                let n = int(1...3)
                parts.append("BYDAY=" + (0..<n).map { _ in pick(days) }.uniqued().joined(separator: ","))
            }
            if int(0...3) == 0 { parts.append("WKST=\(pick(["MO", "SU"]))") }
        case "MONTHLY":
            switch int(0...2) {
            case 0: parts.append("BYMONTHDAY=\(pick([1, 5, 15, 28, 31, -1]))")
            case 1: parts.append("BYDAY=\(pick(["1", "2", "-1", "3"]))\(pick(days))")
            default: parts.append("BYDAY=\(pick(days)),\(pick(days));BYSETPOS=\(pick([1, -1, 2]))")
            }
        case "YEARLY":
            switch int(0...2) {
            case 0: parts.append("BYMONTH=\(int(1...12))")
            case 1: parts.append("BYMONTH=\(int(1...12));BYDAY=\(pick(["1", "-1"]))\(pick(days))")
            default: parts.append("BYYEARDAY=\(pick([1, 84, 100, 200, -1]))")
            }
        default:
            if int(0...2) == 0 { parts.append("BYDAY=\(pick(days)),\(pick(days))") }
        }
        if int(0...3) == 0 { parts.append("UNTIL=\(pick(["20260401", "20260330T080000Z", "20250101"]))") }
        return parts.joined(separator: ";")
    }
}

extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

@Suite("Expansion: libical's iterator, inside the window only")
struct ExpansionTests {
    @Test("skipping ahead to the window gives the same occurrences as walking from DTSTART (200 seeded rules)")
    func skipAheadAgreesWithFullWalk() throws {
        var generator = RuleGenerator(rng: SeededGenerator(seed: 20_261_129))
        let zone = try CalendarZone(identifier: "Europe/Paris")
        for n in 0..<200 {
            let rule = generator.rule()
            let year = generator.int(2016...2026)
            let month = generator.int(1...12)
            let day = generator.int(1...28)
            let dtstart = String(format: "%04d%02d%02dT%02d%02d00", year, month, day,
                                 generator.int(7...20), generator.pick([0, 15, 30]))
            let text = calendar(vevent(uid: "r\(n)", [
                "DTSTART;TZID=Europe/Paris:\(dtstart)", "DURATION:PT1H", "RRULE:\(rule)",
                "SUMMARY:Rule \(n)",
            ]))
            var fast = try reader(now: "2026-03-25T12:00:00+01:00")
            var slow = fast
            slow.walksFromStart = true
            fast.walksFromStart = false
            let a = fast.read(bytes: Array(text.utf8), name: "r.ics")
            let b = slow.read(bytes: Array(text.utf8), name: "r.ics")
            let fa = a.occurrences.map { zone.iso8601($0.start) }
            let fb = b.occurrences.map { zone.iso8601($0.start) }
            #expect(fa == fb, "RRULE:\(rule) DTSTART:\(dtstart)")
            #expect(a.errors.isEmpty && b.errors.isEmpty, "RRULE:\(rule)")
        }
    }

    @Test("a series whose COUNT ran out before the window is passed over: the same occurrences and next entry as walking it (300 seeded rules)")
    func countBoundAgreesWithFullWalk() throws {
        var g = RuleGenerator(rng: SeededGenerator(seed: 14_006))
        let zone = try CalendarZone(identifier: "Europe/Paris")
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        for n in 0..<300 {
            var parts = ["FREQ=\(g.pick(["DAILY", "WEEKLY", "WEEKLY", "MONTHLY", "MONTHLY", "YEARLY"]))"]
            if g.int(0...2) == 0 { parts.append("INTERVAL=\(g.int(2...5))") }
            switch (parts[0], g.int(0...3)) {
            case ("WEEKLY", 0), ("WEEKLY", 1):
                parts.append("BYDAY=" + (0..<g.int(1...3)).map { _ in g.pick(days) }.uniqued().joined(separator: ","))
            case ("MONTHLY", 0): parts.append("BYMONTHDAY=\(g.pick([1, 15, 28, 29, 31, -1]))")
            case ("MONTHLY", 1): parts.append("BYDAY=\(g.pick(["", "1", "4", "-1", "5", "-2"]))\(g.pick(days))")
            case ("MONTHLY", 2): parts.append("BYDAY=\(g.pick(days));BYSETPOS=\(g.pick([1, -1]))")
            case ("YEARLY", 0): parts.append("BYMONTH=\(g.int(1...12))")
            default: break
            }
            parts.append("COUNT=\(g.pick([1, 2, 5, 12, 40, 150]))")
            let rule = parts.joined(separator: ";")
            // From 2016 to the window, 29 February and the 31st included.
            let year = g.pick([2016, 2019, 2020, 2022, 2024, 2025, 2026])
            let month = g.pick([1, 2, 3])
            let day = min(g.pick([1, 15, 28, 29, 30, 31]), month == 2 ? (year % 4 == 0 ? 29 : 28) : 31)
            let dtstart = String(format: "%04d%02d%02dT%02d%02d00", year, month, day, g.int(7...20), g.pick([0, 30]))
            let text = calendar(vevent(uid: "c\(n)", ["DTSTART;TZID=Europe/Paris:\(dtstart)", "RRULE:\(rule)"]))
            var fast = try reader(now: "2026-03-25T12:00:00+01:00")
            var slow = fast
            slow.walksFromStart = true
            fast.walksFromStart = false
            let a = fast.read(bytes: Array(text.utf8), name: "c.ics")
            let b = slow.read(bytes: Array(text.utf8), name: "c.ics")
            #expect(a.occurrences.map { zone.iso8601($0.start) } == b.occurrences.map { zone.iso8601($0.start) },
                    "RRULE:\(rule) DTSTART:\(dtstart)")
            #expect(a.nextEntry == b.nextEntry, "RRULE:\(rule) DTSTART:\(dtstart)")
            #expect(a.errors.map(\.code) == b.errors.map(\.code), "RRULE:\(rule) DTSTART:\(dtstart)")
        }
    }

    @Test("COUNT bounds: known for the simple shapes only")
    func countSpan() throws {
        func span(_ rule: String, from start: CalendarDate = CalendarDate(year: 2020, month: 1, day: 10)) throws -> Int? {
            let text = calendar(vevent(uid: "s", ["DTSTART:20200110T100000Z", "RRULE:\(rule)"]))
            let document = try #require(Array(text.utf8).withUnsafeBytes { LibicalDocument(bytes: $0) })
            var found: Int?? = nil
            document.forEachCalendar { c in c.forEachEvent { e in found = .some(e.rrules.first?.countSpanDays(from: start)) } }
            return try #require(found)
        }
        #expect(try span("FREQ=WEEKLY;COUNT=10") == 12 * 7)
        #expect(try span("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;COUNT=10") == 23 * 7)
        #expect(try span("FREQ=DAILY;COUNT=3") == 5)
        #expect(try span("FREQ=MONTHLY;BYDAY=-1FR;COUNT=3") == 5 * 31)
        #expect(try span("FREQ=MONTHLY;BYDAY=5FR;COUNT=3") == nil, "not every month has a fifth Friday")
        #expect(try span("FREQ=MONTHLY;BYMONTHDAY=31;COUNT=3") == nil)
        #expect(try span("FREQ=MONTHLY;COUNT=3", from: CalendarDate(year: 2020, month: 1, day: 31)) == nil)
        #expect(try span("FREQ=YEARLY;COUNT=3", from: CalendarDate(year: 2020, month: 2, day: 29)) == nil)
        #expect(try span("FREQ=YEARLY;BYMONTH=3;COUNT=3") == nil)
        #expect(try span("FREQ=WEEKLY;BYDAY=MO;BYSETPOS=1;COUNT=3") == nil)
        #expect(try span("FREQ=WEEKLY") == nil, "no COUNT")
    }

    @Test("sub-daily rules libical cannot expand correctly are per-event errors")
    func subDailyWithByPartsAreRefused() throws {
        for rule in ["FREQ=MINUTELY;INTERVAL=87;BYHOUR=8,11,19", "FREQ=HOURLY;INTERVAL=2;BYMINUTE=30", "FREQ=HOURLY;BYDAY=MO"] {
            let text = calendar(vevent(uid: "r", ["DTSTART;TZID=Europe/Paris:20260313T130700", "RRULE:\(rule)"]))
            #expect(try read(text).errors.map(\.code) == ["runaway-recurrence"], "\(rule)")
        }
    }

    @Test("sub-daily rules without BY parts keep their phase when skipping ahead (150 seeded rules)")
    func subDailyPhase() throws {
        var g = RuleGenerator(rng: SeededGenerator(seed: 90))
        for n in 0..<150 {
            let freq = g.pick(["HOURLY", "MINUTELY"])
            let rule = "FREQ=\(freq);INTERVAL=\(freq == "HOURLY" ? g.int(2...30) : g.int(60...900))"
            let dtstart = String(format: "202603%02dT%02d%02d00", g.int(1...14), g.int(0...23), g.pick([0, 7, 15, 45]))
            let text = calendar(vevent(uid: "s\(n)", ["DTSTART;TZID=Europe/Paris:\(dtstart)", "RRULE:\(rule)"]))
            var fast = try reader(now: "2026-03-25T12:00:00+01:00")
            var slow = fast
            slow.walksFromStart = true
            fast.walksFromStart = false
            let a = fast.read(bytes: Array(text.utf8), name: "s.ics")
            let b = slow.read(bytes: Array(text.utf8), name: "s.ics")
            if !b.errors.isEmpty { continue }  // the full walk hit its cap: nothing to compare
            #expect(a.occurrences.map(\.start) == b.occurrences.map(\.start), "RRULE:\(rule) DTSTART:\(dtstart)")
        }
    }

    @Test("a weekly rule keeps its wall-clock time across the DST change")
    func wallClockAcrossDST() throws {
        let text = calendar(vevent(uid: "w", [
            "DTSTART;TZID=Europe/Paris:20250101T100000", "DTEND;TZID=Europe/Paris:20250101T110000",
            "RRULE:FREQ=WEEKLY",
        ]))
        let zone = try CalendarZone(identifier: "Europe/Paris")
        let result = try read(text)
        // Window [2026-03-18T12:00, 2026-04-08T12:00): the 18th at 10:00 is before it.
        #expect(result.occurrences.map { zone.iso8601($0.start) } == [
            "2026-03-25T10:00:00+01:00", "2026-04-01T10:00:00+02:00", "2026-04-08T10:00:00+02:00",
        ])
    }

    @Test(
        "runaway rules are per-event errors and finish quickly",
        arguments: [
            "FREQ=SECONDLY", "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MINUTELY",
            "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=31", "FREQ=SECONDLY;COUNT=2000000000",
            "FREQ=MINUTELY;COUNT=500000000", "FREQ=HOURLY;COUNT=900000000",
        ])
    func runaway(_ rule: String) throws {
        let text = calendar(
            vevent(uid: "runaway", ["DTSTART:19700101T000000Z", "RRULE:\(rule)", "SUMMARY:x"])
                + vevent(uid: "fine", ["DTSTART:20260326T100000Z", "SUMMARY:Fine"]))
        let started = Date()
        let result = try read(text)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.errors.map(\.code) == ["runaway-recurrence"])
        #expect(result.errors.first?.location?.line == 8)
        #expect(result.occurrences.map(\.uid) == ["fine"])
    }

    @Test("an hourly rule with no end is fine: 503 occurrences in three weeks with a 23-hour day")
    func hourly() throws {
        let text = calendar(vevent(uid: "h", ["DTSTART:20200101T000000Z", "RRULE:FREQ=HOURLY"]))
        let result = try read(text)
        #expect(result.errors.isEmpty)
        // A UTC hourly rule counts real hours: the window loses one on 2026-03-29 (DST).
        #expect(result.occurrences.count == 21 * 24 - 1)
    }

    @Test("a never-matching yearly rule terminates with no occurrence")
    func neverMatching() throws {
        let text = calendar(vevent(uid: "feb30", [
            "DTSTART;VALUE=DATE:20200101", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
        ]))
        let started = Date()
        let result = try read(text)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.occurrences.isEmpty)
    }

    @Test("INTERVAL=0 and an unknown FREQ are broken rules on the RRULE line", arguments: [
        "FREQ=WEEKLY;INTERVAL=0", "FREQ=SOMETIMES", "BYDAY=XX", "FREQ=WEEKLY;BYDAY=XX", "",
    ])
    func brokenRule(_ rule: String) throws {
        let text = calendar(
            vevent(uid: "broken", ["DTSTART:20260101T100000Z", "RRULE:\(rule)"])
                + vevent(uid: "fine", ["DTSTART:20260326T100000Z"]))
        let result = try read(text)
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.uid == "broken")
        #expect(result.errors.first?.location?.line == 8)
        #expect(result.occurrences.map(\.uid) == ["fine"])
    }
}
