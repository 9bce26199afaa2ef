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
        static var summary: String { tr("summary.classify") }
        static let options = OptionSpec(valued: [], flags: ["json"])
        static var help: String { tr("help.classify") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            var titles = arguments.positionals
            if titles.isEmpty || titles == ["-"] {
                guard let input = context.readStandardInput() else {
                    throw CommandFailure(.usage, tr("classify needs titles as arguments or on stdin, one per line"), hint: "dictee classify \"Anniv de Tom\"")
                }
                // Split on the line feed scalar: "\r\n" is a single Character in Swift.
                titles = input.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { String(String.UnicodeScalarView($0)).trimmingCharacters(in: CharacterSet(charactersIn: "\r")) }
                if titles.last == "" { titles.removeLast() }
            }
            let family = try Self.family(context)
            let lexicon = try? Labels.lexicon(environment: context.environment)
            if lexicon == nil {
                context.output.warning(tr("the Lexique table was not found (run Scripts/setup, or set DICTEE_LEXICON): only the first names of Whitelists/given-names.txt are kept"))
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
                    // The decision in a column as wide as the longest word, plus two spaces.
                    func column(_ word: String) -> String {
                        let width = [tr("moment"), tr("disqualified"), tr("unlabeled")].map(\.count).max()! + 2
                        return word.padding(toLength: width, withPad: " ", startingAt: 0)
                    }
                    switch c.decision {
                    case .moment:
                        let owner = family.isEmpty ? "" : "  " + tr("(for %@)", owners.isEmpty ? tr("the family") : owners.joined(separator: ", "))
                        context.output.line(column(tr("moment")) + "\(c.rule!)  \(c.phrase!)\(owner)")
                    case .disqualified:
                        context.output.line(column(tr("disqualified")) + c.rule!)
                    case .unlabeled:
                        context.output.line(tr("unlabeled"))
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
