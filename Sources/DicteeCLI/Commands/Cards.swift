import Dictation
import DicteeCore
import Foundation
import Ingest
import Store

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
            calendar (a whitelist moment or one you labeled): the recent past first (the last
            \(CardChoice.recentDays) days, most recent first), then the coming days; never two cards for the
            same moment, never an occurrence the child already had. Behind each card a
            dictation is ready: planned for the child's skills, validated, its verbs in the
            past for a past moment and not in the past for a coming one when the library allows. The cards stay the same
            until the child picks one ('dictee pick'), a grading changes the plan, or a
            moment leaves the calendar.

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

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else {
                output.error("cards takes no argument besides --child NAME")
                output.hint("dictee cards --child Léa")
                return .usage
            }
            let (store, child, zone, now): (StateStore, Child, CalendarZone, Int64)
            switch DictationDesk.openChild(arguments, context) {
            case .success(let opened): (store, child, zone, now) = opened
            case .failure(let code): return code
            }
            let cards: [StoredDictation]
            switch DictationDesk.cards(for: child, store, now: now, zone: zone, context) {
            case .success(let c): cards = c
            case .failure(let code): return code
            }
            if cards.isEmpty {
                output.error("no approved moment to write about: none in the last \(CardChoice.recentDays) days or the coming days that the child did not have yet")
                output.hint("run 'dictee ingest FILE' with a recent calendar, and 'dictee review' to label the events waiting for you")
                return .dataError
            }
            if arguments.flags.contains("json") {
                let list = cards.map { d in
                    JSONWriter.object([
                        ("card", .int(d.card ?? 0)), ("dictation", .int(Int(d.id))), ("moment", .string(d.moment)),
                        ("date", .string(DictationDesk.localDate(d.start, zone: zone).description)),
                        ("upcoming", .bool(Self.startSeconds(d.start, zone) > now)), ("title", .string(d.title)),
                    ])
                }
                output.line(JSONWriter.object([
                    ("child", .string(child.firstName)), ("grade", .string(child.grade.rawValue)),
                    ("cards", .raw("[" + list.joined(separator: ",") + "]")),
                ]))
            } else {
                output.line("\(child.firstName) (\(child.grade.rawValue)), choose a dictation:")
                for d in cards {
                    let date = DictationDesk.frenchDate(DictationDesk.localDate(d.start, zone: zone), withYear: false)
                    let when = Self.startSeconds(d.start, zone) > now ? date + " (à venir)" : date
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

        static func startSeconds(_ start: EventTime, _ zone: CalendarZone) -> Int64 {
            switch start {
            case .instant(let s): return s
            case .date(let d): return zone.instant(year: d.year, month: d.month, day: d.day)
            }
        }
    }

    /// `dictee pick --child NAME N`: the child picks card N; its dictation is served.
    struct Pick: Command {
        static let name = "pick"
        static let summary = "the child picks card N: its dictation is served, its id printed"
        static let options = OptionSpec(valued: ["child"] + TimeOptions.names, flags: [])
        static let help = """
            usage: dictee pick --child NAME N [--now ISO-8601]

            Marks the dictation behind card N (1 to 3, as 'dictee cards' shows them) as
            served and prints its id alone on stdout, for 'dictee show ID' and, once the
            child has written it, 'dictee grade ID'. The other cards stay ready for next
            time. --now sets the time recorded (default: the clock).

            example:
              id=$(dictee pick --child Léa 2) && dictee show "$id"

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) -> ExitCode {
            let output = context.output
            guard arguments.positionals.count == 1, let number = Int(arguments.positionals[0]), (1...CardChoice.count).contains(number) else {
                output.error("pick needs one card number, 1 to \(CardChoice.count)")
                output.hint("dictee pick --child Léa 2")
                return .usage
            }
            let (store, child, now): (StateStore, Child, Int64)
            switch DictationDesk.openChild(arguments, context) {
            case .success(let opened): (store, child, now) = (opened.store, opened.child, opened.now)
            case .failure(let code): return code
            }
            do {
                // A card whose moment left the calendar since the deal (deleted, moved, or now
                // disqualified) is not served: it is set aside and the child chooses again.
                if let card = try store.cards(childID: child.id!).first(where: { $0.card == number }),
                   !(try store.momentKeys()).contains(card.occurrenceKey) {
                    try store.retireDictations([card.id])
                    output.error("the moment of card \(number) is no longer in the calendar")
                    output.hint("show the cards again: dictee cards --child NAME")
                    return .dataError
                }
                let served = try store.pick(childID: child.id!, card: number, at: Date(timeIntervalSince1970: TimeInterval(now)))
                output.line(String(served.id))
                output.hint("read it aloud with 'dictee show \(served.id)'; once written, 'dictee grade \(served.id)'")
                return .ok
            } catch {
                return StateOptions.report(error, context)
            }
        }
    }
}
