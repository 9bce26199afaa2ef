import DicteeCore
import Testing
@testable import Ingest

@Suite("CalendarLayout: the chunks libical is given")
struct CalendarLayoutTests {
    func chunkText(_ body: [String], rule: SkipRule? = nil) -> String {
        let bytes = Array(calendar(body).utf8)
        let layout = CalendarLayout(bytes: bytes, skipping: rule)
        return String(decoding: layout.chunk(0, of: bytes), as: UTF8.self)
    }

    @Test("a STATUS or SEQUENCE saying what its absence says is left out when alone, kept before another of its kind")
    func defaultsLeftOut() {
        let alone = chunkText(vevent(uid: "a", ["DTSTART:20260326T100000Z", "STATUS:CONFIRMED", "SEQUENCE:0", "SUMMARY:A"]))
        #expect(!alone.contains("STATUS") && !alone.contains("SEQUENCE"))
        #expect(alone.contains("SUMMARY:A\r\n"))
        let kept = chunkText(vevent(uid: "b", ["STATUS:TENTATIVE", "DTSTART:20260326T100000Z", "STATUS:CANCELLED", "SEQUENCE:2"]))
        #expect(kept.contains("STATUS:TENTATIVE\r\nSTATUS:CANCELLED\r\n"), "libical reads the first STATUS")
        #expect(kept.contains("SEQUENCE:2"))
        let lower = chunkText(vevent(uid: "c", ["STATUS:confirmed", "STATUS;X-A=1:CONFIRMED"]))
        #expect(lower.contains("STATUS:confirmed") && lower.contains("STATUS;X-A=1:CONFIRMED"), "only the exact spelling")
    }

    @Test("read as before: the first STATUS decides whether the event is cancelled")
    func firstStatusDecides() throws {
        let text = calendar(
            vevent(uid: "kept", ["DTSTART:20260326T100000Z", "STATUS:CONFIRMED", "STATUS:CANCELLED", "SUMMARY:Gardé"])
                + vevent(uid: "gone", ["DTSTART:20260326T110000Z", "STATUS:CANCELLED", "STATUS:CONFIRMED", "SUMMARY:Annulé"])
                + vevent(uid: "plain", ["DTSTART:20260326T120000Z", "STATUS:TENTATIVE", "SEQUENCE:0", "SUMMARY:Simple"]))
        let result = try read(text)
        #expect(result.occurrences.map(\.uid) == ["kept", "plain"])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("left out of the chunks: one-off events far outside the window, in file order, with their block")
    func skipped() {
        let rule = SkipRule(oneOff: 1_700_000_000..<1_800_000_000)
        let body = vevent(uid: "old", ["DTSTART:20100101T100000Z"])
            + vevent(uid: "new", ["DTSTART:20260101T100000Z"])
            + vevent(uid: "series", ["DTSTART:20100101T100000Z", "RRULE:FREQ=YEARLY"])
            + vevent(uid: "future", ["DTSTART;VALUE=DATE:20400101"])
        let bytes = Array(calendar(body).utf8)
        let layout = CalendarLayout(bytes: bytes, skipping: rule)
        #expect(layout.skipped.count == 2)
        #expect(layout.skipped.map(\.block) == [0, 0])
        let text = String(decoding: layout.chunk(0, of: bytes), as: UTF8.self)
        #expect(text.contains("UID:new") && text.contains("UID:series"))
        #expect(!text.contains("UID:old") && !text.contains("UID:future"))
        let late = String(decoding: layout.text(of: layout.skipped, in: bytes), as: UTF8.self)
        #expect(late.hasPrefix("BEGIN:VCALENDAR\r\n") && late.contains("UID:old") && late.contains("UID:future"))
    }
}
