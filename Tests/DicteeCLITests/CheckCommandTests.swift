import DicteeCLI
import Foundation
import Testing

/// `dictee check`: the validator on a text someone wrote; the JSON contract and exit codes.
@Suite struct CheckCommandTests {
    static let good = """
        Samedi, Léa est allée à la sortie piscine avec sa classe. Elle a mis son maillot bleu et \
        elle a nagé avec ses amies. L'eau était chaude. À midi, les enfants ont mangé des pommes au \
        bord du bassin. Le soir, Léa est rentrée à la maison. Elle a raconté sa journée à son papa.
        """

    func write(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString).txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    let base = ["check", "--child", "Léa", "--grade", "CE2", "--gender", "f", "--moment", "la sortie piscine"]

    @Test func aPassingTextExitsZero() throws {
        let r = runDictee(base + ["--skills", "homophones_a_a,accord_pp_etre", try write(Self.good)])
        #expect(r.code == .ok, "\(r.stdout) \(r.stderr)")
        #expect(r.stdout == "ok: the text passes the eight steps for CE2\n")
        let j = runDictee(base + ["--json", try write(Self.good)])
        #expect(j.stdout == "{\"passed\":true,\"findings\":[]}\n")
    }

    @Test func aFailingTextPrintsEachStepAndExitsOne() throws {
        let text = Self.good.replacingOccurrences(of: "Léa est allée", with: "Léa est allé").replacingOccurrences(of: "pommes", with: "pomes")
        let r = runDictee(base + [try write(text)])
        #expect(r.code == .itemErrors)
        #expect(r.stdout.contains("prenom: Léa est une fille : écris « Léa est allée » et non « Léa est allé »."))
        #expect(r.stdout.contains("orthographe_grammaire: Ce mot est mal orthographié : « pomes »"))
        let j = runDictee(base + ["--json", try write(text)])
        #expect(j.code == .itemErrors)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["passed", "findings"])
        #expect(object["passed"] as? Bool == false)
        let findings = try #require(object["findings"] as? [[String: String]])
        #expect(findings.allSatisfy { Set($0.keys) == ["step", "rule", "message"] })
        #expect(findings.contains { $0["step"] == "prenom" && $0["rule"] == "prenom_accord" })
        #expect(findings.contains { $0["rule"] == "hunspell" })
        #expect(findings.map { $0["step"]! }.contains("prenom"))
        #expect(Set(findings.map { $0["step"]! }).isSubset(of: ["vocabulaire", "temps", "longueur", "registre", "competences", "prenom", "moment", "orthographe_grammaire"]))
    }

    @Test func usageErrorsNameWhatIsWrong() throws {
        let path = try write(Self.good)
        let moment = runDictee(["check", "--child", "Léa", "--grade", "CE2", "--gender", "f", "--moment", "la sortie piscin", path])
        #expect(moment.code == .usage)
        #expect(moment.stderr.contains("did you mean 'la sortie piscine'?"))
        let skill = runDictee(base + ["--skills", "homophones_a", path])
        #expect(skill.code == .usage)
        #expect(skill.stderr.contains("unknown skill 'homophones_a'; did you mean 'homophones_a_a'?"))
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString).sqlite").path
        let child = runDictee(["--state", state, "check", "--child", "Zoé", "--moment", "la sortie piscine", path])
        #expect(child.code == .usage)
        #expect(child.stderr.contains("no child named 'Zoé'"))
        #expect(!FileManager.default.fileExists(atPath: state))
        let missing = runDictee(base + ["/nonexistent/texte.txt"])
        #expect(missing.code == .dataError)
        #expect(missing.stderr.contains("/nonexistent/texte.txt: cannot read the file"))
    }

    @Test func aStoredChildGivesGradeAndGender() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString).sqlite").path
        #expect(runDictee(["--state", state, "child", "add", "Léa", "--gender", "f", "--grade", "CE2"]).code == .ok)
        let r = runDictee(["--state", state, "check", "--child", "Léa", "--moment", "la sortie piscine", try write(Self.good)])
        #expect(r.code == .ok, "\(r.stdout)")
        // A friend's name in a slot phrase: "l'anniversaire de Tom".
        let anniv = Self.good.replacingOccurrences(of: "à la sortie piscine", with: "à l'anniversaire de Tom")
        let a = runDictee(["--state", state, "check", "--child", "Léa", "--moment", "l'anniversaire de Tom", try write(anniv)])
        #expect(!a.stdout.contains("moment:"), "\(a.stdout)")
    }

    @Test func refusalsFromTheReview() throws {
        let path = try write(Self.good)
        let notTaught = runDictee(["check", "--child", "Léa", "--grade", "CE1", "--gender", "f", "--moment", "la sortie piscine",
                                   "--skills", "accord_pp_etre", path])
        #expect(notTaught.code == .usage)
        #expect(notTaught.stderr.contains("accord_pp_etre is taught from CE2 on; a CE1 text cannot target it"))
        for bad in ["léa", "L3a", "N'Golo", String(repeating: "A", count: 300)] {
            let r = runDictee(["check", "--child", bad, "--grade", "CE2", "--gender", "f", "--moment", "la sortie piscine", path])
            #expect(r.code == .usage, "\(bad)")
        }
        let big = try write(String(repeating: "Léa nage. ", count: 12_000))
        let tooBig = runDictee(base + [big])
        #expect(tooBig.code == .dataError)
        #expect(tooBig.stderr.contains("a dictation text has at most 100000 bytes"))
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("none-\(UUID().uuidString).sqlite").path
        let noState = runDictee(["--state", state, "check", "--child", "Léa", "--moment", "la sortie piscine", path])
        #expect(noState.code == .usage)
        #expect(!noState.stderr.contains("dictee ingest"))
        #expect(noState.stderr.contains("give --grade and --gender"))
    }
}
