import DicteeCore
import Foundation
import Testing
@testable import Ingest

/// Issue 15, "Sanitizers and limits" and "Long values cost quadratic time": each finding of
/// `Scripts/bench-limits` (which measures the full sizes) with a test at a small size that runs the
/// same code path. No test here is timed (Docs/style.md, Tests).
@Suite("Ingest limits: long values, nesting, one UID, sub-daily rules, file size")
struct LimitsTests {
    /// 1 MB of words, no line break (and no space at the end: a SUMMARY is trimmed).
    static let megabyte: String = {
        let words = "Piscine avec Tom et Léa au centre aquatique "
        return String(String(repeating: words, count: 1_000_000 / words.utf8.count).dropLast())
    }()

    /// `NAME:value` folded at 75 octets (RFC 5545 3.1), never inside a UTF-8 sequence.
    static func folded(_ name: String, _ value: String) -> String {
        let bytes = Array((name + ":" + value).utf8)
        var parts: [String] = []
        var i = 0
        var limit = 75
        while i < bytes.count {
            var j = min(i + limit, bytes.count)
            while j < bytes.count, bytes[j] & 0xC0 == 0x80 { j -= 1 }
            parts.append(String(decoding: bytes[i..<j], as: UTF8.self))
            i = j
            limit = 74
        }
        return parts.joined(separator: "\r\n ")
    }

    @Test("longValueReadLinearly: a 1 MB SUMMARY or DESCRIPTION, on one line or folded, chunked or whole, is read exactly")
    func longValueReadLinearly() throws {
        // libical's own string reader looked for the end of a long line again for every kilobyte
        // (10 MB: 25 s); the shim's reader finds it once. The value must come out whole.
        let value = Self.megabyte
        for fold in [false, true] {
            let summary = fold ? Self.folded("SUMMARY", value) : "SUMMARY:" + value
            let description = fold ? Self.folded("DESCRIPTION", value) : "DESCRIPTION:" + value
            let text = calendar(
                vevent(uid: "long-summary", [summary, "DTSTART;TZID=Europe/Paris:20260326T100000"])
                    + vevent(uid: "long-description", [
                        "SUMMARY:Piscine", description, "DTSTART;TZID=Europe/Paris:20260327T100000",
                    ])
                    + vevent(uid: "after", ["SUMMARY:Anniv de Tom", "DTSTART;TZID=Europe/Paris:20260328T100000"]))
            let result = try read(text)
            #expect(result.errors.isEmpty)
            #expect(result.occurrences.map(\.uid) == ["long-summary", "long-description", "after"])
            // Compared as Booleans: a failure must not print a megabyte.
            let summaryWhole = result.occurrences.first?.summary == value
            let descriptionWhole = result.occurrences.dropFirst().first?.eventDescription == value
            #expect(summaryWhole, "folded: \(fold)")
            #expect(descriptionWhole, "folded: \(fold)")
        }
        // A bare VEVENT (no VCALENDAR) is parsed whole, not in chunks: the same reader.
        let bare = (vevent(uid: "bare", ["SUMMARY:" + value, "DTSTART;TZID=Europe/Paris:20260326T100000"])
            .joined(separator: "\r\n")) + "\r\n"
        let whole = try read(bare)
        let bareWhole = whole.occurrences.map(\.summary) == [value]
        #expect(bareWhole)
    }

    @Test("nestedComponentsEachGiveOneError: 2,000 VEVENTs nested in one another are one error each; 2,000 nested X-FOO are skipped")
    func nestedComponentsEachGiveOneError() throws {
        let depth = 2000
        var lines: [String] = []
        for k in 0..<depth {
            lines += ["BEGIN:VEVENT", "UID:nested-\(k)", "SUMMARY:Piscine \(k)",
                      "DTSTART;TZID=Europe/Paris:20260326T100000"]
        }
        lines += Array(repeating: "END:VEVENT", count: depth)
        lines += vevent(uid: "after", ["SUMMARY:Anniv de Tom", "DTSTART;TZID=Europe/Paris:20260328T100000"])
        let result = try read(calendar(lines))
        #expect(result.occurrences.map(\.uid) == ["nested-0", "after"])
        let nested = result.errors.filter { $0.code == "nested-event" }
        #expect(nested.count == depth - 1)
        // Each error names its own line and UID (4 lines per level, after the 3 header lines).
        #expect(nested.first?.location?.line == 8 && nested.first?.uid == "nested-1")
        #expect(nested.last?.location?.line == 4 + 4 * (depth - 1) && nested.last?.uid == "nested-\(depth - 1)")

        var foo = ["BEGIN:VEVENT", "UID:xfoo", "SUMMARY:Piscine", "DTSTART;TZID=Europe/Paris:20260326T100000"]
        for k in 0..<depth { foo += ["BEGIN:X-FOO", "X-LEVEL:\(k)"] }
        foo += Array(repeating: "END:X-FOO", count: depth) + ["END:VEVENT"]
        let xfoo = try read(calendar(foo))
        #expect(xfoo.occurrences.map(\.uid) == ["xfoo"])
        #expect(xfoo.errors.isEmpty)
    }

