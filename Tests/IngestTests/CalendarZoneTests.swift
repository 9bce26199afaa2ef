import DicteeCore
import Testing
@testable import Ingest

@Suite("CalendarZone: tzdata through libical, ISO 8601 in and out")
struct CalendarZoneTests {
    @Test("an unknown zone is refused", arguments: ["Mars/Olympus", "", "Europe/Pariss", "+01:00"])
    func unknown(_ name: String) {
        #expect(throws: IngestError.unknownZone(name)) { try CalendarZone(identifier: name) }
    }

    @Test("offsets in force at the instant, +00:00 for UTC", arguments: [
        ("Europe/Paris", "2026-03-29T00:30:00Z", "2026-03-29T01:30:00+01:00"),
        ("Europe/Paris", "2026-03-29T01:30:00Z", "2026-03-29T03:30:00+02:00"),
        ("America/New_York", "2026-11-01T06:30:00Z", "2026-11-01T01:30:00-05:00"),
        ("Asia/Kolkata", "2026-01-01T00:00:00Z", "2026-01-01T05:30:00+05:30"),
        ("UTC", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00+00:00"),
        ("Pacific/Chatham", "2026-01-01T00:00:00Z", "2026-01-01T13:45:00+13:45"),
    ])
    func format(_ zone: String, _ utc: String, _ expected: String) throws {
        let z = try CalendarZone(identifier: zone)
        let s = try #require(z.parseISO8601(utc))
        #expect(z.iso8601(.instant(s)) == expected)
    }

    @Test("all-day values print as plain dates")
    func dates() throws {
        let z = try CalendarZone(identifier: "Pacific/Auckland")
        #expect(z.iso8601(.date(CalendarDate(year: 2026, month: 3, day: 20))) == "2026-03-20")
    }

    @Test("--now forms: offset, Z, local, fraction, date", arguments: [
        ("2026-11-29T18:00:00+01:00", "2026-11-29T18:00:00+01:00"),
        ("2026-11-29T17:00:00Z", "2026-11-29T18:00:00+01:00"),
        ("2026-11-29T18:00:00", "2026-11-29T18:00:00+01:00"),
        ("2026-11-29T18:00:00.250+01:00", "2026-11-29T18:00:00+01:00"),
        ("2026-11-29T12:00:00-0500", "2026-11-29T18:00:00+01:00"),
        ("2026-11-29", "2026-11-29T00:00:00+01:00"),
    ])
    func parse(_ text: String, _ expected: String) throws {
        let z = try CalendarZone(identifier: "Europe/Paris")
        let s = try #require(z.parseISO8601(text))
        #expect(z.iso8601(.instant(s)) == expected)
    }

    @Test("malformed --now is refused", arguments: [
        "", "tomorrow", "2026-02-30T10:00:00Z", "2026-11-29T25:00:00Z", "2026-11-29T18:00:00+1",
        "2026-11-29T18:00:00+01:00junk", "20261129T180000Z",
    ])
    func malformed(_ text: String) throws {
        let z = try CalendarZone(identifier: "Europe/Paris")
        #expect(z.parseISO8601(text) == nil)
    }

    @Test("Windows zone names map through CLDR", arguments: [
        ("Romance Standard Time", "Europe/Paris"), ("W. Europe Standard Time", "Europe/Berlin"),
        ("Eastern Standard Time", "America/New_York"), ("GMT Standard Time", "Europe/London"),
        ("Tokyo Standard Time", "Asia/Tokyo"),
    ])
    func windows(_ windows: String, _ iana: String) {
        #expect(WindowsZones.ianaName(forWindowsName: windows) == iana)
    }

    @Test("unknown Windows names give nothing")
    func windowsUnknown() {
        #expect(WindowsZones.ianaName(forWindowsName: "Mars Standard Time") == nil)
        #expect(WindowsZones.ianaName(forWindowsName: "") == nil)
    }
}
