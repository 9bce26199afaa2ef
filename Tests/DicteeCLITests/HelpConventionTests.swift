import Testing
@testable import DicteeCLI

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
