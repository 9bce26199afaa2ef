import DicteeCore
import Foundation
import Household

extension Dictee {
    /// `dictee grade ID [--missed N,N|none]`: the parent says which trap sites the child got
    /// wrong; errors are stored per site, one exposure per skill, and the skills move.
    struct GradeCommand: Command {
        static let name = "grade"
        static var summary: String { tr("summary.grade") }
        static let options = OptionSpec(valued: ["missed"] + TimeOptions.names, flags: [])
        static var help: String { tr("help.grade") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            var missed: Set<Int>?
            if let given = arguments.values["missed"] {
                guard let parsed = parseNumbers(given) else {
                    throw .usage(tr("--missed needs site numbers separated by commas (3,7), or none"))
                }
                missed = parsed
            } else if !context.isInteractive {
                throw .usage(tr("grade needs --missed N,N (or --missed none) when not on a terminal"),
                             hint: "dictee grade \(arguments.positionals.first.flatMap { Int64($0) }.map(String.init) ?? "ID") --missed 3,7")
            }
            let now = try TimeOptions.resolve(arguments, context).now
            let (store, dictation, child, zone) = try DeskOptions.openDictation(arguments, context, command: "grade")
            let id = dictation.id
            // Refuse early (before asking anything) what the store would refuse.
            try household { () throws(HouseholdError) in try Desk.checkGradable(dictation, zone: zone) }

            if missed == nil {
                output.write(Desk.sheet(dictation, child: child, zone: zone).readAloud(color: output.colorOutput))
                output.line("")
                while missed == nil {
                    output.write(tr("Numbers of the sites the child got wrong (Enter: none): "))
                    guard let reply = context.readLine() else {
                        output.line("")
                        output.line(tr("not graded"))
                        return .ok
                    }
                    if let numbers = parseNumbers(reply.trimmingCharacters(in: .whitespaces).isEmpty ? "none" : reply),
                       numbers.allSatisfy({ (1...max(1, dictation.sites.count)).contains($0) }) || numbers.isEmpty {
                        missed = numbers
                    } else {
                        output.line(tr("type numbers from 1 to %ld, separated by commas or spaces, or Enter for none", dictation.sites.count))
                    }
                }
            }

            let outcome = try household { () throws(HouseholdError) in
                try Desk.grade(dictation, child: child, missed: missed ?? [], store, at: Date(timeIntervalSince1970: TimeInterval(now)))
            }
            output.line(tr("graded dictation %@:", String(id)))
            for skill in SkillID.allCases {
                let numbers = dictation.siteNumbers(of: skill)
                guard !numbers.isEmpty,
                      let b = outcome.before.first(where: { $0.skill == skill }), let a = outcome.after.first(where: { $0.skill == skill }) else { continue }
                let wrong = numbers.filter { missed?.contains($0) == true }
                let move = a.state == b.state
                    ? tr("stays %@", Desk.label(a.state))
                    : Desk.label(b.state) + " → " + Desk.label(a.state)
                let detail = wrong.isEmpty ? tr("no mistake") : tr("missed %@", wrong.map(String.init).joined(separator: ", "))
                output.line("  " + skill.label.padding(toLength: 40, withPad: " ", startingAt: 0) + " " + move + " (" + detail + ")")
            }
            output.hint(tr("see every skill with 'dictee skills --child %@'", child.firstName))
            return .ok
        }

        /// "3,7", "3 7", "3, 7" → {3, 7}; "none" → {}; `nil` for anything else, also an empty
        /// list ("", ",", "1,,2"): a grade is final, so an unset variable must not grade clean.
        static func parseNumbers(_ text: String) -> Set<Int>? {
            let t = text.trimmingCharacters(in: .whitespaces).lowercased()
            if t == "none" { return [] }
            var out = Set<Int>()
            let parts = t.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard !parts.contains(where: \.isEmpty) else { return nil }
            for part in parts.flatMap({ $0.split(separator: " ") }) {
                guard let n = Int(part), n >= 1, n <= 10_000 else { return nil }
                out.insert(n)
            }
            return out
        }
    }
}
