import Testing
@testable import Ingest

@Suite("LineIndex: physical lines for diagnostics")
struct LineIndexTests {
    let text = [
        "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:first", "SUMMARY:A long", "  folded title",
        "DTSTART;TZID=\"Europe/Paris\":20260101T100000", "BEGIN:VALARM",
        "DESCRIPTION:reminder", "END:VALARM", "END:VEVENT", "begin:vevent", "uid:sec", " ond",
        "dtstart:20260230", "end:vevent", "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"

    @Test("VEVENTs, their UIDs (unfolded) and their lines, nested VALARM skipped, any case")
    func entries() {
        let index = LineIndex(bytes: Array(text.utf8))
        #expect(index.entries.map(\.beginLine) == [2, 11])
        #expect(index.entries.map(\.uid) == ["first", "second"])
    }

    @Test("a property's first physical line, folded lines unfolded, TZID read with quotes")
    func lines() throws {
        let index = LineIndex(bytes: Array(text.utf8))
        let first = try #require(index.entry(ordinal: 0, uid: "first"))
        #expect(index.line(of: "DTSTART", value: nil, in: first) == 6)
        let contents = index.contentLines(of: first)
        #expect(contents.first { $0.name == "SUMMARY" }?.value == "A long folded title")
        let start = try #require(contents.first { $0.name == "DTSTART" })
        #expect(LineIndex.tzid(of: start) == "Europe/Paris")
        let second = try #require(index.entry(ordinal: 1, uid: "second"))
        #expect(index.line(of: "DTSTART", value: "20260230", in: second) == 14)
        #expect(index.line(of: nil, value: nil, in: second) == 11)
    }

    @Test("a UID disagreeing with the order is found by UID")
    func byUID() {
        let index = LineIndex(bytes: Array(text.utf8))
        #expect(index.entry(ordinal: 0, uid: "second")?.beginLine == 11)
    }

    @Test("LF-only files and an unterminated VEVENT")
    func lfOnly() {
        let index = LineIndex(bytes: Array("BEGIN:VEVENT\nUID:x\nDTSTART:20260101\n".utf8))
        #expect(index.entries.map(\.beginLine) == [1])
        #expect(index.entries.first?.uid == "x")
    }
}

@Suite("LibicalProblem: what a libical note may tell")
struct LibicalProblemTests {
    @Test("only RFC 5545 property names are kept: a made-up name could carry calendar text", arguments: [
        ("Can't parse as DATE-TIME value in DTEND property. Removing entire property: tomorrow", "DTEND"),
        ("Can't parse as TEXT value in X-DENTISTE-LEA property. Removing entire property: q", nil),
        ("Can't parse as INTEGER value in PRIORITY property. Removing entire property: x", "PRIORITY"),
        ("Parse error in property name: DENTISTE", nil),
    ] as [(String, String?)])
    func names(_ message: String, _ expected: String?) {
        #expect(LibicalProblem(parsing: message).property == expected)
    }
}
