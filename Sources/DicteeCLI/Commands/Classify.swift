import DicteeCore
import Foundation
import PrivacyFilter

extension Dictee {
    /// `dictee classify [--json] TITLE...` (or one title per line on stdin): what the privacy
    /// filter decides for each title.
    ///
    /// JSON contract (later checks rely on it exactly): one object per title, one per line,
    /// `{"decision": "moment"|"disqualified"|"unlabeled", "phrase": string|null,
    ///   "first_name": string|null, "rule": string|null}`.
    struct Classify: Command {
        static let name = "classify"
        static let summary = "show what the privacy filter decides for event titles"
        static let options = OptionSpec(valued: [], flags: ["json"])
        static let help = """
            usage: dictee classify [--json] TITLE...
                   dictee classify [--json] < titles.txt      (one title per line)

            Shows what the privacy filter decides for each title: a moment (a canonical phrase
            from the closed whitelist, with at most one captured first name), disqualified (a
            sensitive word: the rule id is shown, never the word), or unlabeled (no name kept).

            options:
              --json   one JSON object per line:
                       {"decision": "moment"|"disqualified"|"unlabeled",
                        "phrase": string|null, "first_name": string|null, "rule": string|null}

            example:
              dictee classify "Anniv de Tom" "Piscine 10h avec Tom" "Dentiste Léa"

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            var titles = arguments.positionals
            if titles.isEmpty || titles == ["-"] {
                guard let input = context.readStandardInput() else {
                    throw CommandFailure(.usage, "classify needs titles as arguments or on stdin, one per line", hint: "dictee classify \"Anniv de Tom\"")
                }
                // Split on the line feed scalar: "\r\n" is a single Character in Swift.
                titles = input.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { String(String.UnicodeScalarView($0)).trimmingCharacters(in: CharacterSet(charactersIn: "\r")) }
                if titles.last == "" { titles.removeLast() }
            }
            let filter = PrivacyFilter()
            let json = arguments.flags.contains("json")
            for title in titles {
                let c = filter.classify(title: title)
                if json {
                    context.output.line(JSONWriter.object([
                        ("decision", .string(c.decision.rawValue)),
                        ("phrase", c.phrase.map(JSONWriter.Value.string) ?? .null),
                        ("first_name", c.firstName.map(JSONWriter.Value.string) ?? .null),
                        ("rule", c.rule.map(JSONWriter.Value.string) ?? .null),
                    ]))
                } else {
                    switch c.decision {
                    case .moment:
                        context.output.line("moment        \(c.rule!)  \(c.phrase!)")
                    case .disqualified:
                        context.output.line("disqualified  \(c.rule!)")
                    case .unlabeled:
                        context.output.line("unlabeled")
                    }
                }
            }
            return .ok
        }
    }
}
