import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import Ingest

/// Generates sources of several documents in which leaving events out could go wrong: one-off
/// events near and far from the window's bounds in zones from UTC-12 to UTC+14, all-day and
/// floating starts, long DTEND and DURATION, UIDs shared by several VEVENTs (versions with
/// SEQUENCE, masters, overrides, copies in other documents), missing UIDs, folded and lower-case
/// DTSTART lines, cancelled events and broken values.
struct OutsideWindowGenerator {
    var g: RuleGenerator
    /// The one-off window's bounds, as UTC fields (`LocalDateTime.secondsIfUTC`).
    let lower: Int64
    let upper: Int64

    /// One generated VEVENT: its lines and whether its start is written inside the window or less
    /// than two days from it.
    struct Event {
        var lines: [String]
        var near: Bool
    }

    init(seed: UInt64, window: ReadWindow) {
        g = RuleGenerator(rng: SeededGenerator(seed: seed))
        lower = window.oneOff.lowerBound
        upper = window.oneOff.upperBound
    }

    /// A start instant, as UTC fields: far before, near a bound, inside, or far after the window.
    mutating func startFields() -> Int64 {
        let day: Int64 = 86_400
        switch g.int(0...5) {
        case 0: return lower - Int64(g.int(3...2000)) * day + Int64(g.int(0...86_399))
        case 1: return lower + Int64(g.int(-3 * 86_400...3 * 86_400))
        case 2: return upper + Int64(g.int(-3 * 86_400...3 * 86_400))
        case 3: return lower + Int64(g.int(0...Int(upper - lower)))
        default: return upper + Int64(g.int(3...1500)) * day + Int64(g.int(0...86_399))
        }
    }

    static func text(_ fields: Int64, date: Bool) -> String {
        let t = LocalDateTime(utcSeconds: fields)
        let d = String(t.date.year).leftPadded(4) + String(t.date.month).leftPadded(2)
            + String(t.date.day).leftPadded(2)
        return date ? d : d + "T" + String(t.hour).leftPadded(2) + String(t.minute).leftPadded(2)
            + String(t.second).leftPadded(2)
    }

    mutating func event(uids: [String]) -> Event {
        let fields = startFields()
        // Written less than two days from the window (README: the others are not checked).
        let near = fields + 2 * 86_400 >= lower && fields - 2 * 86_400 < upper
        let allDay = g.int(0...4) == 0
        let value = Self.text(fields, date: allDay)
        var start: String
        if allDay {
            start = "DTSTART;VALUE=DATE:\(value)"
        } else {
            switch g.int(0...7) {
            case 0: start = "DTSTART:\(value)Z"
            case 1: start = "DTSTART:\(value)"
            case 2: start = "DTSTART;TZID=Pacific/Kiritimati:\(value)"
            case 3: start = "DTSTART;TZID=Etc/GMT+12:\(value)"
            case 4: start = "DTSTART;TZID=Not/AZone:\(value)"
            case 5: start = "dtstart;tzid=\"Romance Standard Time\":\(value)"
            default: start = "DTSTART;TZID=Europe/Paris:\(value)"
            }
        }
        var lines: [String] = []
        let uid = g.int(0...6) == 0 ? nil : g.pick(uids)
        if let uid { lines.append("UID:\(uid)") }
        if g.int(0...9) == 0 {
            // Folded inside the value, or inside the name.
            let cut = g.int(3...(start.count - 2))
            lines.append(String(start.prefix(cut)))
            lines.append(" " + String(start.dropFirst(cut)))
        } else {
            lines.append(start)
        }
        lines.append("SUMMARY:Événement \(g.int(0...999))")
        switch g.int(0...5) {
        case 0: lines.append(allDay ? "DURATION:P\(g.int(1...900))D" : "DURATION:PT\(g.int(1...30000))H")
        case 1: lines.append(allDay ? "DTEND;VALUE=DATE:\(Self.text(fields + Int64(g.int(1...800)) * 86_400, date: true))"
                                    : "DTEND:\(Self.text(fields + Int64(g.int(1...900)) * 86_400, date: false))Z")
        case 2: lines.append("DTEND:notadate")
        default: break
        }
        switch g.int(0...11) {
        case 0: lines.append("RRULE:FREQ=WEEKLY;COUNT=\(g.int(1...200))")
        case 1: lines.append("RRULE:FREQ=YEARLY")
        case 2: lines.append("RECURRENCE-ID\(allDay ? ";VALUE=DATE" : ""):\(Self.text(startFields(), date: allDay))\(allDay ? "" : "Z")")
        case 3: lines.append("RDATE:\(Self.text(startFields(), date: false))Z")
        default: break
        }
        if g.int(0...3) == 0 { lines.append("SEQUENCE:\(g.int(0...2))") }
        if g.int(0...9) == 0 { lines.append("STATUS:CANCELLED") }
        if g.int(0...19) == 0 { lines.append("X-BROKEN;VALUE=DATE:notadate") }
        return Event(lines: ["BEGIN:VEVENT", "DTSTAMP:20260101T000000Z"] + lines + ["END:VEVENT"], near: near)
    }

