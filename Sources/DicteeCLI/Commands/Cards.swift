import Dictation
import DicteeCore
import Foundation
import Household

extension Dictee {
    /// `dictee cards --child NAME [--json]`: three dictations to choose from, each about an
    /// approved moment (recent past first, then upcoming), with a validated text behind it.
    ///
    /// JSON: `{"child": name, "grade": "CE1", "cards": [{"card": 1, "dictation": id, "moment":
    /// phrase, "date": "YYYY-MM-DD", "upcoming": bool, "title": string}]}`.
    /// Exit status: 0 at least one card, 64 usage or unknown child, 65 no moment to offer,
    /// 69 the lexicon or the French dictionary is missing (a new text must be validated).
    struct Cards: Command {
        static let name = "cards"
        static var summary: String { tr("summary.cards") }
        static let options = OptionSpec(valued: ["child"] + TimeOptions.names, flags: ["json"])
        static var help: String { tr("help.cards", CardChoice.comingDays, CardChoice.recentDays) }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else {
                throw .usage(tr("cards takes no argument besides --child NAME"), hint: "dictee cards --child Léa")
            }
            let (store, child, zone, now) = try DeskOptions.openChild(arguments, context)
            let cards = try household { () throws(HouseholdError) in
                try Desk.cards(for: child, store, now: now, zone: zone, createdAt: Date(timeIntervalSince1970: TimeInterval(now)), makeSession: {
                    () throws(HouseholdError) in
                    try Desk.librarySession(environment: context.environment, warn: { output.warning($0) })
                })
            }
            if cards.isEmpty {
                throw .data(tr("no approved moment to write about: none in the last %ld days or the coming days that the child did not have yet", CardChoice.recentDays),
                            hint: tr("run 'dictee ingest FILE' with a recent calendar, and 'dictee review' to label the events waiting for you"))
            }
            if arguments.flags.contains("json") {
                let list = cards.map { d in
                    JSONWriter.object([
                        ("card", .int(d.card ?? 0)), ("dictation", .int(Int(d.id))), ("moment", .string(d.moment)),
                        ("date", .string(zone.date(of: d.start).description)),
                        ("upcoming", .bool(zone.seconds(of: d.start) > now)), ("title", .string(d.title)),
                    ])
                }
                output.line(JSONWriter.object([
                    ("child", .string(child.firstName)), ("grade", .string(child.grade.rawValue)),
                    ("cards", .raw("[" + list.joined(separator: ",") + "]")),
                ]))
            } else {
                output.line(tr("%@ (%@), choose a dictation:", child.firstName, child.grade.rawValue))
                for d in cards {
                    let date = Language.current.longDay(zone.date(of: d.start), withYear: false)
                    let when = zone.seconds(of: d.start) > now ? tr("%@ (coming)", date) : date
                    var line = "  \(d.card ?? 0). " + d.moment + " — " + when
                    if d.title.lowercased() != d.moment.lowercased() { line += " — « \(d.title) »" }
                    output.line(line)
                }
            }
            if cards.count < CardChoice.count {
                output.warning(tr("only %ld moment(s) to offer; label more events with 'dictee review'", cards.count))
            }
            output.hint(tr("the child picks one: dictee pick --child %@ N", child.firstName))
            return .ok
        }
    }

    /// `dictee pick --child NAME N`: the child picks card N; its dictation is served.
    struct Pick: Command {
        static let name = "pick"
        static var summary: String { tr("summary.pick") }
        static let options = OptionSpec(valued: ["child"] + TimeOptions.names, flags: [])
        static var help: String { tr("help.pick") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.count == 1, let number = Int(arguments.positionals[0]), (1...CardChoice.count).contains(number) else {
                throw .usage(tr("pick needs one card number, 1 to %ld", CardChoice.count), hint: "dictee pick --child Léa 2")
            }
            let (store, child, zone, now) = try DeskOptions.openChild(arguments, context)
            let outcome = try household { () throws(HouseholdError) in
                try Desk.pick(child, card: number, store, at: Date(timeIntervalSince1970: TimeInterval(now)), zone: zone)
            }
            switch outcome {
            case .momentLeft:
                throw .data(tr("the moment of card %ld is no longer in the calendar", number), hint: tr("show the cards again: dictee cards --child NAME"))
            case .dayChanged:
                throw .data(tr("the text of card %ld was written for another day (its moment's day is told otherwise now)", number),
                            hint: tr("show the cards again, they are dealt anew: dictee cards --child NAME"))
            case .served(let served):
                output.line(String(served.id))
                output.hint(tr("read it aloud with 'dictee show %@'; once written, 'dictee grade %@'", String(served.id), String(served.id)))
                return .ok
            }
        }
    }
}
