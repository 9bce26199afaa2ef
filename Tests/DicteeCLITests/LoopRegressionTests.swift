import DicteeCore
import Foundation
import Testing
@testable import Dictation

/// Regressions from the adversarial run on the loop (cards, pick, show, grade).
@Suite struct LoopRegressionTests {
    static let now = ["--now", "2026-11-29T18:00:00+01:00"]

    func state() throws -> (dir: URL, state: String, calendar: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-reg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let calendar = dir.appendingPathComponent("cal.ics").path
        try FileManager.default.copyItem(atPath: fixture("famille.ics"), toPath: calendar)
        let state = dir.appendingPathComponent("state.sqlite").path
        #expect(runDictee(["--state", state, "child", "add", "Léa", "--gender", "f", "--grade", "CE1"]).code == .ok)
        #expect(runDictee(["--state", state, "ingest", calendar, "--tz", "Europe/Paris"] + Self.now).code == .ok)
        #expect(runDictee(["--state", state, "cards", "--child", "Léa"] + Self.now).code == .ok)
        return (dir, state, calendar)
    }

    @Test func anEmptyMissedListIsRefusedNotGradedClean() throws {
        let (dir, state, _) = try state()
        defer { try? FileManager.default.removeItem(at: dir) }
        let id = runDictee(["--state", state, "pick", "--child", "Léa", "1"] + Self.now).stdout.trimmingCharacters(in: .newlines)
        for bad in ["", ",", ",,", " ", "1,,2", "1,"] {
            let r = runDictee(["--state", state, "grade", id, "--missed", bad] + Self.now)
            #expect(r.code == .usage, "--missed '\(bad)': \(r.stdout)")
        }
        #expect(runDictee(["--state", state, "grade", id, "--missed", " NONE "] + Self.now).code == .ok)
    }

    @Test func pickRefusesACardWhoseMomentLeftTheCalendar() throws {
        let (dir, state, calendar) = try state()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nEND:VCALENDAR\r\n".utf8).write(to: URL(fileURLWithPath: calendar))
        #expect(runDictee(["--state", state, "ingest", calendar, "--tz", "Europe/Paris"] + Self.now).code == .ok)
        let r = runDictee(["--state", state, "pick", "--child", "Léa", "1"] + Self.now)
        #expect(r.code == .dataError)
        #expect(r.stderr.contains("no longer in the calendar") && r.stdout.isEmpty)
    }

    @Test func htmlIsNeverRenamedOverADirectoryOrAReadOnlyFile() throws {
        let (dir, state, _) = try state()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(runDictee(["--state", state, "show", "1", "--html", dir.path]).code == .ioError, "a directory cannot be written: 74")
        let readOnly = dir.appendingPathComponent("ro.html").path
        try Data("OLD".utf8).write(to: URL(fileURLWithPath: readOnly))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)
        if getuid() != 0 {
            #expect(runDictee(["--state", state, "show", "1", "--html", readOnly]).code == .ioError)
            #expect(try String(contentsOfFile: readOnly, encoding: .utf8) == "OLD")
        }
        // An existing page (a longer one) is replaced whole; a symlink
        // keeps pointing at it. A file that is not a page is refused (WeekSheetsTests).
        let target = dir.appendingPathComponent("page.html").path
        try Data(("<!DOCTYPE html>\n" + String(repeating: "x", count: 100_000) + "</html>\n").utf8).write(to: URL(fileURLWithPath: target))
        let link = dir.appendingPathComponent("link.html").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(runDictee(["--state", state, "show", "1", "--html", link]).code == .ok)
        let page = try String(contentsOfFile: target, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n") && !page.contains("xxxx"))
        #expect((try FileManager.default.destinationOfSymbolicLink(atPath: link)) == target)
    }

    @Test func aLabelNamingTheChildIsNotOfferedToThatChild() {
        let grammar = PhraseGrammar(gender: .masculine, number: .singular, headNoun: "anniversaire")
        let moments = ["l'anniversaire de Léa", "l’anniversaire d'Léa", "le spectacle de LÉA", "l'anniversaire de Léane", "la fête"].enumerated().map {
            CardMoment(key: OccurrenceKey(event: EventReference("ev-00000000000\($0.offset)")!, start: .instant(100)), moment: MomentPhrase(phrase: $0.element, grammar: grammar), start: .instant(100), startSeconds: 100)
        }
        let lea = Child(firstName: "Léa", gender: .feminine, grade: .ce1)
        #expect(CardChoice.order(moments, child: lea, now: 200).map(\.moment.phrase) == ["l'anniversaire de Léane", "la fête"])
        let hugo = Child(firstName: "Hugo", gender: .masculine, grade: .ce1)
        #expect(CardChoice.order(moments, child: hugo, now: 200).count == 5)
    }
}
