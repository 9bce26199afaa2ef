import Foundation
import Testing
import DicteeCore
@testable import DicteeCLI
@testable import Household
import Generation

/// A throwaway folder with a config path inside it (not created) and the environment to use it.
private struct Sandbox {
    let folder: String
    var config: String { folder + "/conf/config.json" }
    var environment: [String: String] { ["DICTEE_CONFIG": config, "HOME": folder, "TZ": "Europe/Paris"] }

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("dictee-config-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// Writes `text` as the configuration file.
    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(
            atPath: folder + "/conf", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
    }

    /// Creates a small file `name` in the folder and returns its absolute path.
    func file(_ name: String) throws -> String {
        let path = folder + "/" + name
        try Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func run(_ arguments: [String], extra: [String: String] = [:]) -> Captured {
        runDictee(arguments, environment: environment.merging(extra) { $1 })
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}

private func context(_ environment: [String: String]) -> CommandContext {
    CommandContext(
        environment: environment, output: OutputSink(out: { _ in }, err: { _ in }),
        clock: FixedClock(Date(timeIntervalSince1970: 1_796_000_000)))
}

private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

@Suite("the configuration file, dictee source and dictee privacy")
struct ConfigTests {
    // MARK: - Where the file is

    @Test("path: $DICTEE_CONFIG, else an absolute $XDG_CONFIG_HOME, else ~/.config")
    func path() {
        #expect(Config.path(environment: ["DICTEE_CONFIG": "/x/c.json", "XDG_CONFIG_HOME": "/xdg", "HOME": "/h"])
                == "/x/c.json")
        #expect(Config.path(environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/h"]) == "/xdg/dictee/config.json")
        #expect(Config.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/dictee/config.json")
        #expect(Config.path(environment: ["DICTEE_CONFIG": "", "HOME": "/h"]) == "/h/.config/dictee/config.json")
    }

    @Test("egress log: egress_log, else $XDG_DATA_HOME/dictee/egress.log, else ~/.local/share")
    func egressLogPath() {
        var config = Config()
        #expect(config.egressLogPath(environment: ["HOME": "/h"]) == "/h/.local/share/dictee/egress.log")
        #expect(config.egressLogPath(environment: ["HOME": "/h", "XDG_DATA_HOME": "/d"]) == "/d/dictee/egress.log")
        #expect(config.egressLogPath(environment: ["HOME": "/h", "XDG_DATA_HOME": "d"]) == "/h/.local/share/dictee/egress.log")
        config.egressLog = "/var/log/e.log"
        #expect(config.egressLogPath(environment: ["HOME": "/h"]) == "/var/log/e.log")
    }

    // MARK: - Reading

    @Test("a missing file, an empty file and {} are the empty configuration")
    func loadEmpty() throws {
        let box = try Sandbox()
        defer { box.remove() }
        #expect(try Config.load(path: box.config) == Config())
        try box.writeConfig("")
        #expect(try Config.load(path: box.config) == Config())
        try box.writeConfig("  \n")
        #expect(try Config.load(path: box.config) == Config())
        try box.writeConfig("{}")
        #expect(try Config.load(path: box.config) == Config())
        try box.writeConfig(#"{"sources": null, "model": null, "richer_texts": null, "egress_log": null}"#)
        #expect(try Config.load(path: box.config) == Config())
    }

    @Test("every key is read into its typed field")
    func loadFull() throws {
        let text = """
            {
              "sources": ["/home/famille/calendrier.ics", "/home/famille/ecole.ics"],
              "model": {"gguf": "/m/model.gguf", "endpoint": "http://127.0.0.1:8080/v1", "name": "qwen2.5-0.5b",
                        "context": 2048, "python": "/venv/bin/python", "timeout_seconds": 120,
                        "temperature": 0.2, "seed": 7, "in_process": false},
              "richer_texts": true,
              "egress_log": "/var/log/egress.log"
            }
            """
        let config = try Config.parse(Data(text.utf8), path: "c.json")
        #expect(config.sources == ["/home/famille/calendrier.ics", "/home/famille/ecole.ics"])
        #expect(config.model == Config.ModelConfig(
            gguf: "/m/model.gguf", endpoint: "http://127.0.0.1:8080/v1", name: "qwen2.5-0.5b", context: 2048,
            python: "/venv/bin/python", timeoutSeconds: 120, temperature: 0.2, seed: 7, inProcess: false))
        #expect(config.richerTexts)
        #expect(config.egressLog == "/var/log/egress.log")
        #expect(ModelRoute.resolve(config, configPath: "c.json", environment: [:], clock: SystemClock()) == .loopback(ModelEndpoint.loopback("http://127.0.0.1:8080/v1")!))
    }

    @Test("invalid JSON: exit 65, the path and the line named")
    func invalidJSON() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.writeConfig("{\n  \"sources\": []\n  \"model\": {}\n}")
        let r = box.run(["privacy"])
        #expect(r.code == .dataError)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("error: \(box.config): not valid JSON"))
        #expect(r.stderr.contains("line 3"))
        try box.writeConfig("[\"/a.ics\"]")
        let list = box.run(["source", "list"])
        #expect(list.code == .dataError)
        #expect(list.stderr == "error: \(box.config): the configuration must be a JSON object ({...}), not a list\n")
    }

