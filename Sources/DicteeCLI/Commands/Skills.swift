import Dictation
import DicteeCore
import Foundation
import Household

extension Dictee {
    /// `dictee skills --child NAME [--json]`: the fifteen skills, grouped by state, with the date
    /// of the last graded exposure. No score, no average, no percentage.
    ///
    /// JSON: `{"child": name, "grade": "CE1", "skills": [{"id": skill id, "label": French label,
    /// "state": "non_vu"|"en_cours"|"fragile"|"maitrise", "last_exposure": "YYYY-MM-DD"|null,
    /// "taught": bool}]}` in the order of Docs/domain.md §1.
    struct Skills: Command {
        static let name = "skills"
        static var summary: String { tr("summary.skills") }
        static let options = OptionSpec(valued: ["child", "tz"], flags: ["json"])
        static var help: String { tr("help.skills") }

        /// The order of the groups: what needs attention first.
        static let groups: [SkillState] = [.fragile, .enCours, .maitrise, .nonVu]

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else { throw .usage(tr("skills takes no argument besides --child NAME")) }
            let (store, child, zone, _) = try DeskOptions.openChild(arguments, context)
            let progress = try household { () throws(HouseholdError) in try Desk.progress(store, childID: child.id ?? 0) }
            func day(_ p: SkillProgress) -> String? {
                p.lastExposure.map { zone.date(of: $0.gradedAt).description }
            }
            if arguments.flags.contains("json") {
                let list = progress.map { p in
                    JSONWriter.object([
                        ("id", .string(p.skill.rawValue)), ("label", .string(p.skill.label)), ("state", .string(p.state.rawValue)),
                        ("last_exposure", day(p).map(JSONWriter.Value.string) ?? .null), ("taught", .bool(p.skill.isTaught(at: child.grade))),
                    ])
                }
                output.line(JSONWriter.object([
                    ("child", .string(child.firstName)), ("grade", .string(child.grade.rawValue)),
                    ("skills", .raw("[" + list.joined(separator: ",") + "]")),
                ]))
                return .ok
            }
            let color = output.colorOutput
            output.line("\(child.firstName) (\(child.grade.rawValue))")
            for state in groups {
                let members = progress.filter { $0.state == state }
                guard !members.isEmpty else { continue }
                output.line("")
                output.line(color ? Self.colour(state) + Desk.label(state) + "\u{1B}[0m" : Desk.label(state))
                for p in members {
                    var line = "  " + p.skill.label.padding(toLength: 40, withPad: " ", startingAt: 0)
                    if let seen = p.lastExposure {
                        line += " " + tr("last seen %@", Language.current.shortDay(zone.date(of: seen.gradedAt)))
                    } else if !p.skill.isTaught(at: child.grade) {
                        line += " " + tr("from %@", p.skill.introducedIn.rawValue)
                    }
                    output.line(String(line.reversed().drop(while: { $0 == " " }).reversed()))
                }
            }
            return .ok
        }

        /// ANSI colour of a state's heading: fragile yellow, en cours cyan, maîtrisé green, non vu dim.
        static func colour(_ state: SkillState) -> String {
            switch state {
            case .fragile: "\u{1B}[1;33m"
            case .enCours: "\u{1B}[1;36m"
            case .maitrise: "\u{1B}[1;32m"
            case .nonVu: "\u{1B}[2m"
            }
        }
    }
}