    /// Documents named `doc-N.ics`, and for each the line ranges of the events whose start is
    /// written near or inside the window.
    mutating func documents() -> (documents: [(name: String, bytes: [UInt8])], near: [String: [ClosedRange<Int>]]) {
        let uids = (0..<g.int(3...30)).map { "uid-\($0)@example.org" }
        var docs: [(name: String, bytes: [UInt8])] = []
        var near: [String: [ClosedRange<Int>]] = [:]
        for d in 0..<g.int(1...3) {
            let name = "doc-\(d).ics"
            var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//dictee//tests//EN"]
            if g.int(0...2) == 0 { lines.append("X-WR-TIMEZONE:\(g.pick(["Pacific/Kiritimati", "Etc/GMT+12", "America/Los_Angeles"]))") }
            for _ in 0..<g.int(5...30) {
                let e = event(uids: uids)
                if e.near { near[name, default: []].append((lines.count + 1)...(lines.count + e.lines.count)) }
                lines += e.lines
            }
            lines.append("END:VCALENDAR")
            docs.append((name, Array((lines.joined(separator: "\r\n") + "\r\n").utf8)))
        }
        return (docs, near)
    }
}

@Suite("OutsideWindow: one-off events far outside the window are left out unread, and nothing else changes")
struct OutsideWindowTests {
    let now = "2026-11-29T18:00:00+01:00"

    /// What an occurrence is, everything compared.
    static func key(_ o: Occurrence, _ zone: CalendarZone) -> String {
        "\(o.uid)|\(zone.iso8601(o.start))|\(zone.iso8601(o.end))|\(o.isRecurring)|\(o.summary)|\(o.source.file):\(o.source.line ?? -1)"
    }

    @Test("generated sources: the same occurrences, event count and errors inside the window as reading every event (120 seeds)",
          arguments: 0..<120)
    func sameAsReadingEverything(seed: Int) throws {
        let tz = ["Europe/Paris", "Pacific/Kiritimati", "Etc/GMT+12", "America/Los_Angeles"][seed % 4]
        let zone = try CalendarZone(identifier: tz)
        let fast = try reader(now: now, tz: tz)
        var full = fast
        full.readsEveryEvent = true
        var generator = OutsideWindowGenerator(seed: UInt64(seed) &* 104_729 &+ 3, window: fast.window)
        let (documents, near) = generator.documents()
        let a = fast.read(documents: documents)
        let b = full.read(documents: documents)

        #expect(a.occurrences.map { Self.key($0, zone) } == b.occurrences.map { Self.key($0, zone) })
        #expect(a.eventCount == b.eventCount)
        #expect(a.fileErrors == b.fileErrors)
        #expect(a.incompleteFiles == b.incompleteFiles)
        func errorKey(_ d: Diagnostic) -> String { "\(d.uid ?? "-")|\(d.location?.file ?? ""):\(d.location?.line ?? -1)|\(d.code)" }
        let fastErrors = a.errors.map(errorKey)
        let fullErrors = b.errors.map(errorKey)
        #expect(Set(fastErrors).isSubset(of: Set(fullErrors)), "an error that reading every event does not give")
        // An error left out belongs to an event whose start is written far from the window.
        for d in b.errors where !fastErrors.contains(errorKey(d)) {
            let line = d.location?.line ?? -1
            let isNear = near[d.location?.file ?? "", default: []].contains { $0.contains(line) }
            #expect(!isNear, "error \(errorKey(d)) of an event near the window was left out")
        }
        // nextEntry: never later than the exact one.
        for (name, exact) in b.nextEntry {
            let estimate = try #require(a.nextEntry[name], "no entry for \(name)")
            #expect(estimate <= exact)
        }
    }

