import DicteeCore
import Foundation
import Household
import Ingest
import Store
import Testing

/// The ingest run end to end on odd input.
@Suite struct IngestRunTests {
    @Test func aLatin1HospitalTitleIsDisqualifiedNotSplitIntoAMoment() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-latin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // "Hôpital Léa" and "Piscine Léa" in Windows-1252.
        var bytes = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n".utf8)
        for (uid, title) in [("h", [0x48, 0xF4, 0x70, 0x69, 0x74, 0x61, 0x6C, 0x20, 0x4C, 0xE9, 0x61] as [UInt8]),
                             ("p", Array("Piscine ".utf8) + [0x4C, 0xE9, 0x61])] {
            bytes += Array("BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTART:20261128T090000Z\r\nDTEND:20261128T100000Z\r\nSUMMARY:".utf8)
                + title + Array("\r\nEND:VEVENT\r\n".utf8)
        }
        bytes += Array("END:VCALENDAR\r\n".utf8)
        let file = dir.appendingPathComponent("latin1.ics")
        try Data(bytes).write(to: file)
        let zone = try CalendarZone(identifier: "Europe/Paris")
        let now = try #require(zone.parseISO8601("2026-11-29T18:00:00+01:00"))
        let store = try StateStore(path: dir.appendingPathComponent("s.sqlite").path)
        let report = try IngestRun(sources: [file.path], zone: zone, now: now).run(into: store)
        #expect(report.counts.disqualified == 1 && report.counts.moments == 1, "\(report.counts)")
        #expect(report.diagnostics.contains { $0.code == "not-utf8" })
    }
}
