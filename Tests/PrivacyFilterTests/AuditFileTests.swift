@_spi(PrivacyFilter) import DicteeCore
import Foundation
import Testing
@testable import PrivacyFilter

@Suite("AuditFile: written, then verified line by line")
struct AuditFileTests {
    let filter = PrivacyFilter()

    func entries() -> [AuditFile.Entry] {
        let titles = ["Anniv de Tom", "annif Anaïs", "Piscine 10h", "Vacs chez papi", "WE chez Jules"]
        return titles.enumerated().compactMap { k, title in
            let o = Occurrence(uid: "u\(k)", summary: title, start: .instant(Int64(k) * 86_400),
                               end: .instant(Int64(k) * 86_400 + 3600), isRecurring: false,
                               source: SourceLocation(file: "f.ics", line: nil))
            guard case .moment(let m) = filter.filter(o) else { return nil }
            return AuditFile.Entry(moment: m, date: "2026-12-0\(k + 1)")
        }
    }

    func render(_ entries: [AuditFile.Entry]) -> String {
        AuditFile.render(
            whitelist: filter.whitelist,
            header: AuditFile.Header(
                window: AuditFile.Window(now: "2026-11-29T18:00:00+01:00", tz: "Europe/Paris",
                                         oneOffFrom: "2024-11-29T18:00:00+01:00", recurringFrom: "2026-11-22T18:00:00+01:00",
                                         to: "2026-12-13T18:00:00+01:00"),
                counts: AuditFile.Counts(events: 5, occurrences: 5, moments: entries.count)),
            entries: entries)
    }

