import Dictation
import DicteeCore
import Foundation
import Household
import Ingest
import Store
import Testing

/// `dictee history` and `dictee report` over two weeks of a family's evenings (in process): the
/// served dictations newest first with the ids `show` takes, the sites missed by skill, both
/// languages; the progress page's states are the live rule's (`dictee skills` after each grading);
/// no score and nothing to fetch on the page; and a real browser (headless Chromium) renders it to
/// PNG and PDF without a console message or a request.
@Suite(.serialized) struct HistoryReportTests {
    /// The evenings: a card picked and graded (the sites missed: all, none, the first one), then
    /// one picked and not graded.
    enum Missed { case all, none, first, notGraded }
    static let evenings: [(String, Missed)] = [
        ("2026-11-29T18:00:00+01:00", .all), ("2026-12-01T18:00:00+01:00", .none), ("2026-12-03T18:00:00+01:00", .none),
        ("2026-12-06T18:00:00+01:00", .first), ("2026-12-08T18:00:00+01:00", .none), ("2026-12-10T18:00:00+01:00", .none),
        ("2026-12-11T18:00:00+01:00", .notGraded),
    ]
    static let end = ["--now", "2026-12-11T20:00:00+01:00"]

    /// The family after the evenings: the state's path, and per grading its time and the states
    /// `dictee skills --json` showed right after it.
    struct Family: Sendable {
        var state: String
        var live: [(at: Date, states: [SkillID: SkillState])]
    }

    /// Built once for the suite (the texts take a few seconds each).
    static let family: Result<Family, FamilyError> = {
        do { return .success(try build()) } catch let error as FamilyError { return .failure(error) } catch {
            return .failure(FamilyError(description: "\(error)"))
        }
    }()

    struct FamilyError: Error, CustomStringConvertible { var description: String }

    static func build() throws -> Family {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("state.sqlite").path
        func must(_ r: Captured, _ what: String) throws -> Captured {
            guard r.code == .ok else { throw FamilyError(description: "\(what): exit \(r.code.rawValue)\n\(r.stderr)") }
            return r
        }
        _ = try must(runDictee(["--state", state, "child", "add", "Léa", "--gender", "f", "--grade", "CE1"]), "child add")
        _ = try must(runDictee(["--state", state, "ingest", fixture("famille.ics"), "--tz", "Europe/Paris", "--now", evenings[0].0]), "ingest")
        let store = try StateStore(path: state)
        var live: [(Date, [SkillID: SkillState])] = []
        for (now, missed) in evenings {
            _ = try must(runDictee(["--state", state, "cards", "--child", "Léa", "--now", now]), "cards \(now)")
            let id = try must(runDictee(["--state", state, "pick", "--child", "Léa", "1", "--now", now]), "pick \(now)")
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let d = try store.dictation(id: Int64(id) ?? 0) else { throw FamilyError(description: "pick printed \(id)") }
            let numbers: [Int]
            switch missed {
            case .notGraded: continue
            case .all: numbers = d.sites.indices.map { $0 + 1 }
            case .none: numbers = []
            case .first: numbers = d.sites.isEmpty ? [] : [1]
            }
            _ = try must(runDictee(["--state", state, "grade", id, "--missed",
                                    numbers.isEmpty ? "none" : numbers.map(String.init).joined(separator: ","), "--now", now]), "grade \(id)")
            let skills = try must(runDictee(["--state", state, "skills", "--child", "Léa", "--json"]), "skills")
            let object = try JSONSerialization.jsonObject(with: Data(skills.stdout.utf8)) as? [String: Any]
            var states: [SkillID: SkillState] = [:]
            for entry in object?["skills"] as? [[String: Any]] ?? [] {
                if let skill = SkillID(rawValue: entry["id"] as? String ?? ""), let s = SkillState(rawValue: entry["state"] as? String ?? "") {
                    states[skill] = s
                }
            }
            guard let gradedAt = try store.dictation(id: d.id)?.gradedAt else { throw FamilyError(description: "\(id) not graded") }
            live.append((gradedAt, states))
        }
        return Family(state: state, live: live)
    }

    func family() throws -> Family {
        switch Self.family {
        case .success(let f): return f
        case .failure(let e): throw e
        }
    }

    // MARK: history

