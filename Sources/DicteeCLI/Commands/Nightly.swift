import Dictation
import DicteeCore
import Foundation
import Generation
import Ingest
import Store

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
        /// Texts ready per child beyond the three cards.
        static let reserve = 2
        /// Texts written per child per run, at most.
        static let maximumRounds = 10
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

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else {
                output.error("nightly takes no argument; give a calendar with --calendar PATH or 'dictee source add PATH'")
                return .usage
            }
            let config: Config
            switch Config.load(context) {
            case .success(let c): config = c
            case .failure(let code): return code
            }
            let statePath = StateOptions.path(context)
            let folder = (statePath as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

            // One run at a time.
            let lockPath = statePath + ".nightly.lock"
            let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard lock >= 0 else {
                output.error("\(lockPath): cannot open the lock file")
                return .ioError
            }
            defer { close(lock) }
            if flock(lock, LOCK_EX | LOCK_NB) != 0 {
                let holder = (try? String(contentsOfFile: lockPath, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                output.error("another 'dictee nightly' is running (\(holder.isEmpty ? "holder unknown" : holder)); lock: \(lockPath)")
                return .temporaryFailure
            }
            let started = context.clock.now
            ftruncate(lock, 0)
            let stamp = "pid \(getpid()), started \(ISO8601DateFormatter().string(from: started))\n"
            _ = stamp.withCString { write(lock, $0, strlen($0)) }

            // Ingest the sources, with the audit file; ingest's own summary goes to stderr.
            let sources = arguments.values["calendar"].map { [$0] } ?? config.sources
            var status = ExitCode.ok
            var diagnostics = CommandContext(environment: context.environment, output: OutputSink(
                colorErrors: output.colorErrors, out: { output.diagnostic(Nightly.chomp($0)) }, err: { output.diagnostic(Nightly.chomp($0)) }), clock: context.clock)
            diagnostics.statePath = context.statePath
            if sources.isEmpty {
                output.warning("no calendar source: add one with 'dictee source add PATH' (using the moments already stored)")
            } else {
                var ingest = ParsedArguments()
                ingest.positionals = sources
                ingest.values = arguments.values.filter { TimeOptions.names.contains($0.key) }
                ingest.values["audit"] = folder + "/audit.jsonl"
                let code = IngestCommand.run(ingest, diagnostics)
                if code == .itemErrors || code == .dataError {
                    status = .itemErrors
                } else if code != ExitCode.ok {
                    return code
                }
            }

            let zone: CalendarZone, store: StateStore
            switch TimeOptions.zoneAndState(arguments, context) {
            case .success(let opened): (zone, store) = opened
            case .failure(let code): return code
            }
            let now: Int64
            do { now = try TimeOptions.now(arguments, context, zone: zone) } catch {
                output.error(error.description)
                return .usage
            }

            // The validator and the library first: without them nothing can be written, and no
            // server should be started for nothing.
            let base: GenerationSession
            switch DictationDesk.librarySession(context) {
            case .success(let s): base = s
            case .failure(let code): return code
            }
            // Grammalecte's worker ends with the run, on every path.
            defer { if case .checker(let grammar) = base.validator.grammar { grammar.close() } }

            // The model, if any.
            var server: ModelServer?
            defer { server?.stop() }
            var model: (any LanguageModel)?
            let timeout = Double(config.model?.timeoutSeconds ?? 120)
            let contextLength = config.model?.context ?? 2048
            switch config.modelMode {
            case .none:
                output.diagnostic("no language model configured: the handwritten library serves every text")
            case .managed(let gguf):
                do {
                    let python = ModelServer.python(configured: config.model?.python, environment: context.environment)
                    server = try ModelServer.start(gguf: gguf, python: python, contextLength: contextLength,
                                                   log: folder + "/model-server.log")
                    let name = config.model?.name ?? ((gguf as NSString).lastPathComponent)
                    model = OpenAICompatibleModel(endpoint: server!.endpoint, modelName: name, contextLength: contextLength, timeout: timeout)
                } catch {
                    output.warning("the model server could not start (\(error)): the handwritten library serves every text")
                }
            case .endpoint(let endpoint):
                guard let url = URL(string: endpoint), url.scheme == "http" || url.scheme == "https" else {
                    output.error("model.endpoint '\(endpoint)' is not an http(s) URL")
                    return .dataError
                }
                let name = config.model?.name ?? "default"
                if Config.isLoopback(endpoint) {
                    model = OpenAICompatibleModel(endpoint: url, modelName: name, contextLength: contextLength, timeout: timeout)
                } else if config.richerTexts, let problem = Nightly.egressProblem(config.egressLogPath(context)) {
                    // Nothing may be sent that cannot be logged first.
                    output.error("the egress log \(config.egressLogPath(context)) cannot be written (\(problem)): nothing is sent to \(endpoint)")
                    output.warning("the handwritten library serves every text")
                    status = .itemErrors
                } else if config.richerTexts {
                    let egress = config.egressLogPath(context)
                    model = OpenAICompatibleModel(endpoint: url, modelName: name, contextLength: contextLength, timeout: timeout,
                                                  beforeSending: { body in try Nightly.appendEgress(body, to: egress, endpoint: endpoint) })
                    output.warning("richer texts: requests go to \(endpoint), outside this machine; each is logged first in \(egress)")
                } else {
                    output.error("model.endpoint \(endpoint) is not a loopback address; nothing is sent there unless \"richer_texts\": true is set in \(Config.path(context))")
                    output.warning("the handwritten library serves every text")
                    status = .itemErrors
                }
            }

            // Write the texts, child by child.
            let session = GenerationSession(model: model, validator: base.validator, library: base.library)
            let children: [Child]
            do { children = try store.children() } catch { return StateOptions.report(error, context) }
            var written = 0, byModel = 0, fromLibrary = 0, cardsReady = 0, failures = 0
            for child in children {
                do {
                    var rounds = 0
                    while rounds < maximumRounds {
                        let s = try DictationDesk.situation(of: child, store, now: now, zone: zone)
                        let wanted = Array(s.candidates.prefix(CardChoice.count + reserve))
                        let readyKeys = Set(s.ready.map(\.occurrenceKey))
                        guard let next = wanted.first(where: { !readyKeys.contains($0.key) }) else { break }
                        rounds += 1
                        var recent = DictationDesk.recentTexts(s)
                        if let (_, result) = try DictationDesk.write(next, for: s, store, session: session, now: now,
                                                                     recentTexts: &recent, createdAt: context.clock.now) {
                            written += 1
                            if result.fromLibrary { fromLibrary += 1 } else { byModel += 1 }
                            if !result.attempts.isEmpty {
                                // The run log: which source, and every attempt's failed steps (no text, no name).
                                let steps = result.attempts.map { $0.failedSteps.isEmpty ? "ok" : $0.failedSteps.joined(separator: "+") }
                                output.diagnostic("dictation for child \(s.childID): \(result.fromLibrary ? "library" : result.origin) after \(result.attempts.count) attempt(s) [\(steps.joined(separator: ", "))]"
                                                  + (result.diagnosis.map { "; refusal unlocked \($0)" } ?? "")
                                                  + (result.serverError.map { "; \($0)" } ?? ""))
                            }
                        } else {
                            // Nothing fits this moment: leave it out of this child's next rounds.
                            failures += 1
                            break
                        }
                    }
                    switch DictationDesk.cards(for: child, store, now: now, zone: zone, context) {
                    case .success(let cards): cardsReady += cards.count
                    case .failure(let code):
                        if code == .unavailable || code == .internalError { return code }
                        status = .itemErrors
                    }
                } catch {
                    output.error("child \(child.id ?? 0): \(error)")
                    status = .itemErrors
                }
            }
            server?.stop()
            let seconds = Int(context.clock.now.timeIntervalSince(started).rounded())
            output.line("nightly: \(children.count) \(children.count == 1 ? "child" : "children"), \(cardsReady) cards ready, \(written) texts written "
                        + "(\(byModel) by the model, \(fromLibrary) from the library), \(failures) moments without a text, \(seconds) s")
            if children.isEmpty { output.hint("add a child with 'dictee child add NAME --gender f|m --grade CE1'") }
            return status
        }

        /// Why the egress log cannot be appended to, or `nil` when it can (checked before anything
        /// is sent to a remote endpoint).
        static func egressProblem(_ path: String) -> String? {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                if isDirectory.boolValue { return "a directory" }
                return FileManager.default.isWritableFile(atPath: path) ? nil : "not writable"
            }
            let folder = (path as NSString).deletingLastPathComponent
            if !FileManager.default.fileExists(atPath: folder) { return "its folder does not exist" }
            return FileManager.default.isWritableFile(atPath: folder) ? nil : "its folder is not writable"
        }

        /// `text` without its final line feeds.
        static func chomp(_ text: String) -> String {
            var t = Substring(text)
            while t.last == "\n" { t = t.dropLast() }
            return String(t)
        }

        /// Appends one request body to the egress log (0600) before it is sent to a remote host.
        static func appendEgress(_ body: Data, to path: String, endpoint: String) throws {
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw ModelServer.ServerError("\(path): cannot open the egress log")
            }
            defer { try? handle.close() }
            try handle.seekToEnd()
            let header = "{\"sent_at\":\"\(ISO8601DateFormatter().string(from: Date()))\",\"to\":\(JSONWriter.quoted(endpoint))}\n"
            try handle.write(contentsOf: Data(header.utf8) + body + Data("\n".utf8))
            try handle.synchronize()
        }
    }
}
