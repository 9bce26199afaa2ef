import DicteeCore
import DicteeTestSupport
import Foundation
import Testing

/// `dictee audit --verify` with the state: each line's `for` must be whose moment the state
/// recorded for that occurrence (README, "dictee audit"); without a state it says it cannot check.
@Suite struct AuditVerifyTests {
    static let now = ["--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"]

    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//dictee//test audit for//EN\r
        BEGIN:VEVENT\r
        UID:judo-noah\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Judo Noah\r
        DTSTART;TZID=Europe/Paris:20261202T170000\r
        DTEND;TZID=Europe/Paris:20261202T180000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:piscine-both\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Piscine Noah et Inès\r
        DTSTART;TZID=Europe/Paris:20261203T100000\r
        DTEND;TZID=Europe/Paris:20261203T110000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:anniv-tom\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Anniv de Tom\r
        DTSTART;TZID=Europe/Paris:20261205T140000\r
        DTEND;TZID=Europe/Paris:20261205T170000\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    /// A state with Noah and Inès, the calendar ingested, the audit file's path and text.
    func ingested() throws -> (dir: URL, state: String, audit: String, text: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-audit-for-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("dictee.sqlite").path
        let ics = dir.appendingPathComponent("f.ics")
        try Data(Self.calendar.utf8).write(to: ics)
        #expect(runDictee(["--state", state, "child", "add", "Noah", "--gender", "m", "--grade", "CE1"]).code == .ok)
        #expect(runDictee(["--state", state, "child", "add", "Inès", "--gender", "f", "--grade", "CM1"]).code == .ok)
        let audit = dir.appendingPathComponent("audit.jsonl").path
        let r = runDictee(["--state", state, "ingest", ics.path, "--audit", audit] + Self.now)
        #expect(r.code == .ok, "\(r.stderr)")
        return (dir, state, audit, try String(contentsOfFile: audit, encoding: .utf8))
    }

    /// The ingested audit file with `from` replaced by `to` (which must change it), verified with
    /// the state.
    func verifiedAfterReplacing(_ from: String, with to: String) throws -> (dir: URL, state: String, audit: String, result: Captured) {
        let (dir, state, audit, text) = try ingested()
        let tampered = text.replacingOccurrences(of: from, with: to)
        #expect(tampered != text)
        try Data(tampered.utf8).write(to: URL(fileURLWithPath: audit))
        return (dir, state, audit, runDictee(["--state", state, "audit", audit, "--verify"]))
    }

    @Test func theAuditFileAsWrittenVerifiesWithTheState() throws {
        let (dir, state, audit, text) = try ingested()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(text.contains(#""phrase":"le cours de judo","first_name":null,"for":["Noah"]"#))
        #expect(text.contains(#""phrase":"la sortie piscine","first_name":null,"for":["Noah","Inès"]"#))
        #expect(text.contains(#""phrase":"l'anniversaire de Tom","first_name":"Tom","for":[]"#))
        let r = runDictee(["--state", state, "audit", audit, "--verify"])
        #expect(r.code == .ok, "\(r.stderr)")
    }

    @Test("a tampered for that still names real children is reported with the state", arguments: [
        (#""first_name":"Tom","for":[]"#, #""first_name":"Tom","for":["Noah"]"#),
        (#""first_name":null,"for":["Noah"]"#, #""first_name":null,"for":["Inès"]"#),
        (#""first_name":null,"for":["Noah"]"#, #""first_name":null,"for":[]"#),
        (#""for":["Noah","Inès"]"#, #""for":["Inès","Noah"]"#),
        (#""for":["Noah","Inès"]"#, #""for":["Noah"]"#),
    ])
    func tampered(_ from: String, _ to: String) throws {
        let (dir, state, audit, r) = try verifiedAfterReplacing(from, with: to)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(r.code == .itemErrors)
        #expect(r.stderr.contains("for is not whose moment the state recorded for this occurrence"), "\(r.stderr)")
        // Without the state the names are real children's: only the warning says so.
        let elsewhere = runDictee(["--state", dir.appendingPathComponent("none.sqlite").path, "audit", audit, "--verify"])
        #expect(elsewhere.stderr.contains("the 'for' fields (whose moment each line is) cannot be checked"))
        #expect(!elsewhere.stderr.contains("for is not whose moment"))
    }

    @Test("a phrase, name or rule swapped for another the rules allow is reported with the state", arguments: [
        (#""phrase":"l'anniversaire de Tom","first_name":"Tom""#, #""phrase":"l'anniversaire de Zoé","first_name":"Zoé""#),
        (#""phrase":"l'anniversaire de Tom","first_name":"Tom""#, #""phrase":"l'anniversaire","first_name":null"#),
        (#""phrase":"le cours de judo","first_name":null,"for":["Noah"],"rule":"M018""#,
         #""phrase":"le cours de karaté","first_name":null,"for":["Noah"],"rule":"M019""#),
    ])
    func swappedPhrase(_ from: String, _ to: String) throws {
        let (dir, _, _, r) = try verifiedAfterReplacing(from, with: to)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(r.code == .itemErrors)
        #expect(r.stderr.contains("phrase, first_name or rule is not what the state recorded"), "\(r.stderr)")
    }

    @Test func aLineTheStateHasNoMomentForIsReported() throws {
        let (dir, _, _, r) = try verifiedAfterReplacing(#"{"date":"2026-12-02""#, with: #"{"date":"2026-12-01""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(r.code == .itemErrors)
        #expect(r.stderr.contains("the state has no moment of this event_ref on this date"), "\(r.stderr)")
    }
}
