import DicteeCore
import Foundation
import Ingest

extension Dictee {
    /// `dictee events FILE... [--now ISO-8601] [--tz IANA] [--json]`: the in-window occurrences of
    /// .ics files, sorted by start instant.
    ///
    /// The only command that prints raw titles: it shows the parent's own file on the parent's own
    /// terminal. JSON contract (later checks rely on it exactly):
    /// `{"occurrences":[{"uid","event_ref","summary","start","end","all_day","recurring"}],
    ///   "errors":[{"uid","event_ref","file","line","message"}]}` (`event_ref`: the event's
    ///   `EventReference`, as `suggestions list --json`, the audit file and the diagnostics name it); exit 0, 1 (some events had errors, the rest
    /// is printed), 65 (a file unreadable or not a calendar).
    struct Events: Command {
        static let name = "events"
        static var summary: String { tr("summary.events") }
        static let options = OptionSpec(valued: TimeOptions.names, flags: ["json"])
        static var help: String { tr("help.events") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard !arguments.positionals.isEmpty else {
                throw CommandFailure(.usage, tr("events needs at least one .ics file"), hint: "dictee events Fixtures/famille.ics --now 2026-11-29T18:00:00+01:00")
            }
            let (zone, now) = try TimeOptions.resolve(arguments, context)
            let reader = CalendarReader(
                zone: zone, window: .around(nowSeconds: now, zone: zone))
            // libical prints its own debugging notes ("Encountered END before BEGIN") on stderr;
            // the reader reports every problem itself, with file and line.
            let result = StandardError.silenced { reader.read(paths: arguments.positionals) }

            if arguments.flags.contains("json") {
                output.write(json(result, zone: zone))
            } else {
                for occurrence in result.occurrences {
                    output.line(humanLine(occurrence, zone: zone))
                }
            }
            for error in result.fileErrors {
                output.error(error.description)
            }
            for diagnostic in result.diagnostics {
                if diagnostic.severity == .error {
                    output.error(located(diagnostic))
                } else {
                    output.warning(located(diagnostic))
                }
            }
            output.diagnostic(summary(result))
            if !result.fileErrors.isEmpty { return .dataError }
            return result.errors.isEmpty ? .ok : .itemErrors
        }

        /// `456 events: 429 occurrences in the window, 2 errors, 1 unreadable file`
        /// ("456 événements : 429 occurrences dans la fenêtre, 2 erreurs, 1 fichier illisible").
        static func summary(_ result: IngestResult) -> String {
            let language = Language.current
            let events = result.eventCount, occurrences = result.occurrences.count, errors = result.errors.count
            var text = tr("%@: %@ in the window, %@",
                          language.isSingular(events) ? tr("%ld event", events) : tr("%ld events", events),
                          language.isSingular(occurrences) ? tr("%ld occurrence", occurrences) : tr("%ld occurrences", occurrences),
                          language.isSingular(errors) ? tr("%ld error", errors) : tr("%ld errors", errors))
            let unreadable = result.fileErrors.count
            if unreadable > 0 {
                text += ", " + (language.isSingular(unreadable)
                    ? tr("%ld unreadable file", unreadable) : tr("%ld unreadable files", unreadable))
            }
            return text
        }

        /// `file:line: message (uid ...)`: this command may name the UID, the parent's own data.
        private static func located(_ d: Diagnostic) -> String {
            var text = d.location.map { "\($0): " } ?? ""
            text += d.message
            if let uid = d.uid { text += " (UID \(uid.isEmpty ? tr("missing") : uid))" }
            return text
        }

        private static func humanLine(_ o: Occurrence, zone: CalendarZone) -> String {
            let start = zone.iso8601(o.start)
            let end = zone.iso8601(o.end)
            let kinds = (recurring: tr("recurring"), oneOff: tr("one-off"))
            let width = max(kinds.recurring.count, kinds.oneOff.count)
            let kind = (o.isRecurring ? kinds.recurring : kinds.oneOff).padding(toLength: width, withPad: " ", startingAt: 0)
            let title = TerminalText.sanitized(o.summary)
            let pad = o.isAllDay ? String(repeating: " ", count: 15) : ""
            return "\(start)\(pad)  \(end)\(pad)  \(kind)  \(title)"
        }

        static func json(_ result: IngestResult, zone: CalendarZone) -> String {
            var text = "{\"occurrences\":["
            text.reserveCapacity(result.occurrences.count * 160)
            for (k, o) in result.occurrences.enumerated() {
                if k > 0 { text += "," }
                text += "\n"
                text += JSONWriter.object([
                    ("uid", .string(o.uid)), ("event_ref", .string(o.eventReference.description)),
                    ("summary", .string(o.summary)),
                    ("start", .string(zone.iso8601(o.start))), ("end", .string(zone.iso8601(o.end))),
                    ("all_day", .bool(o.isAllDay)), ("recurring", .bool(o.isRecurring)),
                ])
            }
            text += "\n],\"errors\":["
            var first = true
            for error in result.fileErrors {
                if !first { text += "," }
                first = false
                text += "\n" + JSONWriter.object([
                    ("uid", .null), ("event_ref", .null), ("file", .string(error.path ?? "")), ("line", .null),
                    ("message", .string(error.message)),
                ])
            }
            for d in result.errors {
                if !first { text += "," }
                first = false
                text += "\n" + JSONWriter.object([
                    ("uid", d.uid.map(JSONWriter.Value.string) ?? .null),
                    ("event_ref", d.uid.map { .string(EventReference(uid: $0).description) } ?? .null),
                    ("file", .string(d.location?.file ?? "")),
                    ("line", d.location?.line.map(JSONWriter.Value.int) ?? .null),
                    ("message", .string(d.message)),
                ])
            }
            text += "\n]}\n"
            return text
        }
    }
}