    @Test("history: one line per served dictation, newest first, with the ids show takes")
    func history() throws {
        let f = try family()
        let store = try StateStore(path: f.state)
        let served = try store.history(childID: try store.children()[0].id!)
        #expect(served.count == Self.evenings.count)
        #expect(served.map(\.servedAt) == served.map(\.servedAt).sorted { ($0 ?? .distantPast) > ($1 ?? .distantPast) })
        let r = runDictee(["--state", f.state, "history", "--child", "Léa"])
        #expect(r.code == .ok, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == served.count)
        for (line, d) in zip(lines, served) {
            #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("\(d.id)  "), "\(line)")
            #expect(line.contains(d.moment))
            for skill in d.trainedSkills { #expect(line.contains(skill.label), "\(line) lacks \(skill.label)") }
            // The sites missed by skill, counted from the stored sites.
            if d.status == .graded {
                for skill in d.trainedSkills {
                    let n = d.sites.filter { $0.skill == skill && $0.missed == true }.count
                    if n > 0 { #expect(line.contains("\(skill.label) (\(n))"), "\(line)") }
                }
            }
            // show works on every id listed.
            let show = runDictee(["--state", f.state, "show", String(d.id), "--sheet"])
            #expect(show.code == .ok, "show \(d.id): \(show.stderr)")
        }
        #expect(lines[0].hasSuffix("not graded"), "the last evening's dictation is not graded: \(lines[0])")
        #expect(lines[0].contains("Fri 11 Dec 2026"), "\(lines[0])")
        #expect(lines.last!.contains("Sun 29 Nov 2026") && lines.last!.contains("missed: "), "\(lines.last!)")
        #expect(lines.contains { $0.hasSuffix("no site missed") })
        #expect(DictationLoopTests.totalScore(in: r.stdout) == nil)

        // --since, --json, French.
        let since = runDictee(["--state", f.state, "history", "--child", "Léa", "--since", "2026-12-06"])
        #expect(since.stdout.split(separator: "\n").count == 4, "\(since.stdout)")
        let json = runDictee(["--state", f.state, "history", "--child", "Léa", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let list = try #require(object["dictations"] as? [[String: Any]])
        #expect(list.compactMap { $0["id"] as? Int } == served.map { Int($0.id) })
        #expect(list[0]["missed"] is NSNull && list[0]["graded"] is NSNull && list[0]["served"] as? String == "2026-12-11")
        #expect((list.last!["missed"] as? [[String: Any]])?.isEmpty == false)
        let missing = MissingKeys()
        let french = Language.$missingKeys.withValue(missing) {
            runDictee(["--state", f.state, "history", "--child", "Léa"], environment: ["TZ": "Europe/Paris", "LANG": "fr_FR.UTF-8"])
        }
        #expect(french.code == .ok)
        #expect(french.stdout.contains("ven. 11 déc. 2026") && french.stdout.contains("pas encore corrigée")
                && french.stdout.contains("compétences : ") && french.stdout.contains("aucun piège manqué"), "\(french.stdout)")
        #expect(missing.all.isEmpty, "untranslated: \(missing.all)")
        // Mistakes say what was wrong.
        let bad = runDictee(["--state", f.state, "history", "--child", "Léa", "--since", "11/12/2026"])
        #expect(bad.code == .usage && bad.stderr.contains("'11/12/2026' is not a date"))
        #expect(runDictee(["--state", f.state, "history", "--child", "Zoé"]).code == .usage)
    }

    // MARK: the page

    /// Writes the page of the evenings (3 weeks up to the last evening) and returns its text.
    func page(_ f: Family, language: String? = nil, weeks: String = "3") throws -> (path: String, html: String) {
        let path = (f.state as NSString).deletingLastPathComponent + "/report-\(language ?? "en")-\(weeks).html"
        var environment = ["TZ": "Europe/Paris"]
        if let language { environment["LANG"] = language }
        let r = runDictee(["--state", f.state, "report", "--child", "Léa", "--html", path, "--weeks", weeks] + Self.end, environment: environment)
        #expect(r.code == .ok, "\(r.stderr)")
        #expect(r.stdout.contains(path), "\(r.stdout)")
        return (path, try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test("the page's states are the live rule's, week by week; no score; nothing to fetch; both languages")
    func report() throws {
        let f = try family()
        let store = try StateStore(path: f.state)
        let lea = try store.children()[0]
        let exposures = try store.exposures(childID: lea.id!)
        // After each grading, the replay gives what 'dictee skills' said then.
        for (at, states) in f.live {
            let timelines = SkillTimeline.build(exposures, boundaries: [at.addingTimeInterval(1)])
            for t in timelines { #expect(t.states == [states[t.skill]], "\(t.skill.rawValue) after \(at)") }
        }
        let zone = try CalendarZone(identifier: "Europe/Paris")
        let made = try ProgressPage.make(child: lea, store, zone: zone, now: zone.parseISO8601("2026-12-11T20:00:00+01:00")!, weeks: 3)
        #expect(made.weeks.map(\.description) == ["2026-11-23", "2026-11-30", "2026-12-07"])
        let final = f.live.last!.states
        for t in made.timelines { #expect(t.states.last == final[t.skill], "\(t.skill.rawValue)") }
        #expect(made.timelines.contains { $0.states.contains(.maitrise) || $0.states.contains(.fragile) }, "the evenings move some skill past en cours")
        #expect(made.dictations.count == Self.evenings.count)

        let (_, html) = try page(f)
        #expect(DictationLoopTests.totalScore(in: html) == nil, "score-like text: \(DictationLoopTests.totalScore(in: html) ?? "")")
        for forbidden in ["<script", "<link", "<img", "<iframe", "<object", "<embed", "@import", "@font-face", "url(", "src=", "href=",
                          "http:", "https:", "//"] {
            #expect(!html.lowercased().contains(forbidden), "the page holds \(forbidden)")
        }
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"))
        #expect(html.contains("<html lang=\"en\">") && html.contains("Progress of Léa") && html.contains("<svg"))
        for t in made.timelines { #expect(html.contains("<h3>" + MarkupText.escaped(t.skill.label) + "</h3>")) }
        for d in made.dictations { #expect(html.contains(MarkupText.escaped(d.moment))) }
        #expect(html.components(separatedBy: "<tr>").count - 1 == Self.evenings.count + 1, "a header and one row per dictation")
        #expect(html.contains("Fri 11 Dec") && html.contains("not graded"))

        let missing = MissingKeys()
        let french = try Language.$missingKeys.withValue(missing) { try page(f, language: "fr_FR.UTF-8") }.html
        #expect(missing.all.isEmpty, "untranslated: \(missing.all)")
        #expect(french.contains("<html lang=\"fr\">") && french.contains("Les progrès de Léa") && french.contains("ven. 11 déc.")
                && french.contains("lun. 23 nov.") && french.contains("maîtrisé") && french.contains("pas encore corrigée"))
        #expect(DictationLoopTests.totalScore(in: french) == nil, "\(DictationLoopTests.totalScore(in: french) ?? "")")

        // Usage mistakes.
        let dir = (f.state as NSString).deletingLastPathComponent
        #expect(runDictee(["--state", f.state, "report", "--child", "Léa"]).code == .usage)
        let weeks = runDictee(["--state", f.state, "report", "--child", "Léa", "--html", dir + "/x.html", "--weeks", "0"])
        #expect(weeks.code == .usage && weeks.stderr.contains("'0' is not a number of weeks"))
        let folder = runDictee(["--state", f.state, "report", "--child", "Léa", "--html", dir])
        #expect(folder.code == .ioError && folder.stderr.contains("not a regular file"))
    }

    // MARK: the browser

    /// Where Chromium is (Debian's `chromium`), or `nil`.
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// What one headless Chromium run saw: the console messages (from its own log on stderr,
    /// `--enable-logging=stderr --v=0`: `INFO:CONSOLE` lines) and the URLs the page asked for (from
    /// its network log, `--log-net-log`: every request whose initiator is the page; the browser's
    /// own background requests have the initiator "not an origin").
    struct BrowserRun {
        var status: Int32
        var console: [String]
        var requests: [String]
        var stderr: String
    }

    static func browse(_ page: String, _ mode: [String], in dir: URL) throws -> BrowserRun {
        let chromium = try #require(Self.chromium)
        let run = UUID().uuidString
        let netLog = dir.appendingPathComponent("net-\(run).json")
        let arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                         "--user-data-dir=" + dir.appendingPathComponent("profile-\(run)").path, "--log-net-log=" + netLog.path,
                         "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
                         "--disable-background-networking", "--disable-component-update", "--hide-scrollbars"]
            + mode + [URL(fileURLWithPath: page).absoluteString]
        let output = try ChildProcess.run(executable: chromium, arguments: arguments, timeout: 120)
        let stderr = String(decoding: output.standardError, as: UTF8.self)
        let console = stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        var requests: [String] = []
        if let data = FileManager.default.contents(atPath: netLog.path),
           let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
           let events = object["events"] as? [[String: Any]] {
            for event in events {
                guard let params = event["params"] as? [String: Any], let url = params["url"] as? String,
                      let initiator = params["initiator"] as? String, initiator != "not an origin" else { continue }
                requests.append(url)
            }
        } else {
            Issue.record("Chromium wrote no network log at \(netLog.path)")
        }
        return BrowserRun(status: output.termination.status, console: console, requests: requests, stderr: stderr)
    }

    @Test("headless Chromium renders the page to PNG and PDF, with no console message and no request")
    func browser() throws {
        guard Self.chromium != nil else {
            // The only skip: the browser is not installed ('Scripts/setup --tests' installs it).
            print("HistoryReportTests.browser skipped: /usr/bin/chromium is missing; install Debian's chromium (Scripts/setup --tests)")
            return
        }
        let f = try family()
        let (path, html) = try page(f, weeks: "8")
        let dir = URL(fileURLWithPath: (f.state as NSString).deletingLastPathComponent)
        // The detectors themselves: a page asking for an image gets a console message (the
        // policy refuses it) and, without the policy, a request in the network log.
        let control = dir.appendingPathComponent("control.html").path
        let probe = "<img src=\"http://127.0.0.1:9/probe.png\">"
        try Data(html.replacingOccurrences(of: "</body>", with: probe + "</body>").utf8).write(to: URL(fileURLWithPath: control))
        let refused = try Self.browse(control, ["--screenshot=" + dir.appendingPathComponent("control.png").path], in: dir)
        #expect(refused.console.contains { $0.contains("probe.png") }, "the console detector saw nothing:\n\(refused.stderr)")
        let open = dir.appendingPathComponent("control-open.html").path
        try Data(html.replacingOccurrences(of: "<meta http-equiv=\"Content-Security-Policy\"", with: "<meta name=\"x\"")
            .replacingOccurrences(of: "</body>", with: probe + "</body>").utf8).write(to: URL(fileURLWithPath: open))
        let fetched = try Self.browse(open, ["--screenshot=" + dir.appendingPathComponent("control-open.png").path], in: dir)
        #expect(fetched.requests.contains("http://127.0.0.1:9/probe.png"), "the request detector saw nothing: \(fetched.requests)")

        // The page, as written (its policy on) and with the policy off (what it asks for by itself).
        let png = "/tmp/dictee-report.png"
        try? FileManager.default.removeItem(atPath: png)
        let shot = try Self.browse(path, ["--screenshot=" + png, "--window-size=1000,2200"], in: dir)
        #expect(shot.status == 0, "\(shot.stderr)")
        #expect(shot.console.isEmpty, "console: \(shot.console)")
        #expect(shot.requests.isEmpty, "requests: \(shot.requests)")
        let image = try #require(FileManager.default.contents(atPath: png), "no PNG at \(png)")
        #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]) && image.count > 20_000, "\(image.count) bytes")
        let pdfPath = dir.appendingPathComponent("report.pdf").path
        let pdf = try Self.browse(path, ["--print-to-pdf=" + pdfPath, "--no-pdf-header-footer"], in: dir)
        #expect(pdf.status == 0 && pdf.console.isEmpty && pdf.requests.isEmpty, "\(pdf.console) \(pdf.requests)")
        let document = try #require(FileManager.default.contents(atPath: pdfPath), "no PDF")
        #expect(document.starts(with: Array("%PDF".utf8)) && document.count > 5_000)
        let bare = dir.appendingPathComponent("report-open.html").path
        try Data(html.replacingOccurrences(of: "<meta http-equiv=\"Content-Security-Policy\"", with: "<meta name=\"x\"").utf8)
            .write(to: URL(fileURLWithPath: bare))
        let unguarded = try Self.browse(bare, ["--screenshot=" + dir.appendingPathComponent("open.png").path], in: dir)
        #expect(unguarded.console.isEmpty && unguarded.requests.isEmpty, "\(unguarded.console) \(unguarded.requests)")
    }
}
