import Dictation
import DicteeCore
import Foundation
import Household

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
        static let summary = "the main job for cron: ingest, write and validate the next dictations, deal the cards"
        static let options = OptionSpec(valued: ["calendar"] + TimeOptions.names, flags: [])
        static let reserve = NightlyRun.reserve
        static let maximumRounds = NightlyRun.maximumRounds
        static let help = """
            usage: dictee nightly [--calendar PATH] [--now ISO-8601] [--tz IANA]

            The main job, for cron or a systemd timer: reads the calendar sources of the
            config ('dictee source add PATH'; --calendar PATH reads that file for this run
            only), passes them through the privacy filter, writes the audit file of what may
            reach a model (audit.jsonl beside the state), then writes the next dictations of
            every child until three cards and a reserve of \(reserve) are ready (at most
            \(maximumRounds) texts per child per run), every text validated, and deals the cards.

            The model: with "model": {"gguf": PATH} in the config, dictee starts the
            llama-cpp-python server (installed by Scripts/setup) on 127.0.0.1 and stops it at
            the end; with "model": {"endpoint": URL} it uses a server you run (loopback only,
            unless "richer_texts": true); with neither, or when the server cannot start, the
            handwritten library serves every text (said once). 'dictee privacy' tells what
            the configuration sends where; 'dictee stats' how the model does.

            One run at a time: a second one exits 75 and names the run holding the lock.
            Prints one summary line on stdout; diagnostics go to stderr (the run log: for each
            text asked of a model, "library" or the model, and each attempt's failed steps).

            exit status: 0 done; 1 a source, a child or the model configuration had errors
            (the rest was done); 64 usage; 65 a bad config file; 69 the lexicon, the French
            dictionary or Grammalecte is missing; 70 internal error (e.g. the state is not a
            dictee database); 74 the state folder cannot be written; 75 another run holds the
            lock.

            example (crontab, every night at 2:30):
              30 2 * * * /usr/local/bin/dictee nightly >>"$HOME/.local/state/dictee-nightly.log" 2>&1

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else {
                throw .usage("nightly takes no argument; give a calendar with --calendar PATH or 'dictee source add PATH'")
            }
            let paths = try StateOptions.checkedPaths(context)
            let config = try ConfigOptions.load(context)
            let (zone, now) = try TimeOptions.resolve(arguments, context)
            let job = NightlyRun(
                paths: paths, config: config, calendars: arguments.values["calendar"].map { [$0] },
                zone: zone, zoneIsExplicit: arguments.values["tz"] != nil, now: now, clock: context.clock,
                quietly: { body in StandardError.silenced(body) },
                log: { event in Self.render(event, output) })
            let report = try household { () throws(HouseholdError) in try job.run() }
            output.line("nightly: \(report.children) \(report.children == 1 ? "child" : "children"), \(report.cardsReady) cards ready, "
                        + "\(report.written) texts written (\(report.byModel) by the model, \(report.fromLibrary) from the library), "
                        + "\(report.withoutText) \(report.withoutText == 1 ? "moment" : "moments") without a text, \(Int(report.seconds.rounded())) s")
            if report.children == 0 { output.hint("add a child with 'dictee child add NAME --gender f|m --grade CE1'") }
            return report.hadErrors ? .itemErrors : .ok
        }

        /// The run log, on stderr: what the job tells as it goes (no text, no name).
        static func render(_ event: NightlyEvent, _ output: OutputSink) {
            switch event {
            case .noSource:
                output.warning("no calendar source: add one with 'dictee source add PATH' (using the moments already stored)")
            case .ingested(let report):
                // The ingest's own problems and summary, as 'dictee ingest' prints them, on stderr.
                let toStderr = OutputSink(colorErrors: output.colorErrors, out: { output.diagnostic(chomp($0)) },
                                          err: { output.diagnostic(chomp($0)) })
                IngestCommand.render(report, toStderr, json: false)
            case .warning(let message):
                output.warning(message)
            case .serverFailed(let why):
                output.warning("the model server could not start (\(why)): the handwritten library serves every text")
            case .route(let route, let ready):
                switch route {
                case .library:
                    output.diagnostic("no language model configured: the handwritten library serves every text")
                case .refused(let refusal):
                    output.error(refusal.description)
                    output.warning("the handwritten library serves every text")
                case .remote(let endpoint) where ready:
                    output.warning("richer texts: requests go to \(endpoint.url.absoluteString), outside this machine; "
                                   + "each is logged first in \(endpoint.egressLog?.path ?? "?")")
                case .managed, .loopback, .remote:
                    break
                }
            case .text(let childID, let result):
                // The run log: which source, and every attempt's failed steps (no text, no name).
                let steps = result.attempts.map { $0.storedSteps.isEmpty ? "ok" : $0.storedSteps.joined(separator: "+") }
                output.diagnostic("dictation for child \(childID): \(result.fromLibrary ? "library" : result.origin) after \(result.attempts.count) attempt(s) [\(steps.joined(separator: ", "))]"
                                  + (result.diagnosis.map { "; refusal unlocked \($0)" } ?? "")
                                  + (result.serverError.map { "; \($0)" } ?? ""))
            case .modelUnresponsive(let timeout, let times):
                output.warning("the model did not answer within \(Int(timeout)) s, \(times) times: "
                               + "the handwritten library serves the rest of this run without asking it")
            case .childFailed(let childID, let error):
                output.error("child \(childID): \(error)")
            case .withoutText(let m):
                output.warning(describe(m))
                output.hint(hint(for: m))
            }
        }

        /// `child 1: no text for the moment of samedi 28 novembre 2026 (ev-0123456789ab): …`
        /// (the date in French and the event reference; never the title or the phrase).
        static func describe(_ m: MomentWithoutText) -> String {
            let why = m.textsFit ? "no library text that fits it passed the validator" : "no library text fits it"
            return "child \(m.childID): no text for the moment of \(Desk.frenchDate(m.date)) (\(m.event)): \(why)"
        }

        /// What the parent can do about a moment without a text.
        static func hint(for m: MomentWithoutText) -> String {
            if m.isLabel {
                return "find the label of \(m.event) with 'dictee suggestions list --all', take it back "
                    + "('dictee suggestions unlabel ID') and label it again with other words or a kind, e.g. --kind sortie "
                    + "(kinds: \(LabelPhrase.kinds.joined(separator: ", "))), or reject it once taken back ('dictee suggestions reject ID')"
            }
            if m.textsFit {
                return "check the validator on a text: dictee check --child NAME --moment PHRASE FILE (Grammalecte and Hunspell must work)"
            }
            return "no handwritten text of the child's grade fits this moment yet; the other moments still get cards"
        }

        /// `text` without its final line feeds.
        static func chomp(_ text: String) -> String {
            var t = Substring(text)
            while t.last == "\n" { t = t.dropLast() }
            return String(t)
        }
    }
}
