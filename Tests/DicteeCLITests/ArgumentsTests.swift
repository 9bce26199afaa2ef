import DicteeCore
import Testing
@testable import DicteeCLI

@Suite("ArgumentParser")
struct ArgumentsTests {
    let spec = OptionSpec(valued: ["now", "tz"], flags: ["json"])

    @Test("--name value, --name=value, flags, positionals, and -- ends options")
    func forms() throws {
        let p = try ArgumentParser.parse(
            ["a.ics", "--now", "2026-01-01", "--tz=Europe/Paris", "--json", "--", "--b.ics"], spec: spec)
        #expect(p.positionals == ["a.ics", "--b.ics"])
        #expect(p.values["now"] == "2026-01-01")
        #expect(p.values["tz"] == "Europe/Paris")
        #expect(p.flags == ["json"])
    }

    @Test("an unknown option names the nearest valid one")
    func suggestion() {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--jsno"], spec: spec) }
        do {
            _ = try ArgumentParser.parse(["--jsno"], spec: spec)
        } catch {
            #expect(error.description == "unknown option '--jsno'; did you mean '--json'?")
        }
    }

    @Test("a valued option without its value, a flag with one")
    func missingValue() {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--now"], spec: spec) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--json=yes"], spec: spec) }
    }

    @Test("edit distance counts a transposition once", arguments: [
        ("nigthly", "nightly", 1), ("events", "events", 0), ("evnets", "events", 1), ("", "abc", 3),
    ])
    func distance(_ a: String, _ b: String, _ d: Int) {
        #expect(NearestWord.editDistance(a, b) == d)
    }
}
