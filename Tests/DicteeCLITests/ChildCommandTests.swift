import DicteeCore
import Foundation
import Store
import Testing

/// `dictee child set | rename | remove | list` (issue 16): parsing, confirmation, messages in
/// English and in French.
@Suite struct ChildCommandTests {
    static let french = ["TZ": "Europe/Paris", "LANG": "fr_FR.UTF-8"]

    /// A fresh state with Léa (CE1) and Hugo (CM1), and one ready dictation for Léa.
    static func family() throws -> (dir: URL, state: String, lea: Int64, ready: Int64) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-child-cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("dictee.sqlite").path
        #expect(runDictee(["--state", state, "child", "add", "Léa", "--gender", "f", "--grade", "CE1"]).code == .ok)
        #expect(runDictee(["--state", state, "child", "add", "Hugo", "--gender", "m", "--grade", "CM1"]).code == .ok)
        let store = try StateStore(path: state)
        let lea = try #require(try store.children().first { $0.firstName == "Léa" }?.id)
        let ready = try store.addDictation(try ChildRecordsTests.dictation(lea, event: 1, text: "Léa nage. Elle est"))
        return (dir, state, lea, ready)
    }

    @Test func listShowsIdsGradesAndCounts() throws {
        let (dir, state, lea, _) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = runDictee(["--state", state, "child", "list"])
        #expect(text.code == .ok)
        #expect(text.stdout == "  2  Hugo                 m  CM1  0 served, 0 ready\n  1  Léa                  f  CE1  0 served, 1 ready\n")
        let json = runDictee(["--state", state, "child", "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let row = try #require(rows.first { $0["first_name"] as? String == "Léa" })
        #expect(row["id"] as? Int == Int(lea))
        #expect(row["grade"] as? String == "CE1")
        #expect(row["gender"] as? String == "f")
        #expect(row["served"] as? Int == 0)
        #expect(row["ready"] as? Int == 1)
        let fr = runDictee(["--state", state, "child", "list"], environment: Self.french)
        #expect(fr.stdout.contains("  1  Léa                  f  CE1  faites 0, prêtes 1\n"))
    }

    @Test func setChangesTheGradeAndSetsTheReadyTextsAside() throws {
        let (dir, state, _, ready) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = runDictee(["--state", state, "child", "set", "lea", "--grade", "ce2"])
        #expect(r.code == .ok, "\(r.stderr)")
        #expect(r.stdout == "Léa is now CE2 (f)\n1 ready dictation, written for the old grade, was set aside\n")
        #expect(r.stderr == "hint: the next 'dictee nightly' or 'dictee cards --child Léa' plans new ones for CE2\n")
        #expect(try StateStore(path: state).dictation(id: ready)?.status == .retired)
        let again = runDictee(["--state", state, "child", "set", "Léa", "--grade", "CE2"])
        #expect(again.stdout == "nothing changed: Léa is already CE2 (f)\n")
        let bad = runDictee(["--state", state, "child", "set", "Léa", "--grade", "CE3"])
        #expect(bad.code == .usage)
        #expect(bad.stderr.contains("--grade must be CP, CE1, CE2, CM1 or CM2"))
        let none = runDictee(["--state", state, "child", "set", "Léa"])
        #expect(none.code == .usage)
        #expect(none.stderr.contains("child set needs --grade, --gender or both"))
        let fr = runDictee(["--state", state, "child", "set", "Hugo", "--grade", "CM2", "--gender", "m"], environment: Self.french)
        #expect(fr.code == .ok)
        #expect(fr.stdout == "Hugo est maintenant en CM2 (m)\n")
    }

    @Test func anUnknownChildIsNamedWithASuggestionOrTheList() throws {
        let (dir, state, _, _) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let near = runDictee(["--state", state, "child", "set", "Hugi", "--grade", "CM2"])
        #expect(near.code == .usage)
        #expect(near.stderr == "error: no child named 'Hugi'\nhint: did you mean 'Hugo'?\n")
        let far = runDictee(["--state", state, "child", "remove", "Bartholomew", "--yes"])
        #expect(far.code == .usage)
        #expect(far.stderr == "error: no child named 'Bartholomew'\nhint: the children are: Hugo, Léa\n")
        let fr = runDictee(["--state", state, "child", "rename", "Hugi", "Hugues"], environment: Self.french)
        #expect(fr.stderr.contains("aucun enfant ne s'appelle 'Hugi'"))
        #expect(fr.stderr.contains("vouliez-vous dire 'Hugo' ?"))
        let action = runDictee(["--state", state, "child", "renmae", "Hugo", "Hugues"])
        #expect(action.stderr.contains("unknown action 'renmae'; did you mean 'rename'?"))
    }

    @Test func renameKeepsTheIdAndSetsTextsWithTheOldNameAside() throws {
        let (dir, state, lea, ready) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = runDictee(["--state", state, "child", "rename", "Léa", "Léonie"])
        #expect(r.code == .ok, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("renamed Léa to Léonie\n1 ready dictation with the old name was set aside"))
        let store = try StateStore(path: state)
        #expect(try store.children().first { $0.id == lea }?.firstName == "Léonie")
        #expect(try store.dictation(id: ready)?.status == .retired)
        let taken = runDictee(["--state", state, "child", "rename", "Léonie", "Hugo"])
        #expect(taken.code == .dataError)
        #expect(taken.stderr.contains("a child with this first name already exists"))
        // "Húgo" would be found as Hugo by every command: refused too, for add and rename.
        #expect(runDictee(["--state", state, "child", "rename", "Léonie", "Húgo"]).code == .dataError)
        #expect(runDictee(["--state", state, "child", "add", "Leonie", "--gender", "f", "--grade", "CP"]).code == .dataError)
        let notAName = runDictee(["--state", state, "child", "rename", "Léonie", "x1"])
        #expect(notAName.code == .usage)
    }

    @Test func renameWarnsAboutTheEventsWhoseTitleSaysTheOldName() throws {
        let (dir, state, _, _) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let now = ["--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"]
        #expect(runDictee(["--state", state, "ingest", fixture("famille.ics")] + now).code == .ok)
        func judoOwners() throws -> Set<String> {
            let store = try StateStore(path: state)
            return Set(try store.moments().filter { $0.basePhrase == "le cours de judo" }.map { $0.children.map(String.init).joined(separator: ",") })
        }
        let hugo = try #require(try StateStore(path: state).children().first { $0.firstName == "Hugo" }?.id)
        let owners = try judoOwners()
        #expect(owners.contains("\(hugo)"), "the fixture's 'Judo Hugo': \(owners)")
        let store = try StateStore(path: state)
        let readByName = try store.eventsReadByName(childID: hugo, name: "Hugo")
        #expect(readByName >= 1)
        let r = runDictee(["--state", state, "child", "rename", "Hugo", "Hugues"])
        #expect(r.code == .ok)
        #expect(r.stderr == "warning: if titles in the calendar say 'Hugo' (e.g. \"Judo Hugo\"), rename them there too: from the next ingest such a title is no longer read as Hugues's\nhint: to undo: dictee child rename Hugues Hugo\n", "\(r.stderr)")
        // What the warning says happens.
        #expect(runDictee(["--state", state, "ingest", fixture("famille.ics")] + now).code == .ok)
        let after = try judoOwners()
        #expect(!after.contains("\(hugo)") && after.contains(""), "'Judo Hugo' is the family's now: \(after)")
        let fr = runDictee(["--state", state, "child", "rename", "Léa", "Léonie"], environment: Self.french)
        #expect(fr.code == .ok && fr.stderr.contains("attention : si des titres de l'agenda disent 'Léa' (par ex. « Judo Léa »)"), "Léa's piano says Léa: \(fr.stderr)")
        // Accents or case only: titles are read as before, nothing to say; the same name changes nothing.
        let accents = runDictee(["--state", state, "child", "rename", "Léonie", "Leonie"])
        #expect(accents.code == .ok && accents.stderr.isEmpty, "\(accents.stderr)")
        let same = runDictee(["--state", state, "child", "rename", "Leonie", "Leonie"])
        #expect(same.code == .ok && same.stdout == "Leonie already has this first name; nothing changed\n" && same.stderr.isEmpty)
    }

    @Test func removeAsksOnATerminalAndNeedsYesElsewhere() throws {
        let (dir, state, lea, ready) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = runDictee(["--state", state, "child", "remove", "Léa"])
        #expect(script.code == .usage)
        #expect(script.stderr == "error: child remove erases records for good: run it on a terminal to confirm, or add --yes\n"
                + "hint: dictee child remove Léa --yes\n")
        let no = runDictee(["--state", state, "child", "remove", "Léa"], typed: ["n"])
        #expect(no.code == .ok)
        #expect(no.stdout.hasSuffix("This cannot be undone. [y/n] nothing removed\n"))
        #expect(try StateStore(path: state).children().count == 2)
        let frNo = runDictee(["--state", state, "child", "remove", "Léa"], environment: Self.french, typed: [])
        #expect(frNo.stdout.contains("C'est définitif. [o/n] \nrien n'a été effacé\n"))
        let yes = runDictee(["--state", state, "child", "remove", "Léa"], environment: Self.french, typed: ["o"])
        #expect(yes.code == .ok, "\(yes.stderr)")
        #expect(yes.stdout.contains("Léa : tout est effacé (dictées : 1, moments enregistrés : 0, noms donnés repris : 0"))
        #expect(yes.stdout.contains("la base a été compactée (VACUUM) : rien n'en reste dans les pages libres du fichier"))
        let store = try StateStore(path: state)
        #expect(try store.children().map(\.firstName) == ["Hugo"])
        #expect(try store.dictation(id: ready) == nil)
        #expect(try store.dictations(childID: lea).isEmpty)
        let forced = runDictee(["--state", state, "child", "remove", "Hugo", "--yes"])
        #expect(forced.code == .ok)
        #expect(forced.stdout.hasPrefix("removed Hugo (dictations: 0, stored moments: 0, labels taken back: 0;"))
        #expect(runDictee(["--state", state, "child", "list"]).stdout == "no child yet\n")
    }

    @Test func helpInBothLanguages() throws {
        let en = runDictee(["child", "--help"])
        #expect(en.stdout.contains("dictee child remove NAME [--yes]"))
        // The French text of the help (read from the table: `Dictee.commands` keeps the help of
        // the language of its first use, for every command alike, until the descriptors read it
        // lazily).
        let fr = try #require(StringTables.table(.french)["help.child"])
        #expect(fr.contains("usage : dictee child add PRÉNOM"))
        #expect(fr.contains("Demande confirmation dans un terminal"))
        #expect(fr.contains("--yes") && fr.contains("--json") && fr.contains("--grade") && fr.contains("--gender"))
    }
}