    @Test("what dictee writes verifies, and carries no title")
    func roundTrip() {
        let e = entries()
        #expect(e.count == 5)
        let text = render(e)
        let report = AuditFile.verify(text, whitelist: filter.whitelist, labels: [])
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.lines == 5)
        #expect(!report.whitelistChanged)
        #expect(!text.contains("Anniv de Tom") && !text.contains("10h") && !text.contains("Vacs"))
        #expect(text.contains("\"phrase\":\"les vacances chez papi\""))
    }

    @Test("tampered lines are reported by number", arguments: [
        (#"{"date":"2026-12-01","phrase":"Anniv de Tom","first_name":"Tom","for":[],"rule":"M005","event_ref":"ev-0123456789ab"}"#, "phrase is not what rule"),
        (#"{"date":"2026-12-01","phrase":"l'anniversaire de Tom","first_name":"Tom","for":[],"rule":"M005","event_ref":"ev-0123456789ab","title":"x"}"#, "keys other than"),
        (#"{"date":"2026-12-01","phrase":"l'anniversaire de tom chez le dentiste","first_name":"tom chez le dentiste","for":[],"rule":"M005","event_ref":"ev-0123456789ab"}"#, "first_name is not a name the filter captures"),
        (#"{"date":"2026-12-01","phrase":"l'anniversaire d'Hôpital","first_name":"Hôpital","for":[],"rule":"M005","event_ref":"ev-0123456789ab"}"#, "first_name is not a name the filter captures"),
        (#"{"date":"2026-12-01","phrase":"Chimio","phrase":"la sortie piscine","first_name":null,"for":[],"rule":"M001","event_ref":"ev-0123456789ab"}"#, "not exactly what dictee writes"),
        (#"{"date":"2026-12-01", "phrase":"la sortie piscine","first_name":null,"for":[],"rule":"M001","event_ref":"ev-0123456789ab"}"#, "not exactly what dictee writes"),
        (#"{"date":"2026-02-30","phrase":"la sortie piscine","first_name":null,"for":[],"rule":"M001","event_ref":"ev-0123456789ab"}"#, "date is not"),
        (#"{"date":"2026-12-01","phrase":"la sortie piscine","first_name":null,"for":[],"rule":"M001","event_ref":"Piscine avec Tom"}"#, "event_ref"),
        (#"{"date":"2026-12-01","phrase":"rdv chez le notaire","first_name":null,"for":[],"rule":"label","event_ref":"ev-0123456789ab"}"#, "not a label the parent gave"),
        (#"{"date":"2026-12-01","phrase":"la sortie piscine","first_name":null,"for":[],"rule":"M999","event_ref":"ev-0123456789ab"}"#, "not a whitelist id"),
        ("Dentiste Léa 14h", "not a JSON object"),
    ])
    func tampered(_ line: String, _ reason: String) {
        var text = render(entries())
        text += line + "\n"
        let report = AuditFile.verify(text, whitelist: filter.whitelist, labels: ["la sortie au parc"])
        // Line 1 also reports that the header counted 5 moments, not 6.
        #expect(report.problems.map(\.line) == [7, 1])
        #expect(report.problems.first?.reason.contains(reason) == true, "\(report.problems)")
    }

    @Test("with the state's owners, a for naming real children but not the recorded ones is reported")
    func owners() {
        let family = PrivacyFilter(family: issueFamily)
        let titles = ["Anniv de Tom", "Judo Noah", "Piscine Inès et Noah", "Piscine Noah"]
        let entries = titles.enumerated().compactMap { k, title -> AuditFile.Entry? in
            let o = Occurrence(uid: "o\(k)", summary: title, start: .instant(Int64(k) * 86_400),
                               end: .instant(Int64(k) * 86_400 + 3600), isRecurring: false,
                               source: SourceLocation(file: "f.ics", line: nil))
            guard case .moment(let m) = family.filter(o) else { return nil }
            return AuditFile.Entry(moment: m, date: "2026-12-0\(k + 1)", family: issueFamily)
        }
        #expect(entries.map(\.children) == [[], ["Noah"], ["Inès", "Noah"], ["Noah"]])
        var owners: [String: Set<[String]>] = [:]
        for e in entries {
            owners[AuditFile.ownerKey(eventReference: e.moment.eventReference.description, date: e.date), default: []]
                .insert(e.children)
        }
        let text = render(entries)
        let names: Set<String> = ["Inès", "Noah"]
        #expect(AuditFile.verify(text, whitelist: filter.whitelist, labels: [], children: names, owners: owners).problems.isEmpty)
        for (from, to, line) in [
            (#""for":[]"#, #""for":["Noah"]"#, 2),
            (#""for":["Inès","Noah"]"#, #""for":["Noah","Inès"]"#, 4),
            (#""for":["Inès","Noah"]"#, #""for":["Inès"]"#, 4),
            (#""for":["Noah"],"rule":"M018""#, #""for":["Inès"],"rule":"M018""#, 3),
        ] {
            let tampered = text.replacingOccurrences(of: from, with: to)
            #expect(tampered != text)
            let report = AuditFile.verify(tampered, whitelist: filter.whitelist, labels: [], children: names, owners: owners)
            #expect(report.problems.map(\.line) == [line], "\(to)")
            #expect(report.problems.first?.reason == "for is not whose moment the state recorded for this occurrence")
            // Without the state's owners, real children's names pass.
            #expect(AuditFile.verify(tampered, whitelist: filter.whitelist, labels: [], children: names).problems.isEmpty)
        }
        // Two occurrences of one series on one date: either recorded list is accepted.
        let key = AuditFile.ownerKey(eventReference: entries[1].moment.eventReference.description, date: "2026-12-02")
        var two = owners
        two[key, default: []].insert(["Inès"])
        let other = text.replacingOccurrences(of: #""for":["Noah"],"rule":"M018""#, with: #""for":["Inès"],"rule":"M018""#)
        #expect(AuditFile.verify(other, whitelist: filter.whitelist, labels: [], children: names, owners: two).problems.isEmpty)
        // An occurrence the state does not hold.
        let report = AuditFile.verify(text, whitelist: filter.whitelist, labels: [], children: names, owners: [:])
        #expect(report.problems.map(\.line) == [2, 3, 4, 5])
    }

    @Test("a first name Lexique knows as a common noun is reported, as the filter refuses to capture it; a child's name is not",
          arguments: ["Police", "Leucémie", "Meunier"])
    func commonNounAsName(_ name: String) throws {
        let line = #"{"date":"2026-12-01","phrase":"l'anniversaire de \#(name)","first_name":"\#(name)","for":[],"rule":"M005","event_ref":"ev-0123456789ab"}"#
        var text = render(entries())
        text += line + "\n"
        let lexicon = try checkoutLexicon()
        let report = AuditFile.verify(text, whitelist: filter.whitelist, labels: [], commonWords: lexicon)
        #expect(report.problems.map(\.line) == [7, 1])
        #expect(report.problems.first?.reason.contains("first_name is not a name the filter captures") == true, "\(report.problems)")
        // The same line names a child of the state: the family's own name is kept ("Police" is a
        // forbidden-register word, never a name at all).
        let asChild = AuditFile.verify(text, whitelist: filter.whitelist, labels: [], children: [name], commonWords: lexicon)
        #expect(asChild.problems.contains { $0.line == 7 && $0.reason.contains("first_name") } == !filter.acceptsName(name),
                "\(asChild.problems)")
        // Without the lexicon the name is not listed either: reported the same way.
        #expect(AuditFile.verify(text, whitelist: filter.whitelist, labels: []).problems.map(\.line) == [7, 1])
    }

    @Test("a parent's label verifies when the state knows it")
    func labels() {
        let line = #"{"date":"2026-12-01","phrase":"la sortie au parc","first_name":null,"for":[],"rule":"label","event_ref":"ev-0123456789ab"}"#
        var one = entries()
        one.removeLast(4)
        let text = render(one).replacingOccurrences(of: "\"moments\":1,", with: "\"moments\":2,") + line + "\n"
        #expect(AuditFile.verify(text, whitelist: filter.whitelist, labels: ["la sortie au parc"]).problems.isEmpty)
        #expect(AuditFile.verify(text, whitelist: filter.whitelist, labels: []).problems.map(\.line) == [3])
    }

    @Test("a header from another whitelist, or carrying anything else, is an offending line 1")
    func changedWhitelist() {
        let text = render(entries()).replacingOccurrences(of: filter.whitelist.momentsDigest, with: String(repeating: "0", count: 64))
        let report = AuditFile.verify(text, whitelist: filter.whitelist, labels: [])
        #expect(report.whitelistChanged)
        #expect(report.problems.map(\.line) == [1])
        for tampered in [
            render(entries()).replacingOccurrences(of: "\"version\":1", with: "\"version\":true"),
            render(entries()).replacingOccurrences(of: "\"tz\":\"Europe/Paris\"", with: "\"tz\":\"Europe/Paris\",\"note\":\"Dentiste Léa\""),
            render(entries()).replacingOccurrences(of: "{\"format\"", with: "{\"format\":\"x\",\"format\""),
        ] {
            #expect(AuditFile.verify(tampered, whitelist: filter.whitelist, labels: []).problems.map(\.line) == [1])
        }
    }

    @Test("the header records the digest of every rule file that changes decisions, and verify checks each",
          arguments: ["moments.tsv", "disqualifiers.txt", "parents.txt", "given-names.txt", "held.txt", "registers.txt"])
    func everyDigest(_ file: String) throws {
        let text = render(entries())
        let digest = try #require(filter.whitelist.digests.first { $0.file == file }?.sha256)
        let w = filter.whitelist
        let digests: [String] = w.digests.map { "\"\($0.file)\":\"\($0.sha256)\"" }
        let expected: String = "{\"format\":\"dictee-audit\",\"version\":1,\"whitelist\":{" + digests.joined(separator: ",") + "},"
        let pairs: [(String, String)] = [("moments.tsv", w.momentsDigest), ("disqualifiers.txt", w.disqualifiersDigest),
                                         ("parents.txt", w.parentsDigest), ("given-names.txt", w.givenNamesDigest),
                                         ("held.txt", w.heldDigest), ("registers.txt", w.registersDigest)]
        let want: [String] = pairs.map { "\"\($0.0)\":\"\($0.1)\"" }
        #expect(digests == want)
        #expect(text.hasPrefix(expected))
        let tampered = text.replacingOccurrences(of: "\"\(file)\":\"\(digest)\"", with: "\"\(file)\":\"" + String(repeating: "0", count: 64) + "\"")
        #expect(tampered != text)
        let report = AuditFile.verify(tampered, whitelist: filter.whitelist, labels: [])
        #expect(report.whitelistChanged)
        #expect(report.problems.map(\.line) == [1])
        #expect(report.problems.first?.reason.contains(file) == true)
    }

    @Test("a header with only the two digests of older files is a changed whitelist, not a valid header")
    func olderHeader() {
        let text = render(entries())
        let w = filter.whitelist
        let old = text.replacingOccurrences(
            of: ",\"parents.txt\":\"\(w.parentsDigest)\",\"given-names.txt\":\"\(w.givenNamesDigest)\"", with: "")
        #expect(old != text)
        let report = AuditFile.verify(old, whitelist: w, labels: [])
        #expect(report.whitelistChanged)
        #expect(report.problems.map(\.line) == [1])
        #expect(report.problems.first?.reason.contains("parents.txt and given-names.txt") == true)
        let extra = text.replacingOccurrences(of: "\"moments.tsv\":", with: "\"notes.txt\":\"x\",\"moments.tsv\":")
        #expect(AuditFile.verify(extra, whitelist: w, labels: []).problems.map(\.line) == [1])
    }

    @Test("a repeated line, a missing final line feed, a date outside the window, a wrong count")
    func structure() {
        let text = render(entries())
        let lines = text.split(separator: "\n").map(String.init)
        let repeated = text + lines[2] + "\n"
        #expect(AuditFile.verify(repeated, whitelist: filter.whitelist, labels: []).problems.map(\.line) == [7, 1])
        #expect(AuditFile.verify(String(text.dropLast()), whitelist: filter.whitelist, labels: []).problems.map(\.line) == [6])
        let late = text.replacingOccurrences(of: "\"date\":\"2026-12-01\"", with: "\"date\":\"2031-12-01\"")
        #expect(AuditFile.verify(late, whitelist: filter.whitelist, labels: []).problems.map(\.line) == [2])
    }

    @Test("the header's window must be the one dictee computes, in a real zone")
    func window() {
        let text = render(entries())
        for (from, to) in [
            ("\"tz\":\"Europe/Paris\"", "\"tz\":\"Hôpital de Léa\""),
            ("\"one_off_from\":\"2024-11-29T18:00:00+01:00\"", "\"one_off_from\":\"1990-11-29T18:00:00+01:00\""),
            ("\"now\":\"2026-11-29T18:00:00+01:00\"", "\"now\":\"2026-11-29T18:00:00+05:00\""),
            ("\"to\":\"2026-12-13T18:00:00+01:00\"", "\"to\":\"2036-12-13T18:00:00+01:00\""),
        ] {
            let tampered = text.replacingOccurrences(of: from, with: to)
            #expect(tampered != text)
            #expect(AuditFile.verify(tampered, whitelist: filter.whitelist, labels: []).problems.map(\.line).contains(1), "\(to)")
        }
        let swapped = text.split(separator: "\n").map(String.init)
        let reordered = ([swapped[0], swapped[2], swapped[1]] + swapped[3...]).joined(separator: "\n") + "\n"
        #expect(AuditFile.verify(reordered, whitelist: filter.whitelist, labels: []).problems.map(\.line) == [3])
    }

    @Test("CRLF files are read line by line (numbers stay right)")
    func crlf() {
        let text = render(entries()).replacingOccurrences(of: "\n", with: "\r\n")
        let report = AuditFile.verify(text, whitelist: filter.whitelist, labels: [])
        #expect(report.problems.first?.line == 1)
        #expect(report.problems.count == 6)
    }
}
