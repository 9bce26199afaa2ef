import Testing
@testable import DicteeCLI
import Dictation
import DicteeTestSupport

/// Every command's `--help` names each option and flag the command accepts (a user reads the help,
/// not the source), and gives an example.
@Suite struct HelpConventionTests {
    @Test("the help names every option", arguments: Dictee.commands.map(\.name))
    func helpNamesEveryOption(command: String) throws {
        let descriptor = try #require(Dictee.commands.first { $0.name == command })
        for option in descriptor.options.valued + descriptor.options.flags {
            #expect(descriptor.help.contains("--\(option)"), "'dictee \(command) --help' does not name --\(option)")
        }
        #expect(descriptor.help.contains("example"), "'dictee \(command) --help' has no example")
        #expect(descriptor.help.contains("usage: dictee"), "'dictee \(command) --help' has no usage line")
    }
}

/// The kinds a label may take are listed by hand in three helps and the README: they must be the
/// library's kinds (`Library.bundledKinds`, from `moment-kinds.tsv`), all of them and no other.
@Suite struct KindListsTests {
    @Test func theHelpsAndTheReadmeListTheLibrarysKinds() throws {
        let kinds = Dictation.Library.bundledKinds
        #expect(kinds.count >= 17)
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for (name, text) in [("check", Dictee.Check.help), ("suggestions", Dictee.Suggestions.help), ("README", readme)] {
            let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            // Written "activite, animaux, …, spectacle, sport" (or "… spectacle or sport").
            let list = kinds.dropLast().joined(separator: ", ")
            #expect(flat.contains(list), "\(name) does not list the kinds as \(list), \(kinds.last!)")
        }
    }
}
