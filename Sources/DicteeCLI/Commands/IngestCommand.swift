import DicteeCore
import Foundation
import Household
import Web

extension Dictee {
    /// `dictee ingest FILE|FOLDER|URL... [--audit PATH] [--now ISO-8601] [--tz IANA] [--json]`: reads the
    /// calendars, keeps the read window, passes every occurrence through the privacy filter and
    /// stores the decisions (one transaction). No calendar text is stored, logged or printed.
    struct IngestCommand: Command {
        static let name = "ingest"
        static let summary = "read calendars through the privacy filter into the family's state"
        static let options = OptionSpec(valued: TimeOptions.names + ["audit"], flags: ["json"])
        static let help = """
            usage: dictee [--state PATH] ingest FILE|FOLDER|URL... [--audit PATH] [--now ISO-8601] [--tz IANA] [--json]

            Reads .ics files, vdir folders (every .ics inside) or subscription URLs (https://,
            webcal://; CalDAV calendars are read by 'dictee nightly' from 'dictee source add
            caldav'), keeps the occurrences of the read window, and passes each one
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

            Exit status: 0, 1 some events had errors (the rest was stored), 65 a file cannot be
            read, 69 a URL cannot be fetched, 77 its server refused the credentials.

            example:
              dictee ingest Fixtures/famille.ics --audit audit.jsonl --now 2026-11-29T18:00:00+01:00

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            guard !arguments.positionals.isEmpty else {
                throw .usage("ingest needs at least one .ics file, folder or URL", hint: "dictee ingest Fixtures/famille.ics")
            }
            let (zone, now) = try TimeOptions.resolve(arguments, context)
            let store = try StateOptions.open(context)
            let output = context.output
            var sources: [CalendarSource] = []
            for given in arguments.positionals {
                sources.append(given.contains("://") ? .subscription(.init(url: try SourceCommand.remoteURL(given))) : .path(given))
            }
            let job = IngestRun(sources: sources, zone: zone, now: now,
                                auditFile: arguments.values["audit"],
                                fetcher: Fetcher(proxy: try ConfigOptions.load(context).proxy, notice: { output.warning($0) }),
                                environment: context.environment, quietly: { body in StandardError.silenced(body) })
            let report = try household { () throws(HouseholdError) in try job.run(into: store) }
            render(report, context.output, json: arguments.flags.contains("json"))
            if let failure = report.sourceFailures.first { return CommandFailure(failure.error).code }
            if !report.fileErrors.isEmpty { return .dataError }
            return report.eventErrors.isEmpty ? .ok : .itemErrors
        }

        /// Prints an ingest's problems (each names the file, line and event reference, never the
        /// UID or the text), its summary line (or the counts as JSON) and the review hint.
        static func render(_ report: IngestReport, _ output: OutputSink, json: Bool) {
            for failure in report.sourceFailures {
                let failure = CommandFailure(failure.error)
                output.error("\(failure.message) (exit status \(failure.code.rawValue))")
                if let hint = failure.hint { output.hint(hint) }
            }
            for error in report.fileErrors { output.error(error.description) }
            for d in report.diagnostics {
                if d.severity == .error { output.error(d.description.replacingOccurrences(of: ": error: ", with: ": ")) }
                else { output.warning(d.description.replacingOccurrences(of: ": warning: ", with: ": ")) }
            }
            let counts = report.counts
            if json {
                output.line(JSONWriter.object(counts.fields.map { ($0.0, .int($0.1)) }))
            } else {
                func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
                output.line(count(counts.events, "event", "events") + ": " + count(counts.moments, "moment", "moments")
                            + ", \(counts.disqualified) disqualified, \(counts.toLabel) to label, "
                            + count(counts.errors, "error", "errors"))
            }
            if counts.toLabel > 0 {
                output.hint("run 'dictee review' to label \(counts.toLabel) \(counts.toLabel == 1 ? "event" : "events")")
            }
        }
    }
}
