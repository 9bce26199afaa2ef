import DicteeCore
import Foundation
import PrivacyFilter

extension Dictee {
    /// `dictee child add NAME --gender f|m --grade CP|CE1|CE2|CM1|CM2`, `dictee child list`.
    struct ChildCommand: Command {
        static let name = "child"
        static let summary = "add a child (first name, gender, grade) or list the children"
        static let options = OptionSpec(valued: ["gender", "grade"], flags: ["json"])
        static let help = """
            usage: dictee child add NAME --gender f|m --grade CP|CE1|CE2|CM1|CM2
                   dictee child list [--json]

            A child's gender sets the agreements of the texts ("Léa est partie"); the grade
            (CP to CM2) sets vocabulary, tenses and length.

            example:
              dictee child add Léa --gender f --grade CE1

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard let action = arguments.positionals.first, ["add", "list"].contains(action) else {
                let given = arguments.positionals.first ?? ""
                var message = given.isEmpty ? "child needs an action: add or list" : "unknown action '\(given)'"
                if let near = NearestWord.find(given, in: ["add", "list"]), !given.isEmpty {
                    message += "; did you mean '\(near)'?"
                }
                throw CommandFailure(.usage, message, hint: "dictee child add Léa --gender f --grade CE1")
            }
            if action == "add" {
                guard arguments.positionals.count == 2 else {
                    throw CommandFailure(.usage, "child add needs one first name", hint: "dictee child add Léa --gender f --grade CE1")
                }
                let name = PrivacyFilter.normalisedLabel(arguments.positionals[1])
                guard PrivacyFilter().acceptsName(name) else {
                    throw .usage("'\(name)' is not a first name: a capital letter, letters only, "
                                 + "at most one hyphen, 2 to 20 letters, not a word of the disqualifier list")
                }
                guard let gender = arguments.values["gender"].flatMap({ Gender(rawValue: $0.lowercased()) }) else {
                    throw CommandFailure(.usage, "child add needs --gender f or --gender m")
                }
                guard let grade = arguments.values["grade"].flatMap(Grade.init(parsing:)) else {
                    throw CommandFailure(.usage, "child add needs --grade CP, CE1, CE2, CM1 or CM2")
                }
                let store = try StateOptions.open(context)
                do {
                    try store.addChild(Child(firstName: name, gender: gender, grade: grade))
                } catch {
                    throw CommandFailure(error)
                }
                output.line("added \(name) (\(gender == .feminine ? "f" : "m"), \(grade.rawValue))")
                return .ok
            }
            let store = try StateOptions.open(context, create: false)
            let children: [Child]
            do {
                children = try store.children()
            } catch {
                throw CommandFailure(error)
            }
            if arguments.flags.contains("json") {
                output.line("[" + children.map {
                    JSONWriter.object([
                        ("id", .int(Int($0.id ?? 0))), ("first_name", .string($0.firstName)),
                        ("gender", .string($0.gender.rawValue)), ("grade", .string($0.grade.rawValue)),
                    ])
                }.joined(separator: ",") + "]")
            } else if children.isEmpty {
                output.line("no child yet")
                output.hint("dictee child add Léa --gender f --grade CE1")
            } else {
                for child in children {
                    // The number is how the cron log names a child (never by name).
                    output.line("\(String(child.id ?? 0).leftPad(3))  \(child.firstName.padding(toLength: 20, withPad: " ", startingAt: 0)) "
                                + "\(child.gender.rawValue)  \(child.grade.rawValue)")
                }
            }
            return .ok
        }
    }
}
