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
        static var summary: String { tr("summary.suggestions") }
        static let options = OptionSpec(valued: ["tz", "for", "kind"], flags: ["json", "all"])
        static let actions = ["list", "label", "reject", "unlabel", "unreject"]
        static var help: String { tr("help.suggestions") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard let action = arguments.positionals.first, actions.contains(action) else {
                let given = arguments.positionals.first ?? ""
                var message = given.isEmpty ? tr("suggestions needs an action: %@", actions.joined(separator: ", "))
                    : tr("unknown action '%@'", given)
                if !given.isEmpty, let near = NearestWord.find(given, in: actions) {
                    message += tr("; did you mean '%@'?", near)
                }
                throw CommandFailure(.usage, message, hint: "dictee suggestions list")
            }
            if action != "label", let option = ["for", "kind"].first(where: { arguments.values[$0] != nil }) {
                throw CommandFailure(.usage, tr("%@ goes with 'suggestions label'", "--" + option))
            }
            if action != "list", let flag = ["all", "json"].first(where: { arguments.flags.contains($0) }) {
                throw CommandFailure(.usage, tr("%@ goes with 'suggestions list'", "--" + flag))
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
                    output.line(all ? tr("no event needed you") : tr("no event waiting for a label"))
                } else {
                    for s in listed { output.line(describe(s, zone, children: children, withStatus: all)) }
                    if listed.contains(where: { $0.status == .pending }) {
                        output.hint(tr("label one: dictee suggestions label ID \"le dîner chez Mamie\"; or: dictee review"))
                    }
                }
                return .ok
            case "label":
                guard arguments.positionals.count >= 3, let id = Int64(arguments.positionals[1]) else {
                    throw CommandFailure(.usage, tr("suggestions label needs an ID and a phrase"), hint: "dictee suggestions label 3 \"le dîner chez Mamie\"")
                }
                let text = arguments.positionals[2...].joined(separator: " ")
                return try label(id: id, text: text, for: arguments.values["for"], kind: arguments.values["kind"], store: store, context: context)
            default:
                guard arguments.positionals.count == 2, let id = Int64(arguments.positionals[1]) else {
                    throw CommandFailure(.usage, tr("suggestions %@ needs one ID", action))
                }
                switch action {
                case "reject":
                    do { try store.reject(suggestion: id) } catch { throw CommandFailure(error) }
                    output.line(tr("rejected %ld: never suggested again", Int(id)))
                case "unreject":
                    do { try store.unreject(suggestion: id) } catch { throw CommandFailure(error) }
                    output.line(tr("unrejected %ld: it waits for a label again", Int(id)))
                default:
                    let withdrawn: StateStore.Withdrawal
                    do { withdrawn = try store.unlabel(suggestion: id) } catch { throw CommandFailure(error) }
                    let language = Language.current
                    let moments = language.isSingular(withdrawn.moments)
                        ? tr("%ld moment", withdrawn.moments) : tr("%ld moments", withdrawn.moments)
                    let texts = language.isSingular(withdrawn.dictations)
                        ? tr("%ld dictation not yet served", withdrawn.dictations) : tr("%ld dictations not yet served", withdrawn.dictations)
                    output.line(tr("unlabeled %ld: %@ and %@ withdrawn; it waits for a label again", Int(id), moments, texts))
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
            guard !found.isEmpty else { throw CommandFailure(.usage, tr("--for needs one or more first names, comma-separated")) }
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
                                     hint: tr("write the moment as a dictation would name it, with its article, e.g. \"le dîner chez Mamie\""))
            }
            // No child's name in the message (Docs/style.md): the parent knows whom --for named.
            if Labels.ownerNamed(in: checked.phrase, owners: owners.map(\.firstName)) != nil {
                throw CommandFailure(.dataError, tr("the label names a child it is for (--for): a child is never offered a moment with its own name, so nobody would get it"),
                                     hint: tr("for the child's own moment leave the name out of the label; for a moment about that child (a birthday), label it for the others"))
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
            let forWhom = owners.isEmpty ? tr("the whole family") : owners.map(\.firstName).joined(separator: ", ")
            let count = Language.current.isSingular(moments.count)
                ? tr("%ld occurrence", moments.count) : tr("%ld occurrences", moments.count)
            context.output.line(tr("labeled %ld: %@ (%@, for %@; %@)", Int(id), stored.text, checked.kind, forWhom, count))
            return .ok
        }

        /// `  3  2026-12-02 Wed 14:00  2 h 30  weekly-ish series, 3 occurrences`.
        static func describe(_ s: Suggestion, _ zone: CalendarZone, children: [Child] = [], withStatus: Bool = false) -> String {
            guard let first = s.occurrences.first else { return "\(s.id)" }
            let id = String(s.id).leftPad(4)
            let count = s.occurrences.count
            let kind = s.isRecurring
                ? tr("recurring, %@ in the window", Language.current.isSingular(count) ? tr("%ld occurrence", count) : tr("%ld occurrences", count))
                : tr("one-off")
            var line = "\(id)  \(when(first.start, zone))  \(duration(first.start, first.end))  \(kind)"
            guard withStatus else { return line }
            line += "  \(s.eventReference)  \(status(s.status))"
            if let label = s.label {
                line += ": " + TerminalText.sanitized(label.text)
                let names = names(label.children, children)
                if !names.isEmpty { line += " " + tr("(for %@)", names.joined(separator: ", ")) }
            }
            return line
        }

        /// A status as the parent reads it ("pending" / "en attente"); `--json` keeps the raw value.
        static func status(_ status: SuggestionStatus) -> String {
            switch status {
            case .pending: tr("pending")
            case .labeled: tr("labeled")
            case .rejected: tr("rejected")
            }
        }

        /// First names of the children with these ids, in the ids' order (unknown ids skipped).
        static func names(_ ids: [Int64], _ children: [Child]) -> [String] {
            ids.compactMap { id in children.first { $0.id == id }?.firstName }
        }

        /// `2026-12-02 Wed 14:00` / `2026-12-02 mer. 14:00`, `2026-12-05 Sat all day`.
        static func when(_ t: EventTime, _ zone: CalendarZone) -> String {
            func weekday(_ d: CalendarDate) -> String { Language.current.shortWeekday(d) }
            switch t {
            case .date(let d):
                return "\(d) \(weekday(d)) " + tr("all day")
            case .instant(let s):
                let date = zone.date(at: s)
                return "\(date) \(weekday(date)) \(zone.iso8601(.instant(s)).dropFirst(11).prefix(5))  "
            }
        }

        static func duration(_ start: EventTime, _ end: EventTime) -> String {
            switch (start, end) {
            case (.date(let a), .date(let b)):
                let days = b.daysSinceEpoch - a.daysSinceEpoch
                // The singular one space longer, so that the unit words line up ("1 day ", "2 days").
                return (Language.current.isSingular(days) ? tr("%ld day", days) + " " : tr("%ld days", days)).leftPad(7)
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
