import DicteeCore
import Foundation
import Household
import PrivacyFilter
import Store

extension Dictee {
    /// `dictee classify [--json] TITLE...` (or one title per line on stdin): what the privacy
    /// filter decides for each title.
    ///
    /// JSON contract (later checks rely on it exactly): one object per title, one per line,
    /// `{"decision": "moment"|"disqualified"|"unlabeled", "phrase": string|null,
    ///   "first_name": string|null, "rule": string|null}`; when the state holds children, also
    /// `"for": [first names]` (the children the title names; `[]` for the whole family's; `null`
    /// for a title that is not a moment).
    ///
    /// The state is `--state PATH` (which must exist), else the default state when it exists; it is
    /// only read, never created.
    struct Classify: Command {
        static let name = "classify"
        static let summary = "show what the privacy filter decides for event titles"
        static let options = OptionSpec(valued: [], flags: ["json"])
        static let help = """
            usage: dictee [--state PATH] classify [--json] TITLE...
                   dictee [--state PATH] classify [--json] < titles.txt      (one title per line)

            Shows what the privacy filter decides for each title: a moment (a canonical phrase
            from the closed whitelist, with at most one captured first name), disqualified (a
            sensitive word, rule D.., or a parents' event, rule P..: the rule id is shown, never
            the word), or unlabeled (no name kept). With a state that holds children (--state
            PATH, or the default state when it exists; never created), also whose moment it is:
            a child's first name in the title makes it that child's only.

            options:
              --json   one JSON object per line:
                       {"decision": "moment"|"disqualified"|"unlabeled",
                        "phrase": string|null, "first_name": string|null, "rule": string|null}
                       and, with children in the state, "for": [first names] ([] = the family's, null if not a moment)

            example:
              dictee classify "Anniv de Tom" "Piscine 10h avec Tom" "Dentiste Léa"
              dictee --state family.sqlite classify --json "Judo Noah"

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
            let family = try Self.family(context)
            let lexicon = try? Labels.lexicon(environment: context.environment)
            if lexicon == nil {
                context.output.warning("the Lexique table was not found (run Scripts/setup, or set DICTEE_LEXICON): only the first names of Whitelists/given-names.txt are kept")
            }
            let filter = PrivacyFilter(family: family, commonWords: lexicon)
            let names = Dictionary(family.map { ($0.id, $0.firstName) }, uniquingKeysWith: { a, _ in a })
            let json = arguments.flags.contains("json")
            for title in titles {
                let c = filter.classify(title: title)
                let owners = c.children.compactMap { names[$0] }
                if json {
                    var fields: [(String, JSONWriter.Value)] = [
                        ("decision", .string(c.decision.rawValue)),
                        ("phrase", c.phrase.map(JSONWriter.Value.string) ?? .null),
                        ("first_name", c.firstName.map(JSONWriter.Value.string) ?? .null),
                        ("rule", c.rule.map(JSONWriter.Value.string) ?? .null),
                    ]
                    if !family.isEmpty {
                        // Whose moment: only a moment has one (null for the others).
                        fields.append(("for", c.decision == .moment
                            ? .raw("[" + owners.map(JSONWriter.quoted).joined(separator: ",") + "]") : .null))
                    }
                    context.output.line(JSONWriter.object(fields))
                } else {
                    switch c.decision {
                    case .moment:
                        let owner = family.isEmpty ? "" : "  (for " + (owners.isEmpty ? "the family" : owners.joined(separator: ", ")) + ")"
                        context.output.line("moment        \(c.rule!)  \(c.phrase!)\(owner)")
                    case .disqualified:
                        context.output.line("disqualified  \(c.rule!)")
                    case .unlabeled:
                        context.output.line("unlabeled")
                    }
                }
            }
            return .ok
        }

        /// The state's children: from `--state PATH` (65 when it does not exist), else from the
        /// default state when it exists; never a new state.
        static func family(_ context: CommandContext) throws(CommandFailure) -> [FamilyMember] {
            guard context.statePath != nil || FileManager.default.fileExists(atPath: StateOptions.path(context)) else {
                return []
            }
            let store = try StateOptions.open(context, create: false)
            let children = try state { () throws(StateError) in try store.children() }
            return FamilyMember.family(of: children)
        }
    }
}
