import Foundation
import Testing
@testable import DicteeCLI
import DicteeCore
import DicteeTestSupport

/// The French interface of events, classify, check, review, suggestions and audit, of the overview
/// and of the shared messages (errors, hints, option errors): every text in French with
/// `LANG=fr_FR.UTF-8` and no key missing from the tables; English unchanged without `LANG`; the
/// `--json` output the same in both languages.
@Suite struct LocalizedHelpATests {
    static let commands = ["events", "classify", "check", "review", "suggestions", "audit"]
    static let french = ["LANG": "fr_FR.UTF-8", "TZ": "Europe/Paris"]

    /// Runs `dictee arguments` recording the keys the French tables lack.
    static func run(_ arguments: [String], environment: [String: String] = french, typed: [String]? = nil)
        -> (result: Captured, missing: [String])
    {
        let missing = MissingKeys()
        let result = Language.$missingKeys.withValue(missing) {
            runDictee(arguments, environment: environment, typed: typed)
        }
        return (result, missing.all)
    }

    /// A state holding the ingested fixture calendar (158 events wait for a label), in a new folder.
    static func ingestedState() -> (folder: URL, state: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-fr-\(UUID().uuidString)")
        let state = folder.appendingPathComponent("s.sqlite").path
        let ingest = runDictee(["--state", state, "ingest", fixture("famille.ics"),
                                "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"])
        #expect(ingest.code == .ok, "\(ingest.stderr)")
        return (folder, state)
    }

    @Test("each command's --help is French, with its options and example, and no key missing", arguments: commands)
    func frenchHelp(command: String) throws {
        let (french, missing) = Self.run([command, "--help"])
        #expect(french.code == .ok)
        #expect(missing.isEmpty, "keys without French: \(missing)")
        #expect(french.stdout.hasPrefix("usage : dictee"))
        #expect(french.stdout.contains("\nexemple :\n"))
        for english in ["usage:", "example:", "options:", "exit status", " the ", " and ", " with "] {
            #expect(!french.stdout.contains(english), "'dictee \(command) --help' in French still has \"\(english)\"")
        }
        // The option names never change with the language.
        let descriptor = try #require(Dictee.commands.first { $0.name == command })
        for option in descriptor.options.valued + descriptor.options.flags {
            #expect(french.stdout.contains("--\(option)"), "'dictee \(command) --help' in French does not name --\(option)")
        }
        // `help COMMAND` says the same.
        #expect(Self.run(["help", command]).result.stdout == french.stdout)
    }

    @Test("the overview is French, with these commands' summaries; a later English run gets English again")
    func overviewFollowsTheLanguageOfEachRun() {
        let english = runDictee(["--help"], environment: [:])
        let (french, missing) = Self.run(["--help"])
        #expect(missing.isEmpty, "keys without French: \(missing)")
        #expect(french.stdout.contains("usage : dictee <commande> [options]"))
        #expect(french.stdout.contains("\ncommandes :\n"))
        #expect(french.stdout.contains("  events       liste les occurrences de fichiers .ics"))
        #expect(french.stdout.contains("  review       étiquette ou rejette, un par un,"))
        #expect(french.stdout.contains("  audit        résume et vérifie un fichier d'audit"))
        #expect(!french.stdout.contains("list the occurrences"))
        // `Dictee.commands` is built once per process: the texts are read at each run.
        #expect(english.stdout.contains("usage: dictee <command> [options]"))
        #expect(english.stdout.contains("  events       list the occurrences of .ics files"))
        #expect(runDictee(["--help"], environment: [:]).stdout == english.stdout)
        #expect(runDictee(["events", "--help"], environment: [:]).stdout.hasPrefix("usage: dictee events FILE..."))
    }

