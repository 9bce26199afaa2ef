import DicteeCLI
import Foundation
import Testing

/// `dictee check`: the validator on a text someone wrote; the JSON contract and exit codes.
@Suite struct CheckCommandTests {
    static let good = """
        Samedi, Léa est allée à la sortie piscine avec sa classe. Elle a mis son maillot bleu et \
        elle a nagé avec ses amies. L'eau était chaude. À midi, les enfants ont mangé des pommes au \
        bord du bassin. Le soir, Léa est rentrée à la maison. Elle a raconté sa journée à sa famille.
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
        // The phrase with its friend's name is this moment (a text about a swim is not about a
        // birthday: moment_sujet says so, and only that).
        #expect(!a.stdout.contains("parler du moment") && !a.stdout.contains("contraction"), "\(a.stdout)")
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

    /// `--moment` takes a parent's label (issue 12): a noun phrase with its article, read with
    /// Lexique, its kind from the head noun or `--kind`.
    @Test func aLabelIsAMoment() throws {
        let text = """
            Ce mercredi, Léa dessine le dîner chez Mamie. Elle a une grande feuille et ses crayons de couleur. \
            Il y a du bleu, du jaune et du rouge partout ! Sa famille regarde le dessin : il est magnifique. \
            Léa l'accroche à côté de son lit, dans sa chambre.
            """
        let label = ["check", "--child", "Léa", "--grade", "CE2", "--gender", "f", "--moment", "le dîner chez Mamie"]
        let r = runDictee(label + ["--skills", "homophones_a_a,homophones_et_est", try write(text)])
        #expect(r.code == .ok, "\(r.stdout) \(r.stderr)")
        let kind = runDictee(label + ["--kind", "general", try write(text)])
        #expect(kind.code == .ok, "\(kind.stdout) \(kind.stderr)")
        // The label's grammar reaches the moment step: "au dîner", never "à le dîner".
        let wrong = runDictee(label + [try write(text.replacingOccurrences(of: "dessine le dîner", with: "pense à le dîner"))])
        #expect(wrong.code == .itemErrors)
        #expect(wrong.stdout.contains("moment: Écris « au dîner chez Mamie » et non « à le dîner chez Mamie »."), "\(wrong.stdout)")
    }

    @Test func aRefusedLabelOrKindIsAUsageErrorThatSaysWhy() throws {
        let path = try write(Self.good)
        let base = ["check", "--child", "Léa", "--grade", "CE2", "--gender", "f", "--moment"]
        let medical = runDictee(base + ["la pharmacie de garde", path])
        #expect(medical.code == .usage)
        #expect(medical.stderr.contains("'pharmacie' is a medical word (forbidden register 'medical'): dictee never writes about health"), "\(medical.stderr)")
        let capitals = runDictee(base + ["LA FÊTE DE L'ÉCOLE!!! 🎉", path])
        #expect(capitals.code == .usage && capitals.stderr.contains("emoji"), "\(capitals.stderr)")
        let markup = runDictee(base + ["<script>alert(1)</script>", path])
        #expect(markup.code == .usage && markup.stderr.contains("markup"), "\(markup.stderr)")
        let noArticle = runDictee(base + ["fete musique", path])
        #expect(noArticle.code == .usage && noArticle.stderr.contains("'fete' is neither a word of the French lexicon"), "\(noArticle.stderr)")
        let kind = runDictee(base + ["le dîner chez Mamie", "--kind", "sortei", path])
        #expect(kind.code == .usage)
        #expect(kind.stderr.contains("unknown kind 'sortei'; did you mean 'sortie'?"), "\(kind.stderr)")
        let missing = runDictee(base + ["le dîner chez Mamie", path], environment: ["TZ": "Europe/Paris", "DICTEE_LEXICON": "/nonexistent/lexique.bin"])
        #expect(missing.code == .unavailable, "\(missing.stderr)")
    }
}
