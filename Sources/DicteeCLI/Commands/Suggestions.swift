import Dictation
import DicteeCore
import Foundation
import Household
import Store
import Ingest
import PrivacyFilter

extension Dictee {
    /// `dictee suggestions list [--all] [--json]`, `dictee suggestions label ID TEXT [--for NAMES]
    /// [--kind KIND]`, `dictee suggestions reject ID`, `dictee suggestions unlabel ID`,
    /// `dictee suggestions unreject ID`: the parent's review queue, non-interactively.
    ///
    /// JSON (`list --json`): one array of `{"id", "event_ref", "status", "label", "kind", "for",
    /// "recurring", "occurrences": [{"start", "end"}]}`; `event_ref` is the reference
    /// `events --json` prints, `label`/`kind` are `null` unless labeled, `for` lists first names
    /// (`[]`: the whole family). No title is ever printed: `review --show-titles` shows them.
    struct Suggestions: Command {
        static let name = "suggestions"
        static let summary = "list, label, reject, unlabel or unreject the events waiting for the parent"
        static let options = OptionSpec(valued: ["tz", "for", "kind"], flags: ["json", "all"])
        static let actions = ["list", "label", "reject", "unlabel", "unreject"]
        static let help = """
            usage: dictee suggestions list [--all] [--json] [--tz IANA]  (default zone: the last ingest's)
                   dictee suggestions label ID PHRASE [--for NAME,NAME] [--kind KIND]
                   dictee suggestions reject ID
                   dictee suggestions unlabel ID
                   dictee suggestions unreject ID

            Events the privacy filter could not name wait here, without any title: their date,
            time, duration and recurrence only. Label one with your own words to make it a
            moment, or reject it: a rejected event is never suggested again, for every
            occurrence of its series, also after ingesting again.

            A label is a French noun phrase with its article, as a dictation would name the
            moment: "le dîner chez Mamie", "la fête des Lumières" (lower case except names, at
            most 60 characters, no digits, emoji or markup, every word a French word or a name;
            never a disqualifying, medical or forbidden word). Its kind (sortie, fete, sport,
            sejour...) chooses the texts; it is inferred from the main noun unless given.

            options:
              --all            list every event that needed you: pending, labeled and rejected
              --json           one JSON array (id, event_ref, status, label, kind, for, recurring,
                               occurrences); event_ref is the one 'dictee events --json' prints
              --for NAMES      label: the moment is these children's only (comma-separated
                               first names); without it, it is the whole family's
              --kind KIND      label: the kind of moment, instead of the inferred one: activite,
                               animaux, anniversaire, ballon, carnaval, chant, cheval, combat,
                               concert, danse, eau, ecole, ecran, fete, general, glisse, grimpe,
                               gym, halloween, instrument, lecture, marche, match, musique, nage,
                               noel, pique_nique, plein_air, poisson, raquette, repas, sejour,
                               sortie, spectacle, sport, theatre or velo

            unlabel takes a label back (the moment and its dictations not yet served are
            withdrawn; served and graded ones stay in the child's history); unreject puts a
            rejected event back in the queue. Titles are never stored: 'dictee review
            --show-titles' re-reads them from the calendar, on this terminal only.

            example:
              dictee suggestions label 3 "le dîner chez Mamie" --for Léa

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard let action = arguments.positionals.first, actions.contains(action) else {
                let given = arguments.positionals.first ?? ""
                var message = given.isEmpty ? "suggestions needs an action: \(actions.joined(separator: ", "))"
                    : "unknown action '\(given)'"
                if !given.isEmpty, let near = NearestWord.find(given, in: actions) {
                    message += "; did you mean '\(near)'?"
                }
                throw CommandFailure(.usage, message, hint: "dictee suggestions list")
            }
            if action != "label", let option = ["for", "kind"].first(where: { arguments.values[$0] != nil }) {
                throw CommandFailure(.usage, "--\(option) goes with 'suggestions label'")
            }
            if action != "list", let flag = ["all", "json"].first(where: { arguments.flags.contains($0) }) {
                throw CommandFailure(.usage, "--\(flag) goes with 'suggestions list'")
            }
            let store = try StateOptions.open(context, create: false)
            let zone = try TimeOptions.storedZone(arguments, store, context)
            switch action {
            case "list":
                let all = arguments.flags.contains("all")
                let listed: [Suggestion]
                let children: [Child]
                do {
                    listed = all ? try store.allSuggestions() : try store.pendingSuggestions()
                    children = try store.children()
                } catch {
                    throw CommandFailure(error)
                }
                if arguments.flags.contains("json") {
                    output.line("[" + listed.map { json($0, zone, children) }.joined(separator: ",\n") + "]")
                } else if listed.isEmpty {
                    output.line(all ? "no event needed you" : "no event waiting for a label")
                } else {
                    for s in listed { output.line(describe(s, zone, children: children, withStatus: all)) }
                    if listed.contains(where: { $0.status == .pending }) {
                        output.hint("label one: dictee suggestions label ID \"le dîner chez Mamie\"; or: dictee review")
                    }
                }
                return .ok
            case "label":
                guard arguments.positionals.count >= 3, let id = Int64(arguments.positionals[1]) else {
                    throw CommandFailure(.usage, "suggestions label needs an ID and a phrase", hint: "dictee suggestions label 3 \"le dîner chez Mamie\"")
                }
                let text = arguments.positionals[2...].joined(separator: " ")
                return try label(id: id, text: text, for: arguments.values["for"], kind: arguments.values["kind"], store: store, context: context)
            default:
                guard arguments.positionals.count == 2, let id = Int64(arguments.positionals[1]) else {
                    throw CommandFailure(.usage, "suggestions \(action) needs one ID")
                }
                switch action {
                case "reject":
                    do { try store.reject(suggestion: id) } catch { throw CommandFailure(error) }
                    output.line("rejected \(id): never suggested again")
                case "unreject":
                    do { try store.unreject(suggestion: id) } catch { throw CommandFailure(error) }
                    output.line("unrejected \(id): it waits for a label again")
                default:
                    let withdrawn: StateStore.Withdrawal
                    do { withdrawn = try store.unlabel(suggestion: id) } catch { throw CommandFailure(error) }
                    let moments = withdrawn.moments == 1 ? "1 moment" : "\(withdrawn.moments) moments"
                    let texts = withdrawn.dictations == 1 ? "1 dictation not yet served" : "\(withdrawn.dictations) dictations not yet served"
                    output.line("unlabeled \(id): \(moments) and \(texts) withdrawn; it waits for a label again")
                }
                return .ok
            }
        }

        /// The children `--for` names (comma-separated first names, any case), as stored.
        static func children(_ list: String?, store: StateStore) throws(CommandFailure) -> [Child] {
            guard let list else { return [] }
            var found: [Child] = []
            for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
                let child = try household { () throws(HouseholdError) in try Desk.child(named: name, store) }
                if !found.contains(child) { found.append(child) }
            }
            guard !found.isEmpty else { throw CommandFailure(.usage, "--for needs one or more first names, comma-separated") }
            return found
        }

        /// Labels suggestion `id`: checks the phrase (`Labels.check`: the privacy filter, French
        /// grammar from Lexique, registers, kind), then stores it with what was derived, for the
        /// children `names` (a `--for` value; `nil`: the whole family) with `kind` (`nil`:
        /// inferred from the head noun). A refusal stores nothing (exit 65).
        static func label(id: Int64, text: String, for names: String? = nil, kind: String? = nil, store: StateStore, context: CommandContext) throws(CommandFailure) -> ExitCode {
            let suggestion: Suggestion
            let family: [Child]
            do throws(StateError) {
                guard let s = try store.suggestion(id: id) else { throw .unknownSuggestion(id) }
                guard s.status == .pending else { throw .suggestionNotPending(id, status: s.status.rawValue) }
                suggestion = s
                family = try store.children()
            } catch {
                throw CommandFailure(error)
            }
            let owners = try children(names, store: store)
            let lexicon = try household { () throws(HouseholdError) in try Labels.lexicon(environment: context.environment) }
            let checked: CheckedLabel
            switch Labels.check(text, kind: kind, names: Labels.names(children: family.map(\.firstName)), lexicon: lexicon) {
            case .success(let c): checked = c
            case .failure(let refusal):
                if case .unknownKind = refusal {
                    throw CommandFailure(.usage, refusal.description)
                }
                throw CommandFailure(.dataError, refusal.description,
                                     hint: "write the moment as a dictation would name it, with its article, e.g. \"le dîner chez Mamie\"")
            }
            // No child's name in the message (Docs/style.md): the parent knows whom --for named.
            if Labels.ownerNamed(in: checked.phrase, owners: owners.map(\.firstName)) != nil {
                throw CommandFailure(.dataError, "the label names a child it is for (--for): a child is never offered a moment with its own name, so nobody would get it",
                                     hint: "for the child's own moment leave the name out of the label; for a moment about that child (a birthday), label it for the others")
            }
            let stored = StoredLabel(text: checked.phrase, grammar: checked.grammar, kind: checked.kind,
                                     children: owners.compactMap(\.id))
            let filter = PrivacyFilter()
            var moments: [Moment] = []
            for occurrence in suggestion.occurrences {
                switch filter.moment(label: stored.text, eventReference: suggestion.eventReference,
                                     start: occurrence.start, end: occurrence.end, isRecurring: suggestion.isRecurring,
                                     grammar: stored.grammar, kind: stored.kind, children: stored.children) {
                case .success(let m): moments.append(m)
                case .failure(let error):
                    throw CommandFailure(.dataError, error.description)
                }
            }
            do { try store.label(suggestion: id, label: stored, moments: moments) } catch {
                throw CommandFailure(error)
            }
            let forWhom = owners.isEmpty ? "the whole family" : owners.map(\.firstName).joined(separator: ", ")
            let count = "\(moments.count) \(moments.count == 1 ? "occurrence" : "occurrences")"
            context.output.line("labeled \(id): \(stored.text) (\(checked.kind), for \(forWhom); \(count))")
            return .ok
        }

        /// `  3  2026-12-02 Wed 14:00  2 h 30  weekly-ish series, 3 occurrences`.
        static func describe(_ s: Suggestion, _ zone: CalendarZone, children: [Child] = [], withStatus: Bool = false) -> String {
            guard let first = s.occurrences.first else { return "\(s.id)" }
            let id = String(s.id).leftPad(4)
            let count = s.occurrences.count
            let kind = s.isRecurring
                ? "recurring, \(count) \(count == 1 ? "occurrence" : "occurrences") in the window"
                : "one-off"
            var line = "\(id)  \(when(first.start, zone))  \(duration(first.start, first.end))  \(kind)"
            guard withStatus else { return line }
            line += "  \(s.eventReference)  \(s.status.rawValue)"
            if let label = s.label {
                line += ": " + TerminalText.sanitized(label.text)
                let names = names(label.children, children)
                if !names.isEmpty { line += " (for \(names.joined(separator: ", ")))" }
            }
            return line
        }

        /// First names of the children with these ids, in the ids' order (unknown ids skipped).
        static func names(_ ids: [Int64], _ children: [Child]) -> [String] {
            ids.compactMap { id in children.first { $0.id == id }?.firstName }
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

        static func json(_ s: Suggestion, _ zone: CalendarZone, _ children: [Child]) -> String {
            let names = names(s.label?.children ?? [], children).map(JSONWriter.quoted).joined(separator: ",")
            return JSONWriter.object([
                ("id", .int(Int(s.id))), ("event_ref", .string(s.eventReference.description)),
                ("status", .string(s.status.rawValue)),
                ("label", s.label.map { .string($0.text) } ?? .null),
                ("kind", s.label?.kind.map(JSONWriter.Value.string) ?? .null),
            ]).dropLast() + ",\"for\":[\(names)],\"recurring\":\(s.isRecurring),\"occurrences\":[" + s.occurrences.map {
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
