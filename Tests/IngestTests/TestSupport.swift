import DicteeCore
import Foundation
@testable import Ingest

/// The repository root, found from this file's path (Tests/IngestTests/TestSupport.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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

/// A small deterministic generator (SplitMix64) for property tests: the same seed, the same cases.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
