import Foundation
import Testing
import DicteeTestSupport

/// Runs the built `dictee` binary (Scripts/test builds it first) and compares stdout, stderr and
/// the exit status with golden files in Fixtures/golden/. `RECORD_SNAPSHOTS=1` re-records them.
@Suite("End to end: the built binary against golden files")
struct EndToEndTests {
    /// `DICTEE_BIN`, else the `dictee` built beside this test bundle (same configuration), else
    /// `.build/debug/dictee`.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["DICTEE_BIN"] {
            return URL(fileURLWithPath: path)
        }
        var dir = URL(fileURLWithPath: ProcessInfo.processInfo.arguments.first ?? "")
        for _ in 0..<4 {
            dir = dir.deletingLastPathComponent()
            let candidate = dir.appendingPathComponent("dictee")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return repositoryRoot.appendingPathComponent(".build/debug/dictee")
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var arguments: [String]
        var status: Int32
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "events_famille", arguments: [
            "events", "Fixtures/famille.ics", "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris",
        ], status: 0),
        Case(name: "events_famille_json", arguments: [
            "events", "Fixtures/famille.ics", "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris",
            "--json",
        ], status: 0),
        Case(name: "events_bad_input", arguments: [
            "events", "Fixtures/ics/bad_impossible_date.ics", "Fixtures/ics/bad_broken_rrule.ics",
            "Fixtures/ics/bad_garbage_value.ics", "--now", "2026-03-25T12:00:00+01:00", "--tz", "Europe/Paris",
        ], status: 1),
        Case(name: "events_not_a_calendar", arguments: [
            "events", "Package.swift", "Fixtures/ics/dtend_basic.ics", "--now", "2026-03-25T12:00:00+01:00",
            "--tz", "Europe/Paris",
        ], status: 65),
        Case(name: "usage_typo", arguments: ["evnets", "Fixtures/famille.ics"], status: 64),
        Case(name: "events_structure_noise", arguments: [
            "events", "Fixtures/ics/file_end_before_begin.ics", "--now", "2026-03-25T12:00:00+01:00",
            "--tz", "Europe/Paris",
        ], status: 0),
    ]

    /// The parent's flow on one fresh state: $STATE and $AUDIT stand for temporary paths.
    static let flow: [Case] = [
        Case(name: "flow_1_child_add", arguments: ["--state", "$STATE", "child", "add", "Léa", "--gender", "f", "--grade", "CE1"], status: 0),
        Case(name: "flow_2_child_list", arguments: ["--state", "$STATE", "child", "list"], status: 0),
        Case(name: "flow_3_ingest", arguments: [
            "--state", "$STATE", "ingest", "Fixtures/famille.ics", "--audit", "$AUDIT",
            "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris",
        ], status: 0),
        Case(name: "flow_4_audit", arguments: ["--state", "$STATE", "audit", "$AUDIT", "--verify"], status: 0),
        Case(name: "flow_5_suggestions_list", arguments: ["--state", "$STATE", "suggestions", "list", "--tz", "Europe/Paris"], status: 0),
        Case(name: "flow_6_label", arguments: ["--state", "$STATE", "suggestions", "label", "1", "le dîner chez Mamie", "--for", "léa"], status: 0),
        Case(name: "flow_7_label_refused", arguments: ["--state", "$STATE", "suggestions", "label", "2", "Dentiste"], status: 65),
        Case(name: "flow_7b_label_medical", arguments: ["--state", "$STATE", "suggestions", "label", "2", "la pharmacie de garde"], status: 65),
        Case(name: "flow_7c_label_markup", arguments: ["--state", "$STATE", "suggestions", "label", "2", "<script>alert(1)</script>"], status: 65),
        Case(name: "flow_7e_label_unknown_child", arguments: ["--state", "$STATE", "suggestions", "label", "2", "la fête des Lumières", "--for", "Zoé"], status: 64),
        Case(name: "flow_7e2_label_names_its_child", arguments: ["--state", "$STATE", "suggestions", "label", "2", "le goûter de Léa", "--for", "Léa"], status: 65),
        Case(name: "flow_7f_reject", arguments: ["--state", "$STATE", "suggestions", "reject", "2"], status: 0),
        Case(name: "flow_8_reingest", arguments: [
            "--state", "$STATE", "ingest", "Fixtures/famille.ics", "--audit", "$AUDIT",
            "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris",
        ], status: 0),
        Case(name: "flow_9_audit_json", arguments: ["--state", "$STATE", "audit", "$AUDIT", "--verify", "--json"], status: 0),
        Case(name: "flow_10_list_all_json", arguments: ["--state", "$STATE", "suggestions", "list", "--all", "--json", "--tz", "Europe/Paris"], status: 0),
        Case(name: "flow_11_unlabel", arguments: ["--state", "$STATE", "suggestions", "unlabel", "1"], status: 0),
        Case(name: "flow_12_unreject", arguments: ["--state", "$STATE", "suggestions", "unreject", "2"], status: 0),
        Case(name: "flow_13_unreject_again", arguments: ["--state", "$STATE", "suggestions", "unreject", "2"], status: 65),
        Case(name: "flow_14_list_all", arguments: ["--state", "$STATE", "suggestions", "list", "--all", "--tz", "Europe/Paris"], status: 0),
    ]

    /// The flow's languages: English (no `LANG`, golden files in Fixtures/golden/) and French
    /// (`LANG=fr_FR.UTF-8`, golden files in Fixtures/golden/fr/). The audit file is the same.
    static let languages: [String?] = [nil, "fr_FR.UTF-8"]

    @Test("the parent's flow: child, ingest, audit, suggestions, label (golden files)", arguments: languages)
    func parentFlow(language: String?) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-flow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for step in Self.flow {
            var c = step
            c.arguments = c.arguments.map {
                $0.replacingOccurrences(of: "$STATE", with: dir.appendingPathComponent("state.sqlite").path)
                    .replacingOccurrences(of: "$AUDIT", with: dir.appendingPathComponent("audit.jsonl").path)
            }
            try golden(c, language: language)
        }
        let audit = try String(contentsOf: dir.appendingPathComponent("audit.jsonl"), encoding: .utf8)
        let expected = try String(
            contentsOf: repositoryRoot.appendingPathComponent("Fixtures/golden/flow_audit.jsonl"), encoding: .utf8)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try Data(audit.utf8).write(to: repositoryRoot.appendingPathComponent("Fixtures/golden/flow_audit.jsonl"))
        } else {
            #expect(audit == expected)
        }
    }

    @Test("stdout, stderr and exit status", arguments: cases)
    func golden(_ c: Case) throws { try golden(c, language: nil) }

    func golden(_ c: Case, language: String?) throws {
        let binary = Self.binary
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "\(binary.path) is missing: run Scripts/test (it builds the binary first)")
        let (status, stdout, stderr) = try runBuiltDictee(binary, c.arguments, language: language)
        #expect(status == c.status, "\(c.name) \(language ?? "")")

        let dir = repositoryRoot.appendingPathComponent(language == nil ? "Fixtures/golden" : "Fixtures/golden/fr")
        let outFile = dir.appendingPathComponent("\(c.name).stdout")
        let errFile = dir.appendingPathComponent("\(c.name).stderr")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try stdout.write(to: outFile)
            try stderr.write(to: errFile)
            return
        }
        let wantOut = try Data(contentsOf: outFile)
        let wantErr = try Data(contentsOf: errFile)
        #expect(String(decoding: stdout, as: UTF8.self) == String(decoding: wantOut, as: UTF8.self))
        #expect(String(decoding: stderr, as: UTF8.self) == String(decoding: wantErr, as: UTF8.self))
    }
}