    @Test("errors, hints and the command line's own messages are French")
    func frenchErrors() {
        let option = Self.run(["events", fixture("famille.ics"), "--jsno"])
        #expect(option.result.code == .usage)
        #expect(option.missing.isEmpty, "keys without French: \(option.missing)")
        #expect(option.result.stderr == """
            erreur : option inconnue '--jsno' ; vouliez-vous dire '--json' ?
            conseil : 'dictee events --help' explique l'utilisation

            """)
        let command = Self.run(["evnets"])
        #expect(command.result.code == .usage)
        #expect(command.result.stderr.contains("erreur : commande inconnue 'evnets' ; vouliez-vous dire 'events' ?"))
        #expect(command.result.stderr.contains("conseil : 'dictee --help' liste les commandes"))
        let check = Self.run(["check", "--child", "Léa", "texte.txt"])
        #expect(check.result.code == .usage)
        #expect(check.result.stderr.contains("erreur : check demande --moment EXPRESSION"))
        let now = Self.run(["events", fixture("famille.ics"), "--now", "hier"])
        #expect(now.result.stderr.contains("erreur : --now : 'hier' n'est pas une date et heure ISO 8601 valide"))
        #expect(now.missing.isEmpty, "keys without French: \(now.missing)")
        let warning = Self.run(["events", fixture("famille.ics"), "--now", "2026-11-29T17:00:00Z"],
                               environment: ["LANG": "fr_FR.UTF-8", "TZ": "CET-1CEST"])
        #expect(warning.result.stderr.contains("attention : TZ='CET-1CEST' n'est pas un nom de fuseau IANA"))
        let summary = Self.run(["events", fixture("famille.ics"), "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"])
        #expect(summary.result.code == .ok)
        #expect(summary.missing.isEmpty, "keys without French: \(summary.missing)")
        #expect(summary.result.stderr.hasSuffix("456 événements : 429 occurrences dans la fenêtre, 0 erreur\n"))
        #expect(summary.result.stdout.contains("  ponctuel   ") && summary.result.stdout.contains("  récurrent  "))
        let english = runDictee(["events", fixture("famille.ics"), "--jsno"])
        #expect(english.stderr == """
            error: unknown option '--jsno'; did you mean '--json'?
            hint: run 'dictee events --help' for usage

            """)
    }

    @Test("review asks in French and takes the French letters (and the English ones)")
    func frenchReview() throws {
        let (folder, state) = Self.ingestedState()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (review, missing) = Self.run(["--state", state, "review", "--tz", "Europe/Paris"],
                                         typed: ["é", "la fête des voisins", "r", "x", "p", "s", "l", "le dîner chez Mamie", "q"])
        #expect(review.code == .ok, "\(review.stderr)")
        #expect(missing.isEmpty, "keys without French: \(missing)")
        #expect(review.stdout.contains("[é]tiqueter, [r]ejeter, [p]asser, [q]uitter ? "))
        #expect(review.stdout.contains("vos mots (par ex. le dîner chez Mamie) : "))
        #expect(review.stdout.range(of: #"événement [0-9]+ étiqueté : la fête des voisins \(fete, pour toute la famille ; "#, options: .regularExpression) != nil)
        #expect(review.stdout.contains("rejeté : plus jamais proposé"))
        #expect(review.stdout.contains("étiquetés : 2, rejetés : 1"))
        #expect(!review.stdout.contains("[l]abel"))
        // In English the French letters are not answers: "é" is asked again, then q quits.
        let english = runDictee(["--state", state, "review", "--tz", "Europe/Paris"], environment: [:], typed: ["é", "q"])
        #expect(english.stdout.components(separatedBy: "[l]abel, [r]eject, [s]kip, [q]uit? ").count - 1 == 2)
        #expect(english.stdout.hasSuffix("0 labeled, 0 rejected\n"))
    }

    @Test("suggestions list writes French weekdays and words; --json is the same in both languages")
    func frenchSuggestions() throws {
        let (folder, state) = Self.ingestedState()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (list, missing) = Self.run(["--state", state, "suggestions", "list"])
        #expect(list.code == .ok)
        #expect(missing.isEmpty, "keys without French: \(missing)")
        let weekdays = ["lun.", "mar.", "mer.", "jeu.", "ven.", "sam.", "dim."]
        #expect(weekdays.contains { list.stdout.contains(" \($0) ") })
        for english in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "one-off", "recurring", "all day"] {
            #expect(!list.stdout.contains(english), "suggestions list in French still has \"\(english)\"")
        }
        #expect(list.stdout.contains("ponctuel") || list.stdout.contains("récurrent"))
        #expect(list.stderr.contains("conseil : pour en étiqueter un : dictee suggestions label ID"))
        let english = runDictee(["--state", state, "suggestions", "list"])
        #expect(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].contains { english.stdout.contains(" \($0) ") })
        #expect(english.stderr.contains("hint: label one: dictee suggestions label ID"))
        // The same lines, word for word apart: as many, and the same ids.
        #expect(list.stdout.split(separator: "\n").map { $0.prefix(4) } == english.stdout.split(separator: "\n").map { $0.prefix(4) })
        let frenchJSON = Self.run(["--state", state, "suggestions", "list", "--json", "--all"]).result
        let englishJSON = runDictee(["--state", state, "suggestions", "list", "--json", "--all"])
        #expect(frenchJSON.stdout == englishJSON.stdout)
        #expect(frenchJSON.stdout.contains("\"status\":\"pending\""))
        let classify = ["classify", "--json", "Anniv de Tom", "Dentiste Léa", "Truc"]
        #expect(Self.run(classify).result.stdout == runDictee(classify).stdout)
    }

    @Test("classify and audit write their words in French")
    func frenchClassifyAndAudit() throws {
        let classify = Self.run(["classify", "Anniv de Tom", "Dentiste Léa", "Truc"])
        #expect(classify.missing.isEmpty, "keys without French: \(classify.missing)")
        let lines = classify.result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("moment          ") == true)
        #expect(lines.contains { $0.hasPrefix("écarté          D") })
        #expect(lines.last == "sans étiquette")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-fr-audit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("s.sqlite").path
        let audit = folder.appendingPathComponent("audit.jsonl").path
        let ingest = runDictee(["--state", state, "ingest", fixture("famille.ics"), "--audit", audit,
                                "--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"])
        #expect(ingest.code == .ok, "\(ingest.stderr)")
        let englishFile = try Data(contentsOf: URL(fileURLWithPath: audit))
        let french = Self.run(["--state", state, "audit", audit, "--verify"])
        #expect(french.result.code == .ok, "\(french.result.stderr)")
        #expect(french.missing.isEmpty, "keys without French: \(french.missing)")
        #expect(french.result.stdout.contains("fenêtre : maintenant "))
        #expect(french.result.stdout.contains("nombres : 456 événements, 429 occurrences, 177 moments, 92 écartés, 160 sans étiquette, 158 à étiqueter, 0 erreur\n"))
        #expect(french.result.stdout.contains("vérifié : chaque ligne est une expression de la liste"))
        let english = runDictee(["--state", state, "audit", audit, "--verify"])
        #expect(english.stdout.contains("counts: 456 events, 429 occurrences, 177 moments, 92 disqualified, 160 unlabeled, 158 to label, 0 errors\n"))
        // The audit file never changes with the language, and --json neither.
        #expect(try Data(contentsOf: URL(fileURLWithPath: audit)) == englishFile)
        #expect(Self.run(["--state", state, "audit", audit, "--verify", "--json"]).result.stdout
                == runDictee(["--state", state, "audit", audit, "--verify", "--json"]).stdout)
    }
}
