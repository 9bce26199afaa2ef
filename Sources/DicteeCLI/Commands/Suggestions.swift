import DicteeCore
import Foundation
import Store
import Ingest
import PrivacyFilter

extension Dictee {
    /// `dictee suggestions list [--json]`, `dictee suggestions label ID TEXT`,
    /// `dictee suggestions reject ID`: the parent's review queue, non-interactively.
    struct Suggestions: Command {
        static let name = "suggestions"
        static let summary = "list, label or reject the events waiting for the parent"
        static let options = OptionSpec(valued: ["tz"], flags: ["json"])
        static let help = """
            usage: dictee suggestions list [--json] [--tz IANA]  (default zone: the last ingest's)
                   dictee suggestions label ID TEXT
                   dictee suggestions reject ID

            Events the privacy filter could not name wait here, without any title: their date,
            time, duration and recurrence only. Label one with your own words (checked against
            the disqualifiers, like every title) to make it a moment, or reject it: a rejected
            event is never suggested again, for every occurrence of its series, also after
            ingesting again.

            example:
              dictee suggestions label 3 "la sortie au parc"

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            let actions = ["list", "label", "reject"]
            guard let action = arguments.positionals.first, actions.contains(action) else {
                let given = arguments.positionals.first ?? ""
                var message = given.isEmpty ? "suggestions needs an action: list, label or reject"
                    : "unknown action '\(given)'"
                if !given.isEmpty, let near = NearestWord.find(given, in: actions) {
                    message += "; did you mean '\(near)'?"
                }
                throw CommandFailure(.usage, message, hint: "dictee suggestions list")
            }
            let store = try StateOptions.open(context, create: false)
            let zone = try TimeOptions.storedZone(arguments, store, context)
            switch action {
            case "list":
                let pending: [Suggestion]
                do { pending = try store.pendingSuggestions() } catch {
                    throw CommandFailure(error)
                }
                if arguments.flags.contains("json") {
                    output.line("[" + pending.map { json($0, zone) }.joined(separator: ",\n") + "]")
                } else if pending.isEmpty {
                    output.line("no event waiting for a label")
                } else {
                    for s in pending { output.line(describe(s, zone)) }
                    output.hint("label one: dictee suggestions label ID \"your words\"; or: dictee review")
                }
                return .ok
            case "label":
                guard arguments.positionals.count >= 3, let id = Int64(arguments.positionals[1]) else {
                    throw CommandFailure(.usage, "suggestions label needs an ID and a text", hint: "dictee suggestions label 3 \"la sortie au parc\"")
                }
                let text = arguments.positionals[2...].joined(separator: " ")
                return try label(id: id, text: text, store: store, context: context)
            default:
                guard arguments.positionals.count == 2, let id = Int64(arguments.positionals[1]) else {
                    throw CommandFailure(.usage, "suggestions reject needs one ID")
                }
                do { try store.reject(suggestion: id) } catch {
                    throw CommandFailure(error)
                }
                output.line("rejected \(id): never suggested again")
                return .ok
            }
        }

        /// Labels suggestion `id`: checks the text with the privacy filter, then stores it.
        static func label(id: Int64, text: String, store: StateStore, context: CommandContext) throws(CommandFailure) -> ExitCode {
            let filter = PrivacyFilter()
            let suggestion: Suggestion
            do throws(StateError) {
                guard let s = try store.suggestion(id: id) else { throw .unknownSuggestion(id) }
                suggestion = s
            } catch {
                throw CommandFailure(error)
            }
            var moments: [Moment] = []
            for occurrence in suggestion.occurrences {
                switch filter.moment(label: text, eventReference: suggestion.eventReference,
                                     start: occurrence.start, end: occurrence.end,
                                     isRecurring: suggestion.isRecurring) {
                case .success(let m): moments.append(m)
                case .failure(let error):
                    throw CommandFailure(.dataError, error.description)
                }
            }
            let stored = PrivacyFilter.normalisedLabel(text)
            do { try store.label(suggestion: id, label: stored, moments: moments) } catch {
                throw CommandFailure(error)
            }
            context.output.line("labeled \(id): \(stored) (\(moments.count) \(moments.count == 1 ? "occurrence" : "occurrences"))")
            return .ok
        }

        /// `  3  2026-12-02 Wed 14:00  2 h 30  weekly-ish series, 3 occurrences`.
        static func describe(_ s: Suggestion, _ zone: CalendarZone) -> String {
            guard let first = s.occurrences.first else { return "\(s.id)" }
            let id = String(s.id).leftPad(4)
            let count = s.occurrences.count
            let kind = s.isRecurring
                ? "recurring, \(count) \(count == 1 ? "occurrence" : "occurrences") in the window"
                : "one-off"
            return "\(id)  \(when(first.start, zone))  \(duration(first.start, first.end))  \(kind)"
        }

        static func when(_ t: EventTime, _ zone: CalendarZone) -> String {
            let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
            func weekday(_ d: CalendarDate) -> String { weekdays[((d.daysSinceEpoch + 3) % 7 + 7) % 7] }
            switch t {
            case .date(let d):
                return "\(d) \(weekday(d)) all day"
            case .instant(let s):
                let date = zone.date(at: s)
                return "\(date) \(weekday(date)) \(zone.iso8601(.instant(s)).dropFirst(11).prefix(5))  "
            }
        }

        static func duration(_ start: EventTime, _ end: EventTime) -> String {
            switch (start, end) {
            case (.date(let a), .date(let b)):
                let days = b.daysSinceEpoch - a.daysSinceEpoch
                return "\(days) \(days == 1 ? "day " : "days")".leftPad(7)
            case (.instant(let a), .instant(let b)):
                let minutes = Int((b - a) / 60)
                return (minutes >= 60 ? "\(minutes / 60) h \(String(minutes % 60).leftPad(2, "0"))" : "\(minutes) min").leftPad(7)
            default:
                return "".leftPad(7)
            }
        }

        static func json(_ s: Suggestion, _ zone: CalendarZone) -> String {
            JSONWriter.object([
                ("id", .int(Int(s.id))), ("event_ref", .string(s.eventReference.description)),
                ("recurring", .bool(s.isRecurring)),
            ]).dropLast() + ",\"occurrences\":[" + s.occurrences.map {
                JSONWriter.object([("start", .string(zone.iso8601($0.start))), ("end", .string(zone.iso8601($0.end)))])
            }.joined(separator: ",") + "]}"
        }
    }
}

extension String {
    func leftPad(_ width: Int, _ pad: Character = " ") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
