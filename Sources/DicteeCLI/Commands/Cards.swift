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
        static let summary = "three dictations to choose from, about the family's recent and coming moments"
        static let options = OptionSpec(valued: ["child"] + TimeOptions.names, flags: ["json"])
        static let help = """
            usage: dictee cards --child NAME [--json] [--now ISO-8601] [--tz IANA]

            Three cards for the child to choose from. Each is an approved moment of the
            calendar (a whitelist moment or one you labeled), the child's or the family's:
            a holiday going on, the soonest one-off moment of the next \(CardChoice.comingDays) days,
            one of the child's own moments (a title naming the child or its grade, or a
            label given --for it), then the recent past (the last \(CardChoice.recentDays) days, most
            recent first) and the coming days; at most one weekly activity, never two cards
            for the same moment, never an occurrence the child already had. Behind each card
            a dictation is ready: planned for the child's skills, validated, its verbs in the
            past for a past moment and not in the past for a coming one when the library
            allows. The cards stay the same until the child picks one ('dictee pick'), a
            grading changes the plan, or a moment leaves the calendar.

            Until a language model is set up, the dictations are texts of the handwritten
            library chosen for the plan.

            options:
              --child NAME   a child added with 'dictee child add'
              --json         {"child", "grade", "cards": [{"card", "dictation", "moment",
                             "date", "upcoming", "title"}]}
              --now, --tz    "now" and the zone of the dates (default: the clock, and the
                             zone of the last ingest)

            example:
              dictee cards --child Léa

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else {
                throw .usage("cards takes no argument besides --child NAME", hint: "dictee cards --child Léa")
            }
            let (store, child, zone, now) = try DeskOptions.openChild(arguments, context)
            let cards = try household { () throws(HouseholdError) in
                try Desk.cards(for: child, store, now: now, zone: zone, createdAt: Date(timeIntervalSince1970: TimeInterval(now)), makeSession: {
                    () throws(HouseholdError) in
                    try Desk.librarySession(environment: context.environment, warn: { output.warning($0) })
                })
            }
            if cards.isEmpty {
                throw .data("no approved moment to write about: none in the last \(CardChoice.recentDays) days or the coming days that the child did not have yet",
                            hint: "run 'dictee ingest FILE' with a recent calendar, and 'dictee review' to label the events waiting for you")
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
                output.line("\(child.firstName) (\(child.grade.rawValue)), choose a dictation:")
                for d in cards {
                    let date = Desk.frenchDate(zone.date(of: d.start), withYear: false)
                    let when = zone.seconds(of: d.start) > now ? date + " (à venir)" : date
                    var line = "  \(d.card ?? 0). " + d.moment + " — " + when
                    if d.title.lowercased() != d.moment.lowercased() { line += " — « \(d.title) »" }
                    output.line(line)
                }
            }
            if cards.count < CardChoice.count {
                output.warning("only \(cards.count) moment(s) to offer; label more events with 'dictee review'")
            }
            output.hint("the child picks one: dictee pick --child NAME N")
            return .ok
        }
    }

    /// `dictee pick --child NAME N`: the child picks card N; its dictation is served.
    struct Pick: Command {
        static let name = "pick"
        static let summary = "the child picks card N: its dictation is served, its id printed"
        static let options = OptionSpec(valued: ["child"] + TimeOptions.names, flags: [])
        static let help = """
            usage: dictee pick --child NAME N [--now ISO-8601] [--tz IANA]

            Marks the dictation behind card N (1 to 3, as 'dictee cards' shows them) as
            served and prints its id alone on stdout, for 'dictee show ID' and, once the
            child has written it, 'dictee grade ID'. The other cards stay ready for next
            time. --now sets the time recorded (default: the clock); --tz the zone it is
            read in (default: the zone of the last ingest).

            example:
              id=$(dictee pick --child Léa 2) && dictee show "$id"

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.count == 1, let number = Int(arguments.positionals[0]), (1...CardChoice.count).contains(number) else {
                throw .usage("pick needs one card number, 1 to \(CardChoice.count)", hint: "dictee pick --child Léa 2")
            }
            let (store, child, zone, now) = try DeskOptions.openChild(arguments, context)
            let outcome = try household { () throws(HouseholdError) in
                try Desk.pick(child, card: number, store, at: Date(timeIntervalSince1970: TimeInterval(now)), zone: zone)
            }
            switch outcome {
            case .momentLeft:
                throw .data("the moment of card \(number) is no longer in the calendar", hint: "show the cards again: dictee cards --child NAME")
            case .dayChanged:
                throw .data("the text of card \(number) was written for another day (its moment's day is told otherwise now)",
                            hint: "show the cards again, they are dealt anew: dictee cards --child NAME")
            case .served(let served):
                output.line(String(served.id))
                output.hint("read it aloud with 'dictee show \(served.id)'; once written, 'dictee grade \(served.id)'")
                return .ok
            }
        }
    }
}
