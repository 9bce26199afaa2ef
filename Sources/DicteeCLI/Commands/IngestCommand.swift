import DicteeCore
import Foundation
import Ingest
import PrivacyFilter
import Store

extension Dictee {
    /// `dictee ingest FILE... [--audit PATH] [--now ISO-8601] [--tz IANA] [--json]`: reads the
    /// calendars, keeps the read window, passes every occurrence through the privacy filter and
    /// stores the decisions (one transaction). No calendar text is stored, logged or printed.
    struct IngestCommand: Command {
        static let name = "ingest"
        static let summary = "read calendars through the privacy filter into the family's state"
        static let options = OptionSpec(valued: TimeOptions.names + ["audit"], flags: ["json"])
        static let help = """
            usage: dictee [--state PATH] ingest FILE... [--audit PATH] [--now ISO-8601] [--tz IANA] [--json]

            Reads .ics files, keeps the occurrences of the read window, and passes each one
            through the privacy filter: a moment (canonical phrase from the whitelist, at most one
            first name), disqualified (a sensitive word in the title, place or description), or
            unlabeled (no name kept; the parent labels or rejects it with 'dictee review').
            Only the decisions are stored, never a title. Ingesting the same file again changes
            nothing.

            options:
              --audit PATH     also write the audit file: a header, then one JSON line per
                               moment that may reach a model; check it with 'dictee audit'
              --now, --tz      as for 'dictee events'
              --json           print the counts as JSON

            example:
              dictee ingest Fixtures/famille.ics --audit audit.jsonl --now 2026-11-29T18:00:00+01:00

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) -> ExitCode {
            let output = context.output
            guard !arguments.positionals.isEmpty else {
                output.error("ingest needs at least one .ics file")
                output.hint("dictee ingest Fixtures/famille.ics")
                return .usage
            }
            let zone: CalendarZone, now: Int64
            switch TimeOptions.resolve(arguments, context) {
            case .success(let time): (zone, now) = time
            case .failure(let code): return code
            }
            let store: StateStore
            switch StateOptions.open(context) {
            case .success(let s): store = s
            case .failure(let code): return code
            }
            let window = ReadWindow.around(nowSeconds: now, zone: zone)
            let result = StandardError.silenced {
                CalendarReader(zone: zone, window: window).read(paths: arguments.positionals)
            }
            let filter = PrivacyFilter()
            let labels: [EventReference: String]
            let rejected: Set<EventReference>
            do {
                labels = try store.labels()
                rejected = try store.rejectedEvents()
            } catch {
                return StateOptions.report(error, context)
            }

            var decisions: [(decision: OccurrenceDecision, source: String)] = []
            var entries: [AuditFile.Entry] = []
            var moments = 0, disqualified = 0, unlabeled = 0
            var toLabel = Set<EventReference>()
            let absolute = Dictionary(uniqueKeysWithValues: Set(arguments.positionals).map { ($0, Self.absolute($0)) })
            // Occurrences of one series share their texts: classify each text once.
            var known: [String: Classification] = [:]
            for occurrence in result.occurrences {
                let ref = occurrence.eventReference
                var decision: OccurrenceDecision
                let textKey = occurrence.summary + "\u{0}" + occurrence.location + "\u{0}" + occurrence.eventDescription
                let classification = known[textKey] ?? filter.classify(
                    title: occurrence.summary, location: occurrence.location,
                    description: occurrence.eventDescription)
                known[textKey] = classification
                switch filter.decision(for: occurrence, classification: classification) {
                case .moment(let m):
                    decision = .moment(m)
                case .disqualified(let rule):
                    decision = .disqualified(rule: rule, event: ref, start: occurrence.start,
                                             end: occurrence.end, isRecurring: occurrence.isRecurring)
                case .unlabeled:
                    decision = .unlabeled(event: ref, start: occurrence.start, end: occurrence.end,
                                          isRecurring: occurrence.isRecurring)
                    if let label = labels[ref], case .success(let m) = filter.moment(
                        label: label, eventReference: ref, start: occurrence.start,
                        end: occurrence.end, isRecurring: occurrence.isRecurring)
                    {
                        decision = .moment(m)
                    }
                }
                switch decision {
                case .moment(let m):
                    moments += 1
                    entries.append(AuditFile.Entry(moment: m, date: localDate(m.start, zone)))
                case .disqualified: disqualified += 1
                case .unlabeled:
                    unlabeled += 1
                    if !rejected.contains(ref) { toLabel.insert(ref) }
                }
                decisions.append((decision, absolute[occurrence.source.file] ?? Self.absolute(occurrence.source.file)))
            }
            // Forget vanished occurrences only for files read completely, and never those of an
            // event that is still in the file but could not be read this time.
            let unreadable = Set(result.fileErrors.compactMap(\.path)).union(result.incompleteFiles)
            let readSources = arguments.positionals.filter { !unreadable.contains($0) }.compactMap { absolute[$0] }
            let keep = Set(result.errors.compactMap { d in d.uid.flatMap { $0.isEmpty ? nil : EventReference(uid: $0) } })
            let storeWindow = StateStore.Window(
                oneOff: window.oneOff, recurring: window.recurring,
                oneOffDates: zone.date(at: window.oneOff.lowerBound).description..<zone.date(at: window.oneOff.upperBound).description,
                recurringDates: zone.date(at: window.recurring.lowerBound).description..<zone.date(at: window.recurring.upperBound).description)
            do {
                try store.record(decisions, window: storeWindow, readSources: readSources, keeping: keep)
                try store.setIngestZone(zone.identifier)
            } catch {
                return StateOptions.report(error, context)
            }

            let errors = result.errors.count + result.fileErrors.count
            let counts: [(String, Int)] = [
                ("events", result.eventCount), ("occurrences", result.occurrences.count),
                ("moments", moments), ("disqualified", disqualified), ("unlabeled", unlabeled),
                ("to_label", toLabel.count), ("errors", errors),
            ]
            if let auditPath = arguments.values["audit"] {
                let text = AuditFile.render(
                    whitelist: filter.whitelist,
                    window: [
                        ("now", zone.iso8601(.instant(now))), ("tz", zone.identifier),
                        ("one_off_from", zone.iso8601(.instant(window.oneOff.lowerBound))),
                        ("recurring_from", zone.iso8601(.instant(window.recurring.lowerBound))),
                        ("to", zone.iso8601(.instant(window.oneOff.upperBound))),
                    ],
                    counts: counts, entries: entries)
                do {
                    // The audit file names children: readable by the family's account only.
                    try Data(text.utf8).write(to: URL(fileURLWithPath: auditPath), options: .atomic)
                    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: auditPath)
                } catch {
                    output.error("\(auditPath): cannot write the audit file")
                    return .internalError
                }
            }

            // Problems name the file, line and event reference, never the UID or the text.
            for error in result.fileErrors { output.error(error.description) }
            for d in result.diagnostics {
                if d.severity == .error { output.error(d.description.replacingOccurrences(of: ": error: ", with: ": ")) }
                else { output.warning(d.description.replacingOccurrences(of: ": warning: ", with: ": ")) }
            }
            if arguments.flags.contains("json") {
                output.line(JSONWriter.object(counts.map { ($0.0, .int($0.1)) }))
            } else {
                func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
                output.line(count(result.eventCount, "event", "events") + ": " + count(moments, "moment", "moments")
                            + ", \(disqualified) disqualified, \(toLabel.count) to label, "
                            + count(errors, "error", "errors"))
            }
            if !toLabel.isEmpty {
                output.hint("run 'dictee review' to label \(toLabel.count) \(toLabel.count == 1 ? "event" : "events")")
            }
            if !result.fileErrors.isEmpty { return .dataError }
            return result.errors.isEmpty ? .ok : .itemErrors
        }

        /// The file's absolute, standardised path (so that `review --show-titles` finds it from
        /// any folder, and `a.ics` and `./a.ics` are one source).
        static func absolute(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.path
        }

        static func localDate(_ t: EventTime, _ zone: CalendarZone) -> String {
            switch t {
            case .date(let d): return d.description
            case .instant(let s): return zone.date(at: s).description
            }
        }
    }
}