    @Test("versionsOfOneUIDKeepTheNewest: 2,000 one-off versions, and 2,500 versions of a daily series (52,500 instances), keep the newest")
    func versionsOfOneUIDKeepTheNewest() throws {
        var oneOffs: [String] = []
        for k in 0..<2000 {
            oneOffs += vevent(uid: "same", [
                "SUMMARY:Piscine version \(k)", "SEQUENCE:\(k)",
                "DTSTART;TZID=Europe/Paris:20260326T\(String(8 + k % 10).leftPadded(2))0000",
            ])
        }
        let versions = try read(calendar(oneOffs))
        #expect(versions.errors.isEmpty)
        #expect(versions.occurrences.map(\.summary) == ["Piscine version 1999"])

        // 21 daily instances in the window per version: 52,500 in all, over the file's cap of
        // 50,000, though only the newest version's 21 are the file's. Superseded versions no
        // longer count towards the cap (they stopped the file at version 2,380 of 10,000).
        var series: [String] = []
        for k in 0..<2500 {
            series += vevent(uid: "daily", [
                "SUMMARY:Judo version \(k)", "SEQUENCE:\(k)", "RRULE:FREQ=DAILY",
                "DTSTART;TZID=Europe/Paris:20250903T170000",
            ])
        }
        let daily = try read(calendar(series))
        #expect(daily.errors.isEmpty)
        #expect(daily.occurrences.count == 21)
        #expect(Set(daily.occurrences.map(\.summary)) == ["Judo version 2499"])
        #expect(daily.incompleteFiles.isEmpty)
    }

    @Test("subDailySeriesStopAtTheFileStepBudget: SECONDLY series since 1970 stop the file once their steps pass the budget")
    func subDailySeriesStopAtTheFileStepBudget() throws {
        // Each series walks about 87,000 iterator steps (a day before the window, then 1,001
        // instances) before it is skipped as a runaway: 1,000 of them took 329 s. The file now
        // stops, with one error, once they pass `ExpansionLimits.iterationsPerFile` together.
        let count = 15
        var lines: [String] = []
        for k in 0..<count {
            lines += vevent(uid: "secondly-\(k)", [
                "SUMMARY:Piscine \(k)", "DTSTART:19700101T000000Z", "RRULE:FREQ=SECONDLY",
            ])
        }
        lines += vevent(uid: "after", ["SUMMARY:Anniv de Tom", "DTSTART;TZID=Europe/Paris:20260328T100000"])
        let result = try read(calendar(lines), name: "secondly.ics")
        let capped = result.errors.filter { $0.code == "too-many-steps" }
        #expect(capped.count == 1)
        #expect(capped.first?.message.contains("\(ExpansionLimits.iterationsPerFile)") == true)
        #expect(capped.first?.location?.file == "secondly.ics" && capped.first?.location?.line != nil)
        // The series before the budget ran out are errors of their own; none after it is read.
        let runaways = result.errors.filter { $0.code == "runaway-recurrence" }.count
        #expect(runaways >= 1 && runaways < count - 1)
        #expect(result.occurrences.isEmpty, "the event after the cap is left out")
        #expect(result.incompleteFiles.contains("secondly.ics"))
    }

    @Test("fileOverTheCapRefusedQuickly: a file over 256 MB is refused by its size, never read, naming the file")
    func fileOverTheCapRefusedQuickly() throws {
        // A sparse file: its size says 300 MB, it holds no data (no disk, no read).
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("dictee-limits-\(UUID().uuidString).ics").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("BEGIN:VCALENDAR\r\n".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(truncate(path, 300_000_000) == 0)
        let result = try reader(now: "2026-03-25T12:00:00+01:00").read(paths: [path])
        #expect(result.fileErrors == [.unreadableFile(
            path: path, reason: "300 MB is more than the 256 MB dictee reads; export a shorter period")])
        #expect(result.eventCount == 0)
    }
}
