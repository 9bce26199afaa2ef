import DicteeCore
import DicteeTestSupport
import Foundation
@testable import Ingest

/// `Fixtures/ics/NAME`.
func fixtureURL(_ name: String) -> URL {
    repositoryRoot.appendingPathComponent("Fixtures/ics").appendingPathComponent(name)
}

/// A reader for `now` (ISO 8601) in `tz`.
func reader(now: String, tz: String = "Europe/Paris") throws -> CalendarReader {
    let zone = try CalendarZone(identifier: tz)
    guard let seconds = zone.parseISO8601(now) else {
        throw TestFailure("bad now \(now)")
    }
    return CalendarReader(zone: zone, window: .around(nowSeconds: seconds, zone: zone))
}

/// Reads calendar text given as a Swift string (lines joined with CRLF when `crlf`).
func read(_ text: String, now: String = "2026-03-25T12:00:00+01:00", tz: String = "Europe/Paris",
          name: String = "test.ics") throws -> IngestResult {
    try reader(now: now, tz: tz).read(bytes: Array(text.utf8), name: name)
}

/// A VCALENDAR around `body` lines, CRLF-terminated.
func calendar(_ body: [String], header: [String] = []) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//dictee//tests//EN"] + header + body
        + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
}

/// One VEVENT's lines.
func vevent(uid: String, _ lines: [String]) -> [String] {
    ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z"] + lines + ["END:VEVENT"]
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
