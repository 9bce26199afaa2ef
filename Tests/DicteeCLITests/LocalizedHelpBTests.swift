import DicteeCore
import Foundation
import Household
import Ingest
import PrivacyFilter
import Store
import Testing
@testable import DicteeCLI

/// The French interface of cards, pick, grade, skills, source, caldav, privacy, stats, library and
/// ingest, and of the errors of Household, Store and Ingest: every help and message in French when
/// the locale says so, no key missing, English unchanged without `LANG`, and `--json` the same in
/// both languages.
@Suite struct LocalizedHelpBTests {
    static let french = ["TZ": "Europe/Paris", "LANG": "fr_FR.UTF-8"]
    static let now = ["--now", "2026-11-29T18:00:00+01:00"]

    /// The commands of this part, with their types (the help is read at each use, in the current
    /// language).
    static let commands: [(name: String, type: any Command.Type)] = [
        ("cards", Dictee.Cards.self), ("pick", Dictee.Pick.self), ("grade", Dictee.GradeCommand.self),
        ("skills", Dictee.Skills.self), ("source", Dictee.SourceCommand.self), ("caldav", Dictee.CaldavCommand.self),
        ("privacy", Dictee.Privacy.self), ("stats", Dictee.Stats.self), ("library", Dictee.LibraryCommand.self),
        ("ingest", Dictee.IngestCommand.self),
    ]