    @Test("nextEntry is never late: at that now, no occurrence of the document has entered the window yet (60 seeds)",
          arguments: 0..<60)
    func nextEntryIsNeverLate(seed: Int) throws {
        let zone = try CalendarZone(identifier: "Europe/Paris")
        let today = try reader(now: now)
        var generator = OutsideWindowGenerator(seed: UInt64(seed) &* 7_919 &+ 5, window: today.window)
        let (documents, _) = generator.documents()
        let first = today.read(documents: documents)
        for (name, _) in documents {
            // At the entry (or two months later when there is none), the window ends no later than
            // any occurrence of the document that was after today's window.
            let later = first.nextEntry[name] ?? (today.window.oneOff.upperBound + 60 * 86_400)
            let next = CalendarReader(zone: zone, window: .around(nowSeconds: later, zone: zone))
            let second = next.read(documents: documents)
            for o in second.occurrences where o.source.file == name {
                let start: Int64 = switch o.start {
                case .instant(let s): s
                case .date(let d): zone.instant(year: d.year, month: d.month, day: d.day)
                }
                #expect(start < today.window.recurring.upperBound,
                        "\(name): \(o.uid) at \(zone.iso8601(o.start)) entered before \(zone.iso8601(.instant(later)))")
            }
        }
    }

    @Test("an unknown TZID three years back is no longer an error; one inside the window still is")
    func outsideIsNotChecked() throws {
        let text = calendar(
            vevent(uid: "old", ["DTSTART;TZID=Nowhere/Zone:20231120T100000", "SUMMARY:Ancien"])
                + vevent(uid: "new", ["DTSTART;TZID=Nowhere/Zone:20261120T100000", "SUMMARY:Récent"]))
        let r = try reader(now: now)
        let result = r.read(bytes: Array(text.utf8), name: "tz.ics")
        #expect(result.errors.map(\.uid) == ["new"])
        #expect(result.eventCount == 2, "the event left out is still a VEVENT read")
        var full = r
        full.readsEveryEvent = true
        #expect(full.read(bytes: Array(text.utf8), name: "tz.ics").errors.map(\.uid) == ["old", "new"])
    }

    /// The one-off window for `now` in Paris is [2024-11-29T17:00Z, 2026-12-13T17:00Z). An
    /// unreadable DTEND makes each event an error when it is read.
    @Test("events near the bounds are read, in any zone: only starts written more than two days out are left out",
          arguments: [
            ("DTSTART;TZID=Pacific/Kiritimati:20241127T170000", true),  // two days before, to the second: read
            ("DTSTART;TZID=Pacific/Kiritimati:20241127T165959", false),  // a second more: left out
            ("DTSTART;VALUE=DATE:20241128", true),
            ("DTSTART;VALUE=DATE:20241127", false),
            ("DTSTART;TZID=Etc/GMT+12:20261215T165959", true),
            ("DTSTART;TZID=Etc/GMT+12:20261215T170000", false),
            ("DTSTART:20261215T165959Z", true),
            ("DTSTART;VALUE=DATE:20261215", true),
            ("DTSTART;VALUE=DATE:20261216", false),
          ])
    func nearTheBounds(start: String, read: Bool) throws {
        let text = calendar(vevent(uid: "edge", [start, "DTEND:notadate", "SUMMARY:Bord"]))
        let result = try reader(now: now).read(bytes: Array(text.utf8), name: "edge.ics")
        #expect(result.errors.map(\.code) == (read ? ["unreadable-value"] : []))
        #expect(result.eventCount == 1)
    }

    @Test("a one-off starting before the window and ending inside it is not listed, as when every event is read")
    func longEventStartingBefore() throws {
        let text = calendar(vevent(uid: "long", [
            "DTSTART;VALUE=DATE:20240601", "DTEND;VALUE=DATE:20261201", "SUMMARY:Long",
        ]) + vevent(uid: "long-duration", ["DTSTART:20240601T100000Z", "DURATION:P900D", "SUMMARY:Long"]))
        let r = try reader(now: now)
        var full = r
        full.readsEveryEvent = true
        #expect(r.read(bytes: Array(text.utf8), name: "long.ics").occurrences.isEmpty)
        #expect(full.read(bytes: Array(text.utf8), name: "long.ics").occurrences.isEmpty)
    }

    @Test("a version far outside the window with a higher SEQUENCE still supersedes the one inside, in the same file or another document")
    func sharedUIDsAreRead() throws {
        let old = vevent(uid: "moved", ["DTSTART:20290110T100000Z", "SEQUENCE:2", "SUMMARY:Reporté"])
        let current = vevent(uid: "moved", ["DTSTART:20261201T100000Z", "SEQUENCE:1", "SUMMARY:Prévu"])
        let r = try reader(now: now)
        #expect(r.read(bytes: Array(calendar(old + current).utf8), name: "one.ics").occurrences.isEmpty)
        let split = r.read(documents: [
            (name: "a.ics", bytes: Array(calendar(old).utf8)), (name: "b.ics", bytes: Array(calendar(current).utf8)),
        ])
        #expect(split.occurrences.isEmpty, "the other document's newer version is read after all")
        #expect(split.eventCount == 2)
        // Without a newer version in the other document, the one inside is listed.
        let alone = r.read(documents: [(name: "b.ics", bytes: Array(calendar(current).utf8))])
        #expect(alone.occurrences.map(\.summary) == ["Prévu"])
    }

    @Test("a cancelled one-off far back still takes its override inside the window with it")
    func cancelledMasterWithOverride() throws {
        let text = calendar(
            vevent(uid: "trip", ["DTSTART:20200301T100000Z", "STATUS:CANCELLED", "SUMMARY:Annulé"])
                + vevent(uid: "trip", ["RECURRENCE-ID:20200301T100000Z", "DTSTART:20261201T100000Z", "SUMMARY:Déplacé"]))
        let r = try reader(now: now)
        var full = r
        full.readsEveryEvent = true
        let a = r.read(bytes: Array(text.utf8), name: "trip.ics")
        let b = full.read(bytes: Array(text.utf8), name: "trip.ics")
        #expect(a.occurrences.map(\.summary) == b.occurrences.map(\.summary))
        #expect(a.occurrences.isEmpty)
    }

    @Test("the raw reading: DTSTART shapes, folded names, plain UIDs")
    func facts() {
        func facts(_ lines: [String]) -> EventFacts {
            var f = EventFacts()
            for line in lines {
                let b = Array(line.utf8)
                f.read(b, 0, b.count)
            }
            return f
        }
        #expect(facts(["DTSTART;TZID=\"a:b\":20200101T100000"]).startFields
            == LocalDateTime(date: CalendarDate(year: 2020, month: 1, day: 1), hour: 10).secondsIfUTC)
        #expect(facts(["dtstart;value=date:20200229"]).startFields != nil)
        #expect(facts(["DTSTART:20210229"]).unusual, "not a real date")
        #expect(facts(["DTSTART:2020-01-01"]).unusual)
        #expect(facts(["DTSTART:20200101T100000 "]).unusual)
        #expect(facts(["DTSTART:20200101", "DTSTART:20200102"]).unusual)
        #expect(facts(["DTSTART:2020010", " 1"]).unusual)
        #expect(facts(["RR", " ULE:FREQ=DAILY"]).unusual, "a name folded over two lines")
        #expect(facts(["rrule:FREQ=DAILY"]).recurs)
        #expect(facts(["RECURRENCE-ID:20200101"]).recurs)
        #expect(facts(["EXRULE:FREQ=DAILY"]).recurs)
        #expect(!facts(["RDATES:x", "X-RRULE:y"]).recurs)
        #expect(facts(["UID:abc", " def"]).uidValue.map(Array.init) == Array("abcdef".utf8))
        #expect(facts(["UID:"]).uidValue == nil)
        #expect(UIDKey.isPlain(Array("abc@example.org".utf8)[...]))
        #expect(!UIDKey.isPlain(Array("a\\,b".utf8)[...]))
        #expect(UIDKey.of(raw: Array(" a\\,b ".utf8)[...]) == UIDKey.of("a,b"))
        #expect(UIDKey.of(raw: Array("abc".utf8)[...]) == UIDKey.of("abc"))
    }
}
