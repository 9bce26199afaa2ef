import Dictation
import DicteeCore
import Foundation
import Household
import Ingest

extension Dictee {
    /// `dictee nightly [--calendar PATH] [--now ISO-8601] [--tz IANA]`: the main job, for cron.
    ///
    /// One run at a time (a lock file beside the state; a second run exits 75 naming the holder).
    /// Ingests the configured calendar sources (or `--calendar` for this run only) and writes the
    /// audit file of what may reach the model; then, for each child, writes validated dictations
    /// (the model, or the library) until three cards are ready plus a reserve, at most 10 texts
    /// per child per run, each stored in its own transaction (a run killed at any point is
    /// completed by the next one, without duplicates); deals the cards. One summary line on
    /// stdout, diagnostics on stderr, no terminal needed.
    struct Nightly: Command {
        static let name = "nightly"
        static var summary: String { tr("summary.nightly") }
        static let options = OptionSpec(valued: ["calendar"] + TimeOptions.names, flags: ["quiet"])
        static let reserve = NightlyRun.reserve
        static let maximumRounds = NightlyRun.maximumRounds
        static var help: String { tr("help.nightly", reserve, maximumRounds) }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            // The run log: every line dated (the wall clock, in the run's zone, else UTC) with the
            // pid, so that a cron log of many nights tells which night said what; --quiet keeps
            // the errors only. A failure is printed here, dated like the rest.
            let zone = (try? TimeOptions.zone(arguments, context)) ?? TimeOptions.machineZone(context)
            let output = log(context, zone: zone, quiet: arguments.flags.contains("quiet"))
            do {
                return try run(arguments, context, output: output)
            } catch {
                output.error(error.message)
                if let hint = error.hint { output.hint(hint) }
                return error.code
            }
        }

