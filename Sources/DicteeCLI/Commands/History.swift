import Dictation
import DicteeCore
import Foundation
import Household
import Store

extension Dictee {
    /// `dictee history --child NAME [--since DATE] [--json]`: one line per dictation the child was
    /// served, newest first: its id (the one `dictee show` takes), the day it was served, the
    /// moment, the skills it trained and the sites missed by skill ("not graded" before the
    /// grading). No score.
    ///
    /// JSON: `{"child": name, "grade": "CE1", "dictations": [{"id": n, "served": "YYYY-MM-DD",
    /// "moment": phrase, "status": "served"|"graded", "graded": "YYYY-MM-DD"|null, "skills": [skill
    /// id], "missed": [{"skill": id, "sites": n}]|null}]}`, newest first.
    struct History: Command {
        static let name = "history"
        static var summary: String { tr("summary.history") }
        static let options = OptionSpec(valued: ["child", "since", "tz"], flags: ["json"])
        static var help: String { tr("help.history") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else { throw .usage(tr("history takes no argument besides --child NAME")) }
            let (store, child, zone, _) = try DeskOptions.openChild(arguments, context)
            var since: Date?
            if let text = arguments.values["since"] {
                guard text.count == 10, let seconds = zone.parseISO8601(text) else {
                    throw .usage(tr("--since: '%@' is not a date; write it YYYY-MM-DD, e.g. 2026-11-01", text))
                }
                since = Date(timeIntervalSince1970: TimeInterval(seconds))
            }
            let served: [DictationRecord]
            do { served = try store.history(childID: child.id ?? 0, since: since) } catch { throw CommandFailure(error) }
            if arguments.flags.contains("json") {
                let list = served.map { d in
                    JSONWriter.object([
                        ("id", .int(Int(d.id))),
                        ("served", .string(zone.date(of: d.servedAt ?? d.createdAt).description)),
                        ("moment", .string(d.moment)), ("status", .string(d.status.rawValue)),
                        ("graded", d.gradedAt.map { .string(zone.date(of: $0).description) } ?? .null),
                        ("skills", .raw("[" + d.trainedSkills.map { JSONWriter.quoted($0.rawValue) }.joined(separator: ",") + "]")),
                        ("missed", d.missedBySkill.map { missed in
                            .raw("[" + missed.map { JSONWriter.object([("skill", .string($0.skill.rawValue)), ("sites", .int($0.count))]) }
                                .joined(separator: ",") + "]")
                        } ?? .null),
                    ])
                }
                output.line(JSONWriter.object([
                    ("child", .string(child.firstName)), ("grade", .string(child.grade.rawValue)),
                    ("dictations", .raw("[" + list.joined(separator: ",") + "]")),
                ]))
                return .ok
            }
            guard !served.isEmpty else {
                output.line(since == nil ? tr("%@: no dictation served yet", child.firstName)
                                : tr("%@: no dictation served since %@", child.firstName,
                                     Language.current.shortDay(zone.date(of: since!), withYear: true)))
                output.hint(tr("the child picks a card with 'dictee pick --child NAME N'"))
                return .ok
            }
            let width = String(served.map(\.id).max() ?? 0).count
            for d in served {
                let id = String(repeating: " ", count: width - String(d.id).count) + String(d.id)
                let day = Language.current.shortDay(zone.date(of: d.servedAt ?? d.createdAt), withYear: true)
                let skills = ProgressPage.trainedSummary(d)
                let missed = d.missedBySkill.map { $0.isEmpty ? ProgressPage.missedSummary(d) : tr("missed: %@", ProgressPage.missedSummary(d)) }
                    ?? ProgressPage.missedSummary(d)
                output.line(tr("%@  %@  %@ · skills: %@ · %@", id, day, d.moment, skills, missed))
            }
            return .ok
        }
    }
}