    @Test("a value of the wrong type: exit 65 naming the key", arguments: [
        (#"{"richer_texts": 1}"#, #""richer_texts" must be true or false, not 1"#),
        (#"{"richer_texts": "yes"}"#, #""richer_texts" must be true or false, not a string"#),
        (#"{"sources": "/a.ics"}"#, #""sources" must be a list of file paths, URLs or CalDAV objects, not a string"#),
        (#"{"sources": ["/a.ics", 3]}"#, #""sources[2]" must be a file path, a URL or an object, not 3"#),
        (#"{"sources": [{"caldav": "https://dav.example.org/"}]}"#, #""sources[1].user" must be a user name, not nothing"#),
        (#"{"sources": [{"caldav": "https://anne:pw@dav.example.org/", "user": "anne"}]}"#, #""sources[1].caldav" must be an https URL without user or password"#),
        (#"{"sources": [{"url": "https://a.example.org/c.ics", "password": "x"}]}"#, #"unknown key "sources[1].password""#),
        (#"{"sources": ["https://anne:pw4secret@cal.example.org/x.ics"]}"#, #""sources[1]" must be a file path, or an https URL without user or password, not another address"#),
        (#"{"sources": [{"caldav": "https://dav.example.org/", "user": "an\u001b[31mne"}]}"#, #""sources[1].user" must be a user name, not control characters"#),
        (#"{"model": "/m.gguf"}"#, #""model" must be an object"#),
        (#"{"model": {"context": "2048"}}"#, #""model.context" must be a whole number of tokens above 0, not a string"#),
        (#"{"model": {"context": 0}}"#, #""model.context" must be a whole number of tokens above 0, not 0"#),
        (#"{"model": {"timeout_seconds": 1.5}}"#, #""model.timeout_seconds" must be a whole number"#),
        (#"{"model": {"gguf": true}}"#, #""model.gguf" must be a file path (a string), not true"#),
        (#"{"model": {"temperature": 2.5}}"#, #""model.temperature" must be a number from 0 to 2, not 2.5"#),
        (#"{"model": {"temperature": -1}}"#, #""model.temperature" must be a number from 0 to 2, not -1"#),
        (#"{"model": {"temperature": "0.7"}}"#, #""model.temperature" must be a number from 0 to 2, not a string"#),
        (#"{"model": {"seed": -1}}"#, #""model.seed" must be a whole number from 0 to 4294967295, not -1"#),
        (#"{"model": {"seed": 4294967296}}"#, #""model.seed" must be a whole number from 0 to 4294967295"#),
        (#"{"model": {"in_process": "no"}}"#, #""model.in_process" must be true or false, not a string"#),
        (#"{"model": {"endpoint": "127.0.0.1:8080"}}"#, #""model.endpoint" must be an http:// or https:// URL"#),
        (#"{"egress_log": ""}"#, #""egress_log" must be a file path, not an empty string"#),
    ])
    func wrongType(text: String, message: String) throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.writeConfig(text)
        let r = box.run(["privacy"])
        #expect(r.code == .dataError)
        #expect(r.stderr.hasPrefix("error: \(box.config): " + message), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("a key written twice is refused (other JSON readers would take the other value)", arguments: [
        (#"{"richer_texts": true, "sources": [], "richer_texts": false}"#, "richer_texts"),
        (#"{"model": {"gguf": "/a.gguf", "context": 2048, "gguf": "/b.gguf"}}"#, "model.gguf"),
        (#"{"model": {"name": "x"}, "sources": ["/a\"b.ics", "/c.ics"], "egress_log": "/l", "egress_log": "/m"}"#, "egress_log"),
    ])
    func repeatedKey(text: String, key: String) throws {
        #expect(throws: ConfigError.repeatedKey(path: "c.json", key: key)) { try Config.parse(Data(text.utf8), path: "c.json") }
        let box = try Sandbox()
        defer { box.remove() }
        try box.writeConfig(text)
        let r = box.run(["privacy"])
        #expect(r.code == .dataError)
        #expect(r.stderr.contains("the key \"\(key)\" is written twice"))
    }

    @Test("the same key in two different objects is not a repetition")
    func sameKeyElsewhere() throws {
        #expect(Config.repeatedKey(in: Data(#"{"model": {"name": "a"}, "sources": [{"name": 1}, {"name": 2}]}"#.utf8)) == nil)
        #expect(Config.repeatedKey(in: Data(#"{"a": "\"b\": 1, \"b\"", "b": 2}"#.utf8)) == nil, "keys inside strings do not count")
    }

    @Test("an unknown key is refused with the nearest known key", arguments: [
        (#"{"soruces": []}"#, #"unknown key "soruces"; did you mean "sources"?"#),
        (#"{"richer_text": true}"#, #"unknown key "richer_text"; did you mean "richer_texts"?"#),
        (#"{"model": {"endpiont": "http://127.0.0.1/"}}"#, #"unknown key "model.endpiont"; did you mean "model.endpoint"?"#),
        (#"{"model": {"timeout": 3}}"#, #"unknown key "model.timeout""#),
        (#"{"telemetry": true}"#, #"unknown key "telemetry""#),
    ])
    func unknownKey(text: String, message: String) throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.writeConfig(text)
        let r = box.run(["source", "list"])
        #expect(r.code == .dataError)
        #expect(r.stderr.hasPrefix("error: \(box.config): " + message), "\(r.stderr)")
        #expect(r.stderr.contains("hint: the known keys here are"))
    }

    // MARK: - Writing

    @Test("save then load gives the same configuration; the file is pretty, sorted and mode 0600")
    func roundTrip() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let config = Config(
            sources: ["/home/famille/calendrier.ics", "/home/famille/école.ics"],
            model: Config.ModelConfig(gguf: "/m/model.gguf", endpoint: nil, name: "qwen2.5-0.5b", context: 2048,
                                      python: "/venv/bin/python", timeoutSeconds: 120, temperature: 0.5, seed: 3, inProcess: true),
            richerTexts: false, egressLog: "/var/log/egress.log")
        let path = box.folder + "/new/deeper/config.json"
        try config.save(to: path)
        #expect(try Config.load(path: path) == config)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\n  \"egress_log\""))
        let keys = ["egress_log", "model", "richer_texts", "sources"].map { text.range(of: "\"\($0)\"")!.lowerBound }
        #expect(keys == keys.sorted())
        #expect(text.contains("/home/famille/calendrier.ics"), "slashes are not escaped")
        // Saved again over an existing file (the rename path), and nothing left beside it.
        var changed = config
        changed.richerTexts = true
        changed.model = nil
        try changed.save(to: path)
        #expect(try Config.load(path: path) == changed)
        let left = try FileManager.default.contentsOfDirectory(atPath: box.folder + "/new/deeper")
        #expect(left == ["config.json"])
        #expect(((try FileManager.default.attributesOfItem(atPath: path))[.posixPermissions] as? NSNumber)?
            .intValue == 0o600)
    }

    // MARK: - dictee source

    @Test("source add: a relative path is made absolute; list and list --json show it")
    func sourceAddList() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let calendar = try box.file("famille.ics")
        // The test cannot change the current directory (tests run in parallel), so the relative
        // path climbs from it to the root, then down to the file.
        let depth = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardized.pathComponents.count - 1
        let relative = String(repeating: "../", count: depth) + String(calendar.dropFirst())
        let added = box.run(["source", "add", relative])
        #expect(added.code == .ok)
        #expect(added.stdout == "\(calendar) is a calendar of 0 events\nadded source 1: \(calendar)\n")
        let second = try box.file("école.ics")
        #expect(box.run(["source", "add", second]).stdout == "\(second) is a calendar of 0 events\nadded source 2: \(second)\n")

        let list = box.run(["source", "list"])
        #expect(list.code == .ok)
        #expect(list.stdout == "1  \(calendar)\n2  \(second)\n")
        let listed = box.run(["source", "list", "--json"])
        #expect(listed.code == .ok)
        let object = try json(listed.stdout)
        #expect(Set(object.keys) == ["sources"])
        let sources = try #require(object["sources"] as? [[String: Any]])
        #expect(sources.count == 2)
        #expect(sources[0]["id"] as? Int == 1 && sources[0]["path"] as? String == calendar)
        #expect(sources[1]["id"] as? Int == 2 && sources[1]["path"] as? String == second)
        #expect(try Config.load(path: box.config).sources == [.path(calendar), .path(second)])
        let attributes = try FileManager.default.attributesOfItem(atPath: box.config)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("source add: a missing path is exit 65 naming it; a folder is a vdir source; a duplicate is said, exit 0")
    func sourceAddRefused() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let missing = box.run(["source", "add", box.folder + "/absent.ics"])
        #expect(missing.code == .dataError)
        #expect(missing.stderr.hasPrefix("error: \(box.folder)/absent.ics: no such file or folder\nhint: "), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: box.config), "nothing saved after a refusal")
        let device = box.run(["source", "add", "/dev/null"])
        #expect(device.code == .dataError && device.stderr.contains("not a regular file or folder"))
        let password = box.run(["source", "add", "https://anne:secret@cal.example.org/a.ics"])
        #expect(password.code == .usage && !password.stderr.contains("secret"))

        let calendar = try box.file("famille.ics")
        #expect(box.run(["source", "add", calendar]).code == .ok)
        let again = box.run(["source", "add", box.folder + "/./sub/../famille.ics"])
        #expect(again.code == .ok)
        #expect(again.stdout == "\(calendar) is a calendar of 0 events\nalready added as source 1: \(calendar)\n", "\(again.stdout)")
        let folder = box.run(["source", "add", box.folder])
        #expect(folder.code == .ok, "\(folder.stderr)")
        #expect(try Config.load(path: box.config).sources == [.path(calendar), .path(box.folder)])
        let list = try json(box.run(["source", "list", "--json"]).stdout)
        let kinds = (list["sources"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }
        #expect(kinds == ["file", "folder"])
    }

    @Test("source add: a file that is not a calendar (a saved sign-in page, a note) is exit 65 naming it, as ingest reads it; a calendar's events are counted")
    func sourceAddReadsTheFileAsIngestDoes() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let page = box.folder + "/agenda.ics"
        try Data("<!DOCTYPE html>\n<html><body>Connexion</body></html>\n".utf8).write(to: URL(fileURLWithPath: page))
        let refused = box.run(["source", "add", page])
        #expect(refused.code == .dataError)
        #expect(refused.stderr.hasPrefix("error: \(page): not an iCalendar file (no readable VCALENDAR or VEVENT)\nhint: "), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: box.config), "nothing saved after a refusal")
        let french = box.run(["source", "add", page], extra: ["LANG": "fr_FR.UTF-8"])
        #expect(french.code == .dataError && french.stderr.hasPrefix("erreur : \(page): pas un fichier iCalendar"), "\(french.stderr)")

        // What ingest accepts is accepted: bare VEVENTs without a VCALENDAR around them.
        let bare = box.folder + "/bare.ics"
        try Data("BEGIN:VEVENT\r\nUID:a@example.org\r\nDTSTART:20261128T100000Z\r\nSUMMARY:Piscine\r\nEND:VEVENT\r\n".utf8)
            .write(to: URL(fileURLWithPath: bare))
        let one = box.run(["source", "add", bare])
        #expect(one.code == .ok, "\(one.stderr)")
        #expect(one.stdout == "\(bare) is a calendar of 1 event\nadded source 1: \(bare)\n")
        let family = box.run(["source", "add", fixture("famille.ics")], extra: ["LANG": "fr_FR.UTF-8"])
        #expect(family.stdout.hasPrefix("\(fixture("famille.ics")) est un agenda de 456 événements\n"), "\(family.stdout)")
        #expect(try Config.load(path: box.config).sources == [.path(bare), .path(fixture("famille.ics"))])
    }

    @Test("source list with no source: a sentence and a hint")
    func sourceListEmpty() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let r = box.run(["source", "list"])
        #expect(r.code == .ok)
        #expect(r.stdout == "no source yet\n")
        #expect(r.stderr.hasPrefix("hint: dictee source add"))
        #expect(box.run(["source", "list", "--json"]).stdout == "{\"sources\":[]}\n")
    }

    @Test("source remove: by number; an unknown number is exit 64 with the valid range")
    func sourceRemove() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let a = try box.file("a.ics"), b = try box.file("b.ics"), c = try box.file("c.ics")
        for path in [a, b, c] { #expect(box.run(["source", "add", path]).code == .ok) }
        let removed = box.run(["source", "remove", "2"])
        #expect(removed.code == .ok)
        #expect(removed.stdout == "removed source 2: \(b)\n")
        #expect(box.run(["source", "list"]).stdout == "1  \(a)\n2  \(c)\n")
        for id in ["0", "3", "-1", "deux"] {
            let r = box.run(["source", "remove", "--", id])
            #expect(r.code == .usage)
            #expect(r.stderr.hasPrefix("error: no source \(id): the sources are 1 to 2"), "\(r.stderr)")
        }
        #expect(try Config.load(path: box.config).sources == [.path(a), .path(c)])
        #expect(box.run(["source", "remove"]).code == .usage)
        #expect(box.run(["source", "remove", "1", "2"]).code == .usage)
    }

    @Test("source: a missing or misspelt action is exit 64 with the nearest action")
    func sourceUsage() throws {
        let box = try Sandbox()
        defer { box.remove() }
        #expect(box.run(["source"]).code == .usage)
        let r = box.run(["source", "lsit"])
        #expect(r.code == .usage)
        #expect(r.stderr.contains("unknown action 'lsit'; did you mean 'list'?"))
        #expect(box.run(["source", "add", "x.ics", "--json"]).code == .usage)
        let help = box.run(["source", "--help"])
        #expect(help.code == .ok && help.stdout.contains("example:"))
    }

    // MARK: - The model route (the loopback rule itself: OpenAICompatibleModelTests)

    @Test("the route: library, managed, loopback, remote only with richer_texts and a writable egress log")
    func route() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let env = box.environment
        func route(_ config: Config) -> ModelRoute {
            ModelRoute.resolve(config, configPath: box.config, environment: env, clock: SystemClock())
        }
        var config = Config()
        #expect(route(config) == .library(.noModel))
        config.model = Config.ModelConfig(gguf: "/m.gguf")
        #expect(route(config) == .managed(gguf: "/m.gguf"))
        config.model?.endpoint = "http://127.0.0.1:8080/v1"
        #expect(route(config) == .loopback(ModelEndpoint.loopback("http://127.0.0.1:8080/v1")!), "the endpoint wins over gguf")
        config.model?.endpoint = "https://api.example.com/v1"
        #expect(route(config) == .refused(.notLoopback(endpoint: "https://api.example.com/v1", configPath: box.config)))
        config.model?.endpoint = "http://127.0.0.1@evil.com/"
        #expect(!route(config).sendsRequests)
        config.richerTexts = true
        guard case .remote(let remote) = route(config) else {
            Issue.record("richer_texts allows a remote endpoint")
            return
        }
        #expect(remote.egressLog?.path == box.folder + "/.local/share/dictee/egress.log")
        let file = box.folder + "/plain-file"
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        config.egressLog = file + "/egress.log"
        #expect(route(config) == .refused(.egressLogUnwritable(endpoint: "http://127.0.0.1@evil.com/", log: file + "/egress.log",
                                                               problem: "not a directory")))
    }

    // MARK: - dictee privacy

    static let sendsSentence = "the instructions (French, written by dictee), the child's first name, the child's gender, "
        + "the child's grade, the target skills, the trap sites per target skill, the word range, the sentence range, "
        + "the longest sentence allowed, the moment's canonical phrase (as listed in the audit file), the moment's day seen from the writing day ('hier', 'avant-hier', 'samedi', 'samedi dernier'; the day of the month when more than a week away), no hour, whether the moment has begun, and on a retry, "
        + "the model's previous answer and the validator's French sentences about it; never a calendar title, place "
        + "or description"

    @Test("privacy: the first line for each configuration", arguments: [
        ("", "nothing leaves this machine: no language model is configured; dictations come from the handwritten library"),
        (#"{"model": {"gguf": "/m/tiny.gguf", "in_process": false}}"#,
         "the model runs on this machine (managed llama-cpp-python server on 127.0.0.1); nothing leaves this machine"),
        (#"{"model": {"endpoint": "http://127.0.0.1:8080/v1"}}"#,
         "sent to http://127.0.0.1:8080/v1 (this machine): " + ConfigTests.sendsSentence),
        (#"{"model": {"endpoint": "https://api.example.com/v1"}, "richer_texts": true, "egress_log": "/l/e.log"}"#,
         "sent OUTSIDE this machine to https://api.example.com/v1: " + ConfigTests.sendsSentence
            + "; every request body is appended to /l/e.log before it is sent"),
        (#"{"model": {"endpoint": "https://api.example.com/v1"}, "richer_texts": false}"#,
         "refused: https://api.example.com/v1 is not a loopback address; dictee will not send anything there "
            + "unless \"richer_texts\": true is set in CONFIG"),
        (#"{"model": {"endpoint": "http://127.0.0.1@evil.com/v1"}}"#,
         "refused: http://127.0.0.1@evil.com/v1 is not a loopback address; dictee will not send anything there "
            + "unless \"richer_texts\": true is set in CONFIG"),
    ])
    func privacyFirstLine(text: String, first: String) throws {
        let box = try Sandbox()
        defer { box.remove() }
        if !text.isEmpty { try box.writeConfig(text) }
        let r = box.run(["privacy"])
        #expect(r.code == .ok)
        #expect(r.stderr.isEmpty)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == first.replacingOccurrences(of: "CONFIG", with: box.config))
        #expect(lines.contains { $0.hasPrefix("configuration: \(box.config)") })
        #expect(lines.contains { $0.contains("only") && $0.contains("read") }, "the calendars are only read")
        if text.contains("gguf") {
            #expect(lines.contains("sent to the managed server on 127.0.0.1 (this machine): " + ConfigTests.sendsSentence))
        }
    }

    @Test("privacy: a GGUF runs inside dictee when it is built with llama.cpp, and says so")
    func privacyInProcess() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.writeConfig(#"{"model": {"gguf": "/m/tiny.gguf"}}"#)
        let r = box.run(["privacy"])
        #expect(r.code == .ok)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        if ModelRoute.inProcessAvailable {
            #expect(lines.first == "the model runs inside dictee (llama.cpp, in this process): no server, no network socket; nothing leaves this machine")
            #expect(lines.contains("given to the model inside dictee: " + ConfigTests.sendsSentence))
        } else {
            #expect(lines.first == "the model runs on this machine (managed llama-cpp-python server on 127.0.0.1); nothing leaves this machine")
        }
        let json = try json(box.run(["privacy", "--json"]).stdout)
        #expect(json["in_process"] as? Bool == ModelRoute.inProcessAvailable)
    }

    @Test("privacy --json: the documented keys and values for each configuration", arguments: [
        ("", "none", nil, nil, true, false, false),
        (#"{"model": {"gguf": "/m/tiny.gguf"}}"#, "managed", nil, true, true, false, true),
        (#"{"model": {"endpoint": "http://localhost:8080/v1"}}"#, "endpoint", "http://localhost:8080/v1", true, true,
         false, true),
        (#"{"model": {"endpoint": "https://api.example.com/v1"}, "richer_texts": true}"#, "endpoint",
         "https://api.example.com/v1", false, true, true, true),
        (#"{"model": {"endpoint": "https://api.example.com/v1"}}"#, "endpoint", "https://api.example.com/v1", false,
         false, false, false),
    ] as [(String, String, String?, Bool?, Bool, Bool, Bool)])
    func privacyJSON(
        text: String, model: String, endpoint: String?, loopback: Bool?, allowed: Bool, egress: Bool, sends: Bool
    ) throws {
        let box = try Sandbox()
        defer { box.remove() }
        if !text.isEmpty { try box.writeConfig(text) }
        let r = box.run(["privacy", "--json"])
        #expect(r.code == .ok)
        let object = try json(r.stdout)
        #expect(Set(object.keys) == ["config", "model", "endpoint", "loopback", "in_process", "allowed", "egress_log", "sends", "fetches", "proxy"])
        #expect(model == "managed" ? object["in_process"] is Bool : object["in_process"] is NSNull, "in_process says something only for managed mode")
        #expect((object["fetches"] as? [Any])?.isEmpty == true, "no remote source, nothing fetched")
        #expect(object["config"] as? String == box.config)
        #expect(object["model"] as? String == model)
        #expect((object["endpoint"] as? String) == endpoint)
        #expect(endpoint != nil || object["endpoint"] is NSNull)
        if let loopback {
            #expect(object["loopback"] as? Bool == loopback)
        } else {
            #expect(object["loopback"] is NSNull)
        }
        #expect(object["allowed"] as? Bool == allowed)
        if egress {
            #expect(object["egress_log"] as? String == box.folder + "/.local/share/dictee/egress.log")
        } else {
            #expect(object["egress_log"] is NSNull)
        }
        let listed = try #require(object["sends"] as? [String])
        #expect(listed == (sends ? Dictee.Privacy.sends : []))
    }

    @Test("privacy never prints a child's name or calendar text: it reads neither the state nor a calendar")
    func privacyReadsNoPrivateText() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let state = box.folder + "/state.sqlite"
        #expect(box.run(["child", "add", "Léa", "--gender", "f", "--grade", "CE1"], extra: ["DICTEE_STATE": state]).code
                == .ok)
        #expect(box.run(["source", "add", fixture("famille.ics")]).code == .ok)
        let privateWords = ["Léa", "Hugo", "Orthophoniste", "Garage", "Jean Macé", "Tilleuls", "goûter", "SMS"]
        for text in ["", #""model": {"gguf": "/m.gguf"},"#, #""model": {"endpoint": "http://[::1]:8080/v1"},"#,
                     #""model": {"endpoint": "https://api.example.com/v1"}, "richer_texts": true,"#] {
            try box.writeConfig("{\(text) \"sources\": [\"\(fixture("famille.ics"))\"]}")
            for arguments in [["privacy"], ["privacy", "--json"]] {
                let r = box.run(arguments, extra: ["DICTEE_STATE": state])
                #expect(r.code == .ok)
                for word in privateWords {
                    #expect(!r.stdout.contains(word) && !r.stderr.contains(word), "\(word) in \(arguments)")
                }
            }
        }
        // A state path that does not exist stays absent: privacy never opens the state.
        let absent = box.folder + "/never.sqlite"
        #expect(box.run(["privacy"], extra: ["DICTEE_STATE": absent]).code == .ok)
        #expect(!FileManager.default.fileExists(atPath: absent))
    }

    @Test("privacy: an argument is a usage error; --help has an example")
    func privacyUsage() throws {
        let box = try Sandbox()
        defer { box.remove() }
        #expect(box.run(["privacy", "extra"]).code == .usage)
        #expect(box.run(["privacy", "--jsn"]).code == .usage)
        let help = box.run(["privacy", "--help"])
        #expect(help.code == .ok && help.stdout.contains("example:"))
    }
}
