import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import DicteeCLI

/// A week of sheets (issue 16, item 5): `dictee show ID ID… --html PATH` puts several dictations in
/// one page, the children's pages first and the parent's after, one per printed sheet; `dictee
/// sheets --child NAME --next N --html PATH` serves and prints the next N dictations exactly as N
/// picks of card 1 would. Run in process on the fixture family.
@Suite("A week of sheets: show ID ID… --html, sheets --next N")
struct WeekSheetsTests {
    static let now = ["--now", "2026-11-29T18:00:00+01:00"]
    static let french = ["TZ": "Europe/Paris", "LANG": "fr_FR.UTF-8"]

    /// A fresh state in a temporary folder: Léa (CE1), Hugo (CM1), the fixture calendar ingested.
    static func family() throws -> (dir: URL, state: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-week-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("state.sqlite").path
        #expect(runDictee(["--state", state, "child", "add", "Léa", "--gender", "f", "--grade", "CE1"]).code == .ok)
        #expect(runDictee(["--state", state, "child", "add", "Hugo", "--gender", "m", "--grade", "CM1"]).code == .ok)
        let ingest = runDictee(["--state", state, "ingest", fixture("famille.ics"), "--tz", "Europe/Paris"] + now)
        try #require(ingest.code == .ok, "\(ingest.stderr)")
        return (dir, state)
    }

