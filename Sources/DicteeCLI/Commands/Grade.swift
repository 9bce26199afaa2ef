import DicteeCore
import Foundation
import Household

extension Dictee {
    /// `dictee grade ID [--missed N,N|none]`: the parent says which trap sites the child got
    /// wrong; errors are stored per site, one exposure per skill, and the skills move.
    struct GradeCommand: Command {
        static let name = "grade"
        static let summary = "say which trap sites the child got wrong; the skills move"
        static let options = OptionSpec(valued: ["missed"] + TimeOptions.names, flags: [])
        static let help = """
            usage: dictee grade ID [--now ISO-8601]           (on a terminal: asks for the numbers)
                   dictee grade ID --missed 3,7 [--now ...]  (the sites the child got wrong)
                   dictee grade ID --missed none [--now ...] (no mistake on any site)

            Grades a dictation the child picked and wrote. On a terminal it shows the text
            with its trap sites numbered; type the numbers the child got wrong, separated by
            commas or spaces, or just Enter for none (Ctrl-D leaves it ungraded). Then it shows how each skill of the
            dictation moved (non vu, en cours, fragile, maîtrisé). A grade is final: grading
            the same dictation twice is refused. There is no score: only which sites, and
            which skills.
            --now sets the time recorded (default: the clock); --tz the zone a local --now
            is read in and dates are shown in.

            example:
              dictee grade 12 --missed 3,7

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            var missed: Set<Int>?
            if let given = arguments.values["missed"] {
                guard let parsed = parseNumbers(given) else {
                    throw .usage("--missed needs site numbers separated by commas (3,7), or none")
                }
                missed = parsed
            } else if !context.isInteractive {
                throw .usage("grade needs --missed N,N (or --missed none) when not on a terminal",
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
                    output.write("Numbers of the sites the child got wrong (Enter: none): ")
                    guard let reply = context.readLine() else {
                        output.line("")
                        output.line("not graded")
                        return .ok
                    }
                    if let numbers = parseNumbers(reply.trimmingCharacters(in: .whitespaces).isEmpty ? "none" : reply),
                       numbers.allSatisfy({ (1...max(1, dictation.sites.count)).contains($0) }) || numbers.isEmpty {
                        missed = numbers
                    } else {
                        output.line("type numbers from 1 to \(dictation.sites.count), separated by commas or spaces, or Enter for none")
                    }
                }
            }

            let outcome = try household { () throws(HouseholdError) in
                try Desk.grade(dictation, child: child, missed: missed ?? [], store, at: Date(timeIntervalSince1970: TimeInterval(now)))
            }
            output.line("graded dictation \(id):")
            for skill in SkillID.allCases {
                let numbers = dictation.siteNumbers(of: skill)
                guard !numbers.isEmpty,
                      let b = outcome.before.first(where: { $0.skill == skill }), let a = outcome.after.first(where: { $0.skill == skill }) else { continue }
                let wrong = numbers.filter { missed?.contains($0) == true }
                let move = a.state == b.state
                    ? "stays \(Desk.label(a.state))"
                    : "\(Desk.label(b.state)) → \(Desk.label(a.state))"
                let detail = wrong.isEmpty ? "no mistake" : "missed " + wrong.map(String.init).joined(separator: ", ")
                output.line("  " + skill.label.padding(toLength: 40, withPad: " ", startingAt: 0) + " " + move + " (" + detail + ")")
            }
            output.hint("see every skill with 'dictee skills --child NAME'")
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
