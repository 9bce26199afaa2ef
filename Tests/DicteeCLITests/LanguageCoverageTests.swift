import Foundation
import Testing
@testable import DicteeCLI
import DicteeCore
import DicteeTestSupport

/// Runs what a family sees in both languages and fails on any key a French run looked up and did
/// not find (`Language.missingKeys`): every command's `--help`, `dictee --help`, and the parent's
/// flow of the golden files (the same steps as `EndToEndTests.flow`, in process). The source scan
/// of `LocalizationTests` sees the keys written as literals; this sees what a run really asks for.
@Suite struct LanguageCoverageTests {
    static let french = ["TZ": "Europe/Paris", "LANG": "fr_FR.UTF-8"]
    static let english = ["TZ": "Europe/Paris"]

    /// Runs `arguments` with `environment`, recording the keys not found.
    func recorded(_ arguments: [String], _ environment: [String: String]) -> (Captured, [String]) {
        let missing = MissingKeys()
        let result = Language.$missingKeys.withValue(missing) { runDictee(arguments, environment: environment) }
        return (result, missing.all)
    }

    static var commandNames: [String] { Dictee.commands.map(\.name) }

    @Test("every command's --help is complete in French and English, and they differ", arguments: commandNames)
    func help(command: String) {
        let (french, missing) = recorded([command, "--help"], Self.french)
        #expect(french.code == .ok)
        #expect(missing.isEmpty, "\(command) --help: no French for \(missing)")
        let english = runDictee([command, "--help"], environment: Self.english)
        #expect(english.code == .ok)
        #expect(english.stdout != french.stdout, "\(command) --help is the same in both languages")
        #expect(english.stdout.contains("usage") || english.stdout.contains("Usage"), "\(english.stdout.prefix(80))")
        #expect(french.stdout.contains("usage"), "\(french.stdout.prefix(80))")
    }

    @Test("dictee --help lists every command in French, nothing missing")
    func overview() {
        let (french, missing) = recorded(["--help"], Self.french)
        #expect(french.code == .ok)
        #expect(missing.isEmpty, "no French for \(missing)")
        for name in Self.commandNames { #expect(french.stdout.contains(name)) }
        #expect(french.stdout != runDictee(["--help"], environment: Self.english).stdout)
    }

    @Test("the parent's flow in French asks for no key without a French text")
    func flow() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-flow-fr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var all: [String] = []
        for step in EndToEndTests.flow {
            let arguments = step.arguments.map {
                $0.replacingOccurrences(of: "$STATE", with: dir.appendingPathComponent("state.sqlite").path)
                    .replacingOccurrences(of: "$AUDIT", with: dir.appendingPathComponent("audit.jsonl").path)
            }.map { $0.hasPrefix("Fixtures/") ? repositoryRoot.appendingPathComponent($0).path : $0 }
            let (result, missing) = recorded(arguments, Self.french)
            #expect(result.code.rawValue == step.status, "\(step.name): \(result.stderr)")
            all += missing.map { "\(step.name): \($0)" }
        }
        #expect(all.isEmpty, "keys without French: \(all)")
    }
}