    /// `dictee cards` then `dictee pick --child NAME 1`: the id served.
    static func pickFirst(_ child: String, _ state: String) throws -> String {
        let cards = runDictee(["--state", state, "cards", "--child", child] + now)
        try #require(cards.code == .ok, "\(cards.stderr)")
        let pick = runDictee(["--state", state, "pick", "--child", child, "1"] + now)
        try #require(pick.code == .ok, "\(pick.stderr)")
        return pick.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The kinds of the page's sections, in order (`enfant`, `parent`).
    static func sections(_ html: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "<section class=\"(enfant|parent)\"")
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
            String(html[Range($0.range(at: 1), in: html)!])
        }
    }

    /// Where `needle` first is in `html` (fails the test when it is not there).
    static func offset(_ needle: String, in html: String) -> Int {
        guard let r = html.range(of: needle) else {
            Issue.record("the page has no \(needle)")
            return -1
        }
        return html.distance(from: html.startIndex, to: r.lowerBound)
    }

    /// What a self-contained page must not hold: nothing runs, nothing is fetched, no font.
    static func callsOut(_ html: String) -> [String] {
        let lower = html.lowercased()
        return ["<script", "http", "@font-face", "url(", "<link", "src=", "<img", "<iframe"].filter { lower.contains($0) }
    }

    @Test("several ids make one page: the children's pages in the order given, then the parent's; one sheet each")
    func severalIdsInOnePage() throws {
        let (dir, state) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lea = try Self.pickFirst("Léa", state), hugo = try Self.pickFirst("Hugo", state)
        let page = dir.appendingPathComponent("semaine.html").path
        let shown = runDictee(["--state", state, "show", hugo, lea, "--html", page])
        #expect(shown.code == .ok, "\(shown.stderr)")
        #expect(shown.stdout == "wrote \(page)\n")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        // Four sections, children's first: 2n printed pages, a page break before all but the first.
        #expect(Self.sections(html) == ["enfant", "enfant", "parent", "parent"])
        #expect(html.contains(".enfant + .enfant, .parent { break-before: page; page-break-before: always; }"))
        #expect(html.components(separatedBy: "<section").count - 1 == 4)
        // The order of the ids, in both halves: Hugo, then Léa.
        #expect(Self.offset("<p class=\"qui\">Hugo — ", in: html) < Self.offset("<p class=\"qui\">Léa — ", in: html))
        #expect(Self.offset("<p class=\"meta\">Hugo — ", in: html) < Self.offset("<p class=\"meta\">Léa — ", in: html))
        #expect(Self.offset("<p class=\"qui\">Léa — ", in: html) < Self.offset("<section class=\"parent\"", in: html))
        #expect(Self.callsOut(html).isEmpty, "the page calls out: \(Self.callsOut(html))")
        #expect(DictationLoopTests.totalScore(in: html) == nil)
        // One id alone: the same page as before, one child's page and one parent's.
        let single = dir.appendingPathComponent("une.html").path
        #expect(runDictee(["--state", state, "show", lea, "--html", single]).code == .ok)
        #expect(Self.sections(try String(contentsOfFile: single, encoding: .utf8)) == ["enfant", "parent"])
        // On stdout, a form feed between two dictations; JSON, one object a line.
        let copies = runDictee(["--state", state, "show", lea, hugo, "--sheet"])
        #expect(copies.code == .ok)
        #expect(copies.stdout.components(separatedBy: "\u{0C}\n").count == 2)
        let json = runDictee(["--state", state, "show", lea, hugo, "--json"])
        #expect(json.code == .ok)
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("{\"dictation\":\(lea),") == true)
        #expect(lines.last?.hasPrefix("{\"dictation\":\(hugo),") == true)
    }

    @Test("an unknown id is named and nothing is written; a word that is no id is named")
    func unknownIdIsNamed() throws {
        let (dir, state) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lea = try Self.pickFirst("Léa", state)
        let page = dir.appendingPathComponent("semaine.html").path
        let r = runDictee(["--state", state, "show", lea, "9999", "--html", page])
        #expect(r.code == .usage)
        #expect(r.stderr.contains("no dictation 9999"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: page))
        let word = runDictee(["--state", state, "show", lea, "douze"])
        #expect(word.code == .usage)
        #expect(word.stderr.contains("'douze' is not a dictation id"), "\(word.stderr)")
        let none = runDictee(["--state", state, "show"])
        #expect(none.code == .usage)
    }

    @Test("sheets --next 3 serves and prints what three picks of card 1 serve, in the same order")
    func sheetsEqualsThreePicks() throws {
        let (dirA, stateA) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dirA) }
        let (dirB, stateB) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dirB) }
        let page = dirA.appendingPathComponent("semaine-lea.html").path
        let sheets = runDictee(["--state", stateA, "sheets", "--child", "Léa", "--next", "3", "--html", page] + Self.now)
        #expect(sheets.code == .ok, "\(sheets.stderr)")
        let lines = sheets.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "wrote \(page)")
        let printed = lines.dropLast().map { String($0.split(separator: " ")[0]) }
        var picked: [String] = []
        for _ in 0..<3 { picked.append(try Self.pickFirst("Léa", stateB)) }
        #expect(printed.count == 3)
        #expect(printed == picked)
        // The moments and texts are the same too, not only the ids.
        for (a, b) in zip(printed, picked) {
            #expect(runDictee(["--state", stateA, "show", a, "--json"]).stdout == runDictee(["--state", stateB, "show", b, "--json"]).stdout)
        }
        // One page, three sheets, built as 'show' builds it.
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(Self.sections(html) == ["enfant", "enfant", "enfant", "parent", "parent", "parent"])
        let again = dirA.appendingPathComponent("again.html").path
        #expect(runDictee(["--state", stateA, "show"] + printed + ["--html", again]).code == .ok)
        #expect(html == (try String(contentsOfFile: again, encoding: .utf8)))
        #expect(Self.callsOut(html).isEmpty, "the page calls out: \(Self.callsOut(html))")
        #expect(DictationLoopTests.totalScore(in: html) == nil)
        // Served: each can be graded, and the next cards do not offer them again.
        let cards = runDictee(["--state", stateA, "cards", "--child", "Léa", "--json"] + Self.now)
        #expect(cards.code == .ok, "\(cards.stderr)")
        for id in printed { #expect(!cards.stdout.contains("\"dictation\":\(id),")) }
        let grade = runDictee(["--state", stateA, "grade", printed[0], "--missed", "none"] + Self.now)
        #expect(grade.code == .ok, "\(grade.stderr)")
    }

    @Test("sheets refuses a bad --next, a missing --html and an unwritable page before serving anything")
    func sheetsUsage() throws {
        let (dir, state) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("p.html").path
        for next in ["0", "21", "trois"] {
            let r = runDictee(["--state", state, "sheets", "--child", "Léa", "--next", next, "--html", page] + Self.now)
            #expect(r.code == .usage, "--next \(next)")
            #expect(r.stderr.contains("--next needs a number of dictations, 1 to 20"))
        }
        #expect(runDictee(["--state", state, "sheets", "--child", "Léa", "--next", "2"] + Self.now).code == .usage)
        let folder = runDictee(["--state", state, "sheets", "--child", "Léa", "--html", dir.path] + Self.now)
        #expect(folder.code == .ioError)
        // A page in a folder that does not exist: refused before serving (74, the folder named).
        let served = runDictee(["--state", state, "history", "--child", "Léa", "--json"]).stdout
        let missingFolder = dir.appendingPathComponent("absent/p.html").path
        let noFolder = runDictee(["--state", state, "sheets", "--child", "Léa", "--html", missingFolder] + Self.now)
        #expect(noFolder.code == .ioError && noFolder.stderr.contains("absent"), "\(noFolder.stderr)")
        // The state itself (or any file that is not a page) given as the page: never overwritten.
        let before = try Data(contentsOf: URL(fileURLWithPath: state))
        for command in [["sheets", "--child", "Léa", "--next", "1"] + Self.now, ["show", "1"], ["report", "--child", "Léa"] + Self.now] {
            let r = runDictee(["--state", state] + command + ["--html", state])
            #expect(r.code == .ioError && r.stderr.contains("not an HTML page"), "\(command): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
        #expect(runDictee(["--state", state, "child", "list"]).code == .ok)
        #expect(runDictee(["--state", state, "history", "--child", "Léa", "--json"]).stdout == served, "nothing served")
        // Nothing was served: the first pick is still card 1 of a fresh deal.
        let cards = runDictee(["--state", state, "cards", "--child", "Léa", "--json"] + Self.now)
        #expect(cards.code == .ok)
        let unknown = runDictee(["--state", state, "sheets", "--child", "Zoé", "--html", page] + Self.now)
        #expect(unknown.code == .usage)
    }

    @Test("in French: messages, help and the parent's pages in French; the child's pages French in English too")
    func frenchRun() throws {
        let (dir, state) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = MissingKeys()
        let page = dir.appendingPathComponent("semaine.html").path
        let (sheets, bad) = Language.$missingKeys.withValue(missing) {
            (runDictee(["--state", state, "sheets", "--child", "Léa", "--next", "2", "--html", page] + Self.now, environment: Self.french),
             runDictee(["--state", state, "show", "douze"], environment: Self.french))
        }
        // The helps as the command types give them (`Dictee.commands` keeps the texts of the
        // language of its first use in a process, so a test reads the types).
        let (help, help2) = Language.$missingKeys.withValue(missing) {
            Language.$current.withValue(.french) { (Dictee.Sheets.help, Dictee.Show.help) }
        }
        #expect(missing.all.isEmpty, "untranslated: \(missing.all)")
        #expect(help.contains("Imprime une semaine de dictées d'un coup"))
        #expect(help.contains("(5 par défaut, 20 au plus)"))
        #expect(help2.contains("usage : dictee show ID [ID...]"))
        #expect(bad.stderr.contains("« douze » n'est pas un identifiant de dictée"), "\(bad.stderr)")
        #expect(sheets.code == .ok, "\(sheets.stderr)")
        #expect(sheets.stdout.hasSuffix("\(page) écrit\n"))
        #expect(sheets.stderr.contains("les dictées sont servies"))
        // A French short day on each line: "lun. 30 nov.".
        #expect(sheets.stdout.split(separator: "\n").first?.contains(".") == true)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<section class=\"parent\">\n<h2>Pour le parent : les pièges à vérifier</h2>"))
        #expect(html.contains("Pour dicter : lire d&#39;abord tout le texte"))
        #expect(html.contains("<p class=\"donnes\">Mots donnés : "))
        // The same dictations in English: the parent's labels change, the child's pages do not.
        let ids = sheets.stdout.split(separator: "\n").dropLast().map { String($0.split(separator: " ")[0]) }
        let english = dir.appendingPathComponent("english.html").path
        #expect(runDictee(["--state", state, "show"] + ids + ["--html", english]).code == .ok)
        let other = try String(contentsOfFile: english, encoding: .utf8)
        #expect(other.contains("<section class=\"parent\" lang=\"en\">\n<h2>For the parent: the traps to check</h2>"))
        #expect(other.contains("<p class=\"donnes\">Words given: "))
        func childPages(_ h: String) -> String { String(h[h.range(of: "<body>")!.upperBound..<h.range(of: "<section class=\"parent\"")!.lowerBound]) }
        #expect(childPages(html) == childPages(other))
        #expect(childPages(html).contains("Dictée sur le moment du"))
    }
}