    /// Runs `body` in French, recording the keys the French tables lack.
    static func inFrench<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let missing = MissingKeys()
        let value = try Language.$missingKeys.withValue(missing) { try Language.$current.withValue(.french) { try body() } }
        return (value, missing.all)
    }

    /// Runs `dictee ARGUMENTS` in French, recording missing keys.
    static func runFrench(_ arguments: [String], typed: [String]? = nil) -> (Captured, [String]) {
        let missing = MissingKeys()
        let result = Language.$missingKeys.withValue(missing) { runDictee(arguments, environment: french, typed: typed) }
        return (result, missing.all)
    }

    @Test("the help and summary in French, every option named, no key missing", arguments: commands.map(\.name))
    func helpInFrench(name: String) throws {
        let type = try #require(Self.commands.first { $0.name == name }?.type)
        let ((help, summary), missing) = Self.inFrench { (type.help, type.summary) }
        #expect(missing.isEmpty, "missing French keys: \(missing)")
        #expect(help.hasPrefix("usage : dictee"), "\(name): \(help.prefix(40))")
        #expect(help.contains("exemple"))
        for option in type.options.valued + type.options.flags {
            #expect(help.contains("--\(option)"), "the French help of \(name) does not name --\(option)")
        }
        #expect(help != type.help && summary != type.summary, "\(name): the French texts are the English ones")
        // English without LANG: the help as before.
        #expect(type.help.hasPrefix("usage: dictee") && type.help.contains("example:"))
        let english = runDictee([name, "--help"])
        #expect(english.code == .ok && english.stdout.hasPrefix("usage: dictee"))
    }

    /// A fresh state with Léa (CE1) and the fixture family's calendar, ingested in `environment`'s
    /// language; returns the state path and the ingest's result.
    static func freshState(french: Bool) throws -> (String, Captured) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-l10nb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("state.sqlite").path
        let environment = french ? Self.french : ["TZ": "Europe/Paris"]
        #expect(runDictee(["--state", state, "child", "add", "Léa", "--gender", "f", "--grade", "CE1"]).code == .ok)
        let ingest = runDictee(["--state", state, "ingest", fixture("famille.ics"), "--tz", "Europe/Paris"] + Self.now,
                               environment: environment)
        #expect(ingest.code == .ok, "\(ingest.stderr)")
        return (state, ingest)
    }

    @Test func theLoopSpeaksFrenchAndItsJSONDoesNot() throws {
        let (state, ingest) = try Self.freshState(french: true)
        let (englishState, englishIngest) = try Self.freshState(french: false)
        defer {
            for s in [state, englishState] { try? FileManager.default.removeItem(atPath: (s as NSString).deletingLastPathComponent) }
        }
        // The ingest's summary line and hint, in each language, from the one function.
        #expect(ingest.stdout.contains(" événements : ") && ingest.stdout.contains(" écartés, ") && ingest.stdout.contains(" à étiqueter, "),
                "\(ingest.stdout)")
        #expect(ingest.stderr.contains("lancez 'dictee review' pour étiqueter"), "\(ingest.stderr)")
        #expect(englishIngest.stdout.range(of: #"^[0-9]+ events: [0-9]+ moments, [0-9]+ disqualified, [0-9]+ to label, [0-9]+ errors?\n$"#,
                                           options: .regularExpression) != nil, "\(englishIngest.stdout)")

        // Cards and pick: the header and the hints in French; the JSON alike in both languages.
        let (cards, cardsMissing) = Self.runFrench(["--state", state, "cards", "--child", "Léa"] + Self.now)
        #expect(cards.code == .ok && cards.stdout.hasPrefix("Léa (CE1), choisis une dictée :"), "\(cards.stdout)")
        #expect(cards.stderr.contains("l'enfant en choisit une"))
        // The card's day follows the language (the moment is the family's French phrase in both).
        let englishCards = runDictee(["--state", state, "cards", "--child", "Léa"] + Self.now)
        #expect(cards.stdout.contains("— dimanche 29 novembre") && cards.stdout.contains(" (à venir)"), "\(cards.stdout)")
        #expect(englishCards.stdout.contains("— Sunday 29 November") && englishCards.stdout.contains(" (coming)")
                && !englishCards.stdout.contains("dimanche") && !englishCards.stdout.contains("à venir"), "\(englishCards.stdout)")
        let frenchJSON = runDictee(["--state", state, "cards", "--child", "Léa", "--json"] + Self.now, environment: Self.french)
        let englishJSON = runDictee(["--state", state, "cards", "--child", "Léa", "--json"] + Self.now)
        #expect(frenchJSON.code == .ok && frenchJSON.stdout == englishJSON.stdout)
        let (pick, pickMissing) = Self.runFrench(["--state", state, "pick", "--child", "Léa", "2"] + Self.now)
        let id = pick.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(pick.code == .ok && Int(id) != nil && pick.stderr.contains("lisez-la à voix haute avec 'dictee show \(id)'"), "\(pick.stderr)")
        let (badPick, _) = Self.runFrench(["--state", state, "pick", "--child", "Léa", "9"])
        #expect(badPick.code == .usage && badPick.stderr.contains("pick attend un numéro de carte, de 1 à 3"))

        // Grade: the error without a terminal, the prompt, the result.
        let (noTerminal, _) = Self.runFrench(["--state", state, "grade", id] + Self.now)
        #expect(noTerminal.code == .usage && noTerminal.stderr.contains("grade attend --missed N,N (ou --missed none) hors d'un terminal"))
        let (graded, gradeMissing) = Self.runFrench(["--state", state, "grade", id] + Self.now, typed: ["deux", "1"])
        #expect(graded.code == .ok, "\(graded.stderr)")
        #expect(graded.stdout.components(separatedBy: "Numéros des pièges où l'enfant s'est trompé (Entrée : aucun) : ").count == 3)
        #expect(graded.stdout.contains("tapez des numéros de 1 à") && graded.stdout.contains("dictée \(id) corrigée :"))
        #expect(graded.stdout.contains("(manqués : 1)") || graded.stdout.contains("(aucune faute)"))
        #expect(!graded.stdout.contains("no mistake") && !graded.stdout.contains("graded dictation"))

        // Skills: the states stay the pedagogy's words; the date and "from CE2" follow the language.
        let (skills, skillsMissing) = Self.runFrench(["--state", state, "skills", "--child", "Léa"])
        #expect(skills.stdout.contains("en cours\n") && skills.stdout.contains("non vu\n"), "\(skills.stdout)")
        #expect(skills.stdout.contains("vu le dim. 29 nov.") && skills.stdout.contains("à partir du CE2"), "\(skills.stdout)")
        #expect(!skills.stdout.contains("last seen") && !skills.stdout.contains("from CE"))
        let englishSkills = runDictee(["--state", state, "skills", "--child", "Léa"])
        #expect(englishSkills.stdout.contains("last seen Sun 29 Nov") && englishSkills.stdout.contains("from CE2"))
        #expect(runDictee(["--state", state, "skills", "--child", "Léa", "--json"], environment: Self.french).stdout
            == runDictee(["--state", state, "skills", "--child", "Léa", "--json"]).stdout)

        // Stats (nothing asked of a model): French, and the JSON alike.
        let (stats, statsMissing) = Self.runFrench(["--state", state, "stats"])
        #expect(stats.stdout.hasPrefix("aucun texte n'a encore été demandé à un modèle de langue"), "\(stats.stdout)")
        #expect(runDictee(["--state", state, "stats", "--json"], environment: Self.french).stdout
            == runDictee(["--state", state, "stats", "--json"]).stdout)

        // The ingest's JSON counts are the same in both languages.
        let frenchCounts = runDictee(["--state", state, "ingest", fixture("famille.ics"), "--json"] + Self.now, environment: Self.french)
        let englishCounts = runDictee(["--state", englishState, "ingest", fixture("famille.ics"), "--json"] + Self.now)
        #expect(frenchCounts.stdout == englishCounts.stdout && frenchCounts.stdout.hasPrefix("{"))

        for missing in [cardsMissing, pickMissing, gradeMissing, skillsMissing, statsMissing] {
            #expect(missing.isEmpty, "missing French keys: \(missing)")
        }
    }

    @Test func theIngestSummaryAgreesInEachLanguage() {
        var counts = AuditFile.Counts()
        counts.events = 1
        counts.moments = 1
        counts.disqualified = 1
        counts.toLabel = 2
        counts.errors = 0
        let (french, missing) = Self.inFrench { IngestReport.summary(counts) }
        #expect(french == "1 événement : 1 moment, 1 écarté, 2 à étiqueter, 0 erreur")
        #expect(missing.isEmpty)
        #expect(IngestReport.summary(counts) == "1 event: 1 moment, 1 disqualified, 2 to label, 0 errors")
        counts.disqualified = 48
        counts.errors = 3
        #expect(Self.inFrench { IngestReport.summary(counts) }.0 == "1 événement : 1 moment, 48 écartés, 2 à étiqueter, 3 erreurs")
    }

    @Test func privacySaysWhatIsSentInFrenchAndItsJSONInEnglish() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-l10nb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config.json").path
        try Data(#"{"model": {"endpoint": "http://127.0.0.1:8080/v1"}}"#.utf8).write(to: URL(fileURLWithPath: config))
        var environment = Self.french
        environment["DICTEE_CONFIG"] = config
        let missing = MissingKeys()
        let text = Language.$missingKeys.withValue(missing) { runDictee(["privacy"], environment: environment) }
        #expect(text.code == .ok)
        #expect(text.stdout.contains("envoyé à http://127.0.0.1:8080/v1 (cette machine) : les consignes (en français, écrites par dictee), le prénom de l'enfant"),
                "\(text.stdout)")
        #expect(text.stdout.contains("; jamais un titre, un lieu ou une description de l'agenda"))
        #expect(text.stdout.contains("aucune source d'agenda n'est configurée"))
        #expect(missing.all.isEmpty, "missing French keys: \(missing.all)")
        var english = environment
        english["LANG"] = nil
        #expect(runDictee(["privacy", "--json"], environment: environment).stdout == runDictee(["privacy", "--json"], environment: english).stdout)
        // Every field a request carries is said in French, and in English as the JSON lists it.
        for field in ModelRoute.requestFields {
            #expect(ModelRoute.forPeople(field) == field)
            #expect(Self.inFrench { ModelRoute.forPeople(field) }.0 != field, "no French for \"\(field)\"")
        }
    }

    @Test func errorsOfTheModulesAreInFrench() {
        let (texts, missing) = Self.inFrench {
            [
                IngestError.notACalendar(path: "x.ics").description,
                IngestError.unknownZone("Mars/Olympus").description,
                StoreError.locked(path: "state.sqlite").description,
                StoreError.newerSchema(path: "state.sqlite", found: 12, known: 9).description,
                HouseholdError.unknownChild(hasChildren: true).description,
                HouseholdError.noState(path: "/tmp/s.sqlite").description,
                ConfigError.wrongType(path: "c.json", key: "richer_texts", expected: "true ou false", found: "une chaîne").description,
            ]
        }
        #expect(missing.isEmpty, "missing French keys: \(missing)")
        #expect(texts == [
            "x.ics: pas un fichier iCalendar (aucun VCALENDAR ni VEVENT lisible)",
            "fuseau horaire inconnu 'Mars/Olympus' ; utilisez un nom IANA comme Europe/Paris",
            "state.sqlite: la base est verrouillée par un autre processus (sans doute une autre exécution de dictee) ; réessayez quand elle aura fini",
            "state.sqlite: cette base a été écrite par un dictee plus récent (version de schéma 12 ; ce dictee connaît jusqu'à la 9) ; conseil : mettez dictee à jour",
            "aucun enfant ne porte ce prénom",
            "/tmp/s.sqlite : pas encore d'état",
            "c.json : \"richer_texts\" doit être true ou false, pas une chaîne",
        ])
        // A configuration error read in French names the expected value in French.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-l10nb-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try? Data(#"{"richer_texts": "oui"}"#.utf8).write(to: URL(fileURLWithPath: config))
        var environment = Self.french
        environment["DICTEE_CONFIG"] = config
        let refused = runDictee(["privacy"], environment: environment)
        #expect(refused.code == .dataError && refused.stderr.contains("\"richer_texts\" doit être true ou false, pas une chaîne"), "\(refused.stderr)")
    }
}
