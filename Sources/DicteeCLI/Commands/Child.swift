import DicteeCore
import Foundation
import PrivacyFilter
import Store

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

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) -> ExitCode {
            let output = context.output
            guard let action = arguments.positionals.first, ["add", "list"].contains(action) else {
                let given = arguments.positionals.first ?? ""
                var message = given.isEmpty ? "child needs an action: add or list" : "unknown action '\(given)'"
                if let near = ArgumentParser.nearest(given, in: ["add", "list"]), !given.isEmpty {
                    message += "; did you mean '\(near)'?"
                }
                output.error(message)
                output.hint("dictee child add Léa --gender f --grade CE1")
                return .usage
            }
            if action == "add" {
                guard arguments.positionals.count == 2 else {
                    output.error("child add needs one first name")
                    output.hint("dictee child add Léa --gender f --grade CE1")
                    return .usage
                }
                let name = PrivacyFilter.normalisedLabel(arguments.positionals[1])
                guard PrivacyFilter().acceptsName(name) else {
                    output.error("'\(name)' is not a first name: a capital letter, letters only, "
                                 + "at most one hyphen, 2 to 20 letters, not a word of the disqualifier list")
                    return .usage
                }
                guard let gender = arguments.values["gender"].flatMap({ Gender(rawValue: $0.lowercased()) }) else {
                    output.error("child add needs --gender f or --gender m")
                    return .usage
                }
                guard let grade = arguments.values["grade"].flatMap(Grade.init(parsing:)) else {
                    output.error("child add needs --grade CP, CE1, CE2, CM1 or CM2")
                    return .usage
                }
                let store: StateStore
                switch StateOptions.open(context) {
                case .success(let s): store = s
                case .failure(let code): return code
                }
                do {
                    try store.addChild(Child(firstName: name, gender: gender, grade: grade))
                } catch {
                    return StateOptions.report(error, context)
                }
                output.line("added \(name) (\(gender == .feminine ? "f" : "m"), \(grade.rawValue))")
                return .ok
            }
            let store: StateStore
            switch StateOptions.open(context, create: false) {
            case .success(let s): store = s
            case .failure(let code): return code
            }
            let children: [Child]
            do {
                children = try store.children()
            } catch {
                return StateOptions.report(error, context)
            }
            if arguments.flags.contains("json") {
                output.line("[" + children.map {
                    JSONWriter.object([
                        ("first_name", .string($0.firstName)), ("gender", .string($0.gender.rawValue)),
                        ("grade", .string($0.grade.rawValue)),
                    ])
                }.joined(separator: ",") + "]")
            } else if children.isEmpty {
                output.line("no child yet")
                output.hint("dictee child add Léa --gender f --grade CE1")
            } else {
                for child in children {
                    output.line("\(child.firstName.padding(toLength: 20, withPad: " ", startingAt: 0)) "
                                + "\(child.gender.rawValue)  \(child.grade.rawValue)")
                }
            }
            return .ok
        }
    }
}