        /// The run log's sink: each line starts with the clock's time in ISO 8601 (in `zone`, or
        /// UTC when no zone is known) and `[pid]`; `quiet` keeps the errors.
        static func log(_ context: CommandContext, zone: CalendarZone?, quiet: Bool) -> OutputSink {
            let pid = ProcessInfo.processInfo.processIdentifier
            let clock = context.clock
            return context.output.runLog(
                stamp: {
                    let now = Int64(clock.now.timeIntervalSince1970.rounded(.down))
                    let time = zone.map { $0.iso8601(.instant(now)) }
                        ?? ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(now)))
                    return time + " [\(pid)] "
                },
                quiet: quiet)
        }

        /// A wrong option is dated like the rest of the log, in the machine's zone (`--tz` is
        /// not read yet).
        static func failureOutput(_ context: CommandContext, _ arguments: [String]) -> OutputSink {
            log(context, zone: TimeOptions.machineZone(context), quiet: arguments.contains("--quiet"))
        }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: OutputSink) throws(CommandFailure) -> ExitCode {
            guard arguments.positionals.isEmpty else {
                throw .usage(tr("nightly takes no argument; give a calendar with --calendar PATH or 'dictee source add PATH'"))
            }
            let paths = try StateOptions.checkedPaths(context)
            let config = try ConfigOptions.load(context)
            let (zone, now) = try TimeOptions.resolve(arguments, context)
            let log = RunLog(output: output)
            let job = NightlyRun(
                paths: paths, config: config, calendars: arguments.values["calendar"].map { [$0] },
                zone: zone, zoneIsExplicit: arguments.values["tz"] != nil, now: now, clock: context.clock,
                quietly: { body in StandardError.silenced(body) },
                log: { event in log.render(event) })
            let report = try household { () throws(HouseholdError) in try job.run() }
            let seconds = Int(report.seconds.rounded())
            if report.written == 0, report.withoutText == 0, !report.hadErrors, report.children > 0, !log.saidSomething {
                // Nothing to do: one line, the ingest's counts included.
                output.line(tr("nightly: nothing to do: %@, %ld cards ready, %@, %ld s",
                               childCount(report.children), report.cardsReady,
                               Language.current.isSingular(log.toLabel) ? tr("%ld event to label", log.toLabel) : tr("%ld events to label", log.toLabel),
                               seconds))
                return .ok
            }
            log.flushIngest()
            if report.written > 0 { log.sayLibraryOnly() }
            output.line(tr("nightly: %@, %ld cards ready, %ld texts written (%ld by the model, %ld from the library), %@, %ld s",
                           childCount(report.children), report.cardsReady, report.written, report.byModel, report.fromLibrary,
                           Language.current.isSingular(report.withoutText)
                               ? tr("%ld moment without a text", report.withoutText) : tr("%ld moments without a text", report.withoutText),
                           seconds))
            if report.children == 0 { output.hint(tr("add a child with 'dictee child add NAME --gender f|m --grade CE1'")) }
            return report.hadErrors ? .itemErrors : .ok
        }

        /// "1 child", "2 children" ("0 enfant", "2 enfants").
        static func childCount(_ n: Int) -> String {
            Language.current.isSingular(n) ? tr("%ld child", n) : tr("%ld children", n)
        }

        /// The run log of one nightly, on stderr: what the job tells as it goes (no text, no
        /// name). The ingest's summary waits for the end (a night with nothing to do prints one
        /// line), and "no language model configured" is said once, before the first text.
        final class RunLog: @unchecked Sendable {
            let output: OutputSink
            /// Something beyond the routine counts was said (a warning, an error, a text written).
            private(set) var saidSomething = false
            /// Events the parent still has to label, from the ingest (0 without a source).
            private(set) var toLabel = 0
            private var ingest: IngestReport?
            private var libraryOnly = false
            /// Where the model runs, said before the first text (a night with nothing to do
            /// stays one line).
            private var modelLine: String?

            init(output: OutputSink) { self.output = output }

            /// Prints the ingest's summary kept back, if any.
            func flushIngest() {
                guard let report = ingest else { return }
                ingest = nil
                IngestCommand.render(report, output.allToStandardError(), json: false)
            }

            /// Says "no language model configured" when no model is, once per run (texts that
            /// came from the library alone make no `.text` event: the run's end calls it then).
            func sayLibraryOnly() {
                guard libraryOnly else { return }
                libraryOnly = false
                output.diagnostic(tr("no language model configured: the handwritten library serves every text"))
            }

            func render(_ event: NightlyEvent) {
                switch event {
                case .ingested(let report):
                    toLabel = report.counts.toLabel
                    ingest = report
                    // Problems are said at once, with the counts.
                    if !report.sourceFailures.isEmpty || !report.fileErrors.isEmpty || !report.diagnostics.isEmpty {
                        saidSomething = true
                        flushIngest()
                    }
                    return
                case .route(.library, _):
                    libraryOnly = true
                    return
                case .route(.managed, _), .route(.loopback, _):
                    return
                case .modelReady(let id, let place, let seconds):
                    switch place {
                    case .inProcess:
                        modelLine = tr("model %@: inside dictee (llama.cpp), loaded in %@ s", id, oneDecimal(seconds))
                    case .server(let url):
                        modelLine = tr("model %@: llama-cpp-python server at %@, started in %@ s", id, url, oneDecimal(seconds))
                    }
                    return
                case .route(.remote, false):
                    return
                default:
                    break
                }
                saidSomething = true
                flushIngest()
                switch event {
                case .noSource:
                    output.warning(tr("no calendar source: add one with 'dictee source add PATH' (using the moments already stored)"))
                case .warning(let message):
                    output.warning(message)
                case .serverFailed(let why):
                    output.warning(tr("the model server could not start (%@): the handwritten library serves every text", why))
                case .modelNotLoaded(let why):
                    output.warning(tr("the model could not be loaded (%@): the handwritten library serves every text", why))
                case .route(.refused(let refusal), _):
                    output.error(refusal.description)
                    output.warning(tr("the handwritten library serves every text"))
                case .route(.remote(let endpoint), _):
                    output.warning(tr("richer texts: requests go to %@, outside this machine; each is logged first in %@",
                                      endpoint.url.absoluteString, endpoint.egressLog?.path ?? "?"))
                case .text(let childID, let result):
                    sayLibraryOnly()
                    if let line = modelLine {
                        modelLine = nil
                        output.diagnostic(line)
                    }
                    // Which source, and every attempt's failed steps (no text, no name).
                    let steps = result.attempts.map { $0.storedSteps.isEmpty ? "ok" : $0.storedSteps.joined(separator: "+") }
                    output.diagnostic(tr("dictation for child %ld: %@ after %ld attempt(s) [%@]",
                                         Int(childID), result.fromLibrary ? tr("library") : result.origin,
                                         result.attempts.count, steps.joined(separator: ", "))
                                      + (result.diagnosis.map { tr("; refusal unlocked %@", $0) } ?? "")
                                      + (result.serverError.map { tr("; the model failed: %@", $0) } ?? ""))
                case .modelUnresponsive(let timeout, let times):
                    output.warning(tr("the model did not answer within %ld s, %ld times: the handwritten library serves the rest of this run without asking it",
                                      Int(timeout), times))
                    output.hint(tr("on a slow or busy machine, give the model more time: \"timeout_seconds\" in the \"model\" configuration"))
                case .childFailed(let childID, let error):
                    output.error(tr("child %ld: %@", Int(childID), "\(error)"))
                case .withoutText(let m):
                    output.warning(Nightly.describe(m))
                    output.hint(Nightly.hint(for: m))
                case .ingested, .route, .modelReady:
                    break
                }
            }
        }

        /// `child 1: no text for the moment of samedi 28 novembre 2026 (ev-0123456789ab): …`
        /// (the date in French and the event reference; never the title or the phrase).
        static func describe(_ m: MomentWithoutText) -> String {
            let why = m.textsFit ? tr("no library text that fits it passed the validator") : tr("no library text fits it")
            return tr("child %ld: no text for the moment of %@ (%@): %@", Int(m.childID), Language.current.longDay(m.date), "\(m.event)", why)
        }

        /// What the parent can do about a moment without a text.
        static func hint(for m: MomentWithoutText) -> String {
            if m.isLabel {
                return tr("find the label of %@ with 'dictee suggestions list --all', take it back ('dictee suggestions unlabel ID') and label it again with other words or a kind, e.g. --kind sortie (kinds: %@), or reject it once taken back ('dictee suggestions reject ID')",
                          "\(m.event)", LabelPhrase.kinds.joined(separator: ", "))
            }
            if m.textsFit {
                return tr("check the validator on a text: dictee check --child NAME --moment PHRASE FILE (Grammalecte and Hunspell must work)")
            }
            return tr("no handwritten text of the child's grade fits this moment yet; the other moments still get cards")
        }

        /// `text` without its final line feeds.
        static func chomp(_ text: String) -> String {
            var t = Substring(text)
            while t.last == "\n" { t = t.dropLast() }
            return String(t)
        }
    }
}
