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
        static var summary: String { tr("summary.ingest") }
        static let options = OptionSpec(valued: TimeOptions.names + ["audit"], flags: ["json"])
        static var help: String { tr("help.ingest") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            guard !arguments.positionals.isEmpty else {
                throw .usage(tr("ingest needs at least one .ics file, folder or URL"), hint: "dictee ingest Fixtures/famille.ics")
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
                output.error(tr("%@ (exit status %ld)", failure.message, Int(failure.code.rawValue)))
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
                output.line(IngestReport.summary(counts))
            }
            if counts.toLabel > 0 {
                output.hint(Language.current.isSingular(counts.toLabel)
                            ? tr("run 'dictee review' to label %ld event", counts.toLabel)
                            : tr("run 'dictee review' to label %ld events", counts.toLabel))
            }
        }
    }
}
