import DicteeCore
import DicteeTestSupport
import Foundation
import PrivacyFilter
import Store
import Testing

/// The seeded generator (SplitMix64): the same seed, the same calendars.
typealias Seeded = SeededGenerator

@Suite("Privacy properties over generated calendars")
struct PrivacyPropertyTests {
    /// Pseudo-words that occur nowhere else: if one shows up in an output, raw text leaked.
    static func noiseWord(_ rng: inout Seeded) -> String {
        let syllables = ["zor", "blu", "quim", "vax", "tre", "plo", "gnu", "fyx", "draw", "kel", "muz", "ojo"]
        return (0..<3).map { _ in syllables[Int(rng.next() % UInt64(syllables.count))] }.joined()
    }

    static func givenName(_ rng: inout Seeded) -> String {
        let n = noiseWord(&rng)
        return n.prefix(1).uppercased() + n.dropFirst()
    }

    static func cased(_ s: String, _ rng: inout Seeded) -> String {
        switch rng.next() % 3 {
        case 0: return s.uppercased()
        case 1: return s.prefix(1).uppercased() + s.dropFirst()
        default: return s
        }
    }

    /// A seeded calendar of 40 events mixing whitelist forms, disqualifiers, birthdays with
    /// invented names, noise words, times, places and descriptions: the raw text to keep out.
    static func calendar(seed: Int) -> (ics: String, titles: [(title: String, location: String, description: String)]) {
        var rng = Seeded(seed: UInt64(seed) &* 1_000_003 &+ 17)
        let whitelist = Whitelist.bundled
        var events: [String] = []
        var titles: [(title: String, location: String, description: String)] = []
        for k in 0..<40 {
            var parts: [String] = []
            switch rng.next() % 4 {
            case 0: parts.append(Self.cased(whitelist.forms[Int(rng.next() % UInt64(whitelist.forms.count))].form, &rng))
            case 1: parts.append(whitelist.disqualifiers[Int(rng.next() % UInt64(whitelist.disqualifiers.count))].text)
            case 2: parts += ["Anniv", "de", Self.givenName(&rng)]
            default: break
            }
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let insert = rng.next() % 3 == 0 ? Self.givenName(&rng) : Self.noiseWord(&rng)
                parts.insert(insert, at: Int(rng.next() % UInt64(parts.count + 1)))
            }
            if rng.next() % 5 == 0 { parts.append("\(8 + Int(rng.next() % 10))h30") }
            let title = parts.joined(separator: rng.next() % 2 == 0 ? " " : " - ")
            let location = rng.next() % 3 == 0 ? "\(Self.noiseWord(&rng)) \(Self.givenName(&rng))" : ""
            let description = rng.next() % 3 == 0 ? Self.noiseWord(&rng) : ""
            titles.append((title, location, description))
            let day = 20 + Int(rng.next() % 20)
            let start = day <= 30 ? String(format: "202611%02dT1%01d0000", day, Int(rng.next() % 9))
                : String(format: "202612%02dT1%01d0000", day - 30, Int(rng.next() % 9))
            var lines = ["BEGIN:VEVENT", "UID:\(Self.noiseWord(&rng))-\(k)@example.org",
                         "DTSTART;TZID=Europe/Paris:\(start)", "SUMMARY:\(title)"]
            if !location.isEmpty { lines.append("LOCATION:\(location)") }
            if !description.isEmpty { lines.append("DESCRIPTION:\(description)") }
            if rng.next() % 4 == 0 { lines.append("RRULE:FREQ=WEEKLY;COUNT=4") }
            if rng.next() % 8 == 0 { lines.append("DTEND:garbage\(Self.noiseWord(&rng))") }
            lines.append("END:VEVENT")
            events += lines
        }
        let ics = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN"] + events + ["END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
        return (ics, titles)
    }

    /// Tokens that may appear anywhere: those of canonical phrases, and names the filter captured.
    static func allowedTokens(_ titles: [(title: String, location: String, description: String)]) -> Set<String> {
        var allowed = Set(Whitelist.bundled.forms.flatMap { Normalizer.tokens($0.phrase).map(\.folded) })
        for t in titles {
            if let name = PrivacyFilter().classify(title: t.title, location: t.location, description: t.description).firstName {
                allowed.insert(Normalizer.fold(name))
            }
        }
        return allowed
    }

    @Test("no raw token outside canonical phrases and captured names reaches the audit file, the database or stderr (25 seeded calendars)",
          arguments: 0..<25)
    func nothingLeaks(seed: Int) throws {
        let (ics, titles) = Self.calendar(seed: seed)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-prop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("cal.ics")
        try Data(ics.utf8).write(to: file)
        let state = dir.appendingPathComponent("state.sqlite").path
        let audit = dir.appendingPathComponent("audit.jsonl").path
        let r = runDictee(["--state", state, "ingest", file.path, "--audit", audit,
                           "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"])
        #expect(r.code == .ok || r.code == .itemErrors)
        let suggestions = runDictee(["--state", state, "suggestions", "list", "--json"])
        #expect(suggestions.code == .ok)
        // Every fifth calendar also goes through the cards: the stored dictations, their sites and
        // the cards' output hold no raw token either.
        var cards = Captured(code: .ok, stdout: "", stderr: "")
        if seed % 5 == 0 {
            #expect(runDictee(["--state", state, "child", "add", "Lou", "--gender", "f", "--grade", "CE2"]).code == .ok)
            cards = runDictee(["--state", state, "cards", "--child", "Lou", "--json", "--now", "2026-11-29T18:00:00+01:00"])
            #expect(cards.code == .ok || cards.code == .dataError, "\(cards.stderr)")
            if cards.code == .ok, let id = try StateStore(path: state).dictations(childID: 1).first?.id {
                let show = runDictee(["--state", state, "show", String(id)])
                cards.stdout += show.stdout
                cards.stderr += show.stderr
            }
        }

        // What may appear: tokens of canonical phrases, and names the filter captured.
        let allowed = Self.allowedTokens(titles)
        let outputs = [
            "audit": try String(contentsOfFile: audit, encoding: .utf8),
            "database": try StateStore(path: state).dump(),
            "stderr": r.stderr + suggestions.stderr + cards.stderr, "stdout": r.stdout + suggestions.stdout + cards.stdout,
        ]
        let outputTokens = outputs.mapValues { Set(Normalizer.tokens($0).map(\.folded)) }
        for t in titles {
            let raw = Normalizer.tokens(t.title + " " + t.location + " " + t.description).map(\.folded)
            for token in raw where token.count > 3 && !allowed.contains(token) {
                for (name, tokens) in outputTokens {
                    #expect(!tokens.contains(token), "'\(token)' from a raw title leaked into the \(name)")
                }
            }
        }
        // UIDs never reach the outputs either (only their hash).
        for (name, text) in outputs {
            #expect(!text.contains("@example.org"), "a UID leaked into the \(name)")
        }
    }
}
