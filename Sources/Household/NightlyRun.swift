import Dictation
import DicteeCore
import Foundation
import Generation
import Ingest
#if DICTEE_LLAMA
import LocalModel
#endif
import Store
import Web

/// The main job, for cron: ingest the calendar sources with the audit file, then write validated
/// dictations for every child until three cards and a reserve are ready, and deal the cards.
///
/// - One run at a time: a lock file beside the state (`HouseholdPaths.nightlyLock`); a second run
///   throws `HouseholdError.lockHeld` naming the holder.
/// - The model follows the configuration's `ModelRoute`; with no model, a refused one or a
///   managed server that cannot start, the handwritten library serves every text.
/// - At most `maximumRounds` texts per child per run, each stored in its own transaction: a run
///   killed at any point is completed by the next one, without duplicates.
///
/// Nothing here prints: what happens is told to `log` as `NightlyEvent`s, and the outcome is the
/// returned `NightlyReport`.
public struct NightlyRun: Sendable {
    /// Texts ready per child beyond the three cards.
    public static let reserve = 2
    /// Texts written per child per run, at most.
    public static let maximumRounds = 10

    /// The family's files.
    public var paths: HouseholdPaths
    /// The configuration (sources, model, richer texts).
    public var config: Config
    /// The calendars to read instead of the configured sources (`--calendar`), if any.
    public var calendars: [String]?
    /// The zone of the ingest (`--tz`, `TZ` or the system's).
    public var zone: CalendarZone
    /// Whether `zone` was given explicitly (`--tz`): else stored dates are shown in the zone of
    /// the last ingest.
    public var zoneIsExplicit: Bool
    /// "Now", seconds since the epoch (`--now`, else the clock).
    public var now: Int64
    /// The clock (start and end of the run, dictations' creation time, the egress log).
    public var clock: any Clock
    /// Wraps calls into C libraries whose own output must stay off the terminal.
    public var quietly: @Sendable (() -> Void) -> Void
    /// Told what happens, in order (the front end renders it as the run log).
    public var log: @Sendable (NightlyEvent) -> Void
    /// Builds the session's model from the route (tests inject a scripted model); `nil` uses the
    /// real clients: the managed server, or the OpenAI-compatible client of the endpoint.
    public var modelFactory: (@Sendable (ModelRoute) -> (any LanguageModel)?)?
    /// The checker every text goes through (tests inject a scripted one); `nil` builds the real
    /// validator (`Validators.make`: Lexique, Hunspell, Grammalecte).
    public var checker: (any DraftChecker)?

    /// The job for one family; see the properties for each parameter.
    public init(paths: HouseholdPaths, config: Config, calendars: [String]? = nil, zone: CalendarZone,
                zoneIsExplicit: Bool, now: Int64, clock: any Clock,
                quietly: @escaping @Sendable (() -> Void) -> Void = { $0() },
                log: @escaping @Sendable (NightlyEvent) -> Void = { _ in },
                modelFactory: (@Sendable (ModelRoute) -> (any LanguageModel)?)? = nil,
                checker: (any DraftChecker)? = nil) {
        self.checker = checker
        self.paths = paths
        self.config = config
        self.calendars = calendars
        self.zone = zone
        self.zoneIsExplicit = zoneIsExplicit
        self.now = now
        self.clock = clock
        self.quietly = quietly
        self.log = log
        self.modelFactory = modelFactory
    }

    /// The route this run follows (the same decision `dictee privacy` prints).
    public var route: ModelRoute {
        ModelRoute.resolve(config, configPath: paths.config, environment: paths.environment, clock: clock)
    }

    /// Runs the job.
    /// - Returns: the report; per-source and per-child problems are in it and were logged.
    /// - Throws: `HouseholdError.lockHeld` (another run), `.cannotWrite` (the state's folder, the
    ///   lock or the audit file), `.noState`-free `.state` errors that stop everything (the state
    ///   is not a dictee database), and the validator's `.lexiconMissing`, `.validatorUnavailable`,
    ///   `.brokenLibrary`, `.grammarCheckFailing`.
    public func run() throws(HouseholdError) -> NightlyReport {
        let started = clock.now
        // A state path that is a device, a FIFO or a folder: refused before anything is made
        // beside it (the lock, SQLite's journal).
        if let problem = LocalPath.notARegularFile(paths.state) {
            throw .state(.store(.open(path: paths.state, message: problem)))
        }
        let folder = paths.folder
        // The state's folder is the family's alone (0700), whoever creates it and whatever the umask.
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let lock = try NightlyLock(path: paths.nightlyLock, started: started)
        defer { lock.release() }

        var report = NightlyReport()
        // Ingest the sources, with the audit file; without a source, the stored moments serve.
        let sources = calendars.map { $0.map(CalendarSource.init(text:)) } ?? config.sources
        if sources.isEmpty, !FileManager.default.fileExists(atPath: paths.state) { throw .noState(path: paths.state) }
        let store = try Self.openState(paths.state)
        if sources.isEmpty {
            log(.noSource)
        } else {
            let log = self.log
            let fetcher = Fetcher(proxy: config.proxy, notice: { log(.warning($0)) })
            let ingest = IngestRun(sources: sources, zone: zone, now: now, auditFile: paths.auditFile,
                                   fetcher: fetcher, environment: paths.environment, quietly: quietly)
            let ingested = try ingest.run(into: store)
            log(.ingested(ingested))
            if !ingested.fileErrors.isEmpty || !ingested.eventErrors.isEmpty || !ingested.sourceFailures.isEmpty {
                report.hadErrors = true
            }
        }

        let datesZone = Desk.zoneOfStoredDates(store, explicit: zoneIsExplicit ? zone : nil) ?? zone

        // The validator and the library first: without them nothing can be written, and no
        // server should be started for nothing.
        let base: GenerationSession
        if let checker {
            guard let library = try? Library.bundled() else { throw .brokenLibrary }
            base = GenerationSession(model: nil, checker: checker, library: library)
        } else {
            base = try Desk.librarySession(environment: paths.environment, warn: { log(.warning($0)) })
        }
        // Grammalecte's worker ends with the run, on every path.
        defer { (base.checker as? Validator)?.close() }

        // The model, if any.
        let route = self.route
        var server: ModelServer?
        defer { server?.stop() }
        var model: (any LanguageModel)?
        if let modelFactory {
            model = modelFactory(route)
        } else {
            let timeout = Double(config.model?.timeoutSeconds ?? 120)
            let contextLength = config.model?.context ?? 2048
            switch route {
            case .library: break
            case .refused: report.hadErrors = true
            case .managed(let gguf):
                let name = config.model?.name ?? (gguf as NSString).lastPathComponent
                if ModelRoute.runsInProcess(config) {
                    // llama.cpp in this process: no server, no socket.
                    #if DICTEE_LLAMA
                    do {
                        let settings = LlamaSettings(contextLength: contextLength, timeoutSeconds: timeout)
                        let loading = Date()
                        model = try LlamaModel(path: gguf, id: name, settings: settings)
                        log(.modelReady(id: name, place: .inProcess, seconds: Date().timeIntervalSince(loading)))
                    } catch {
                        // The configured file is no model: a configuration error (exit 1).
                        log(.modelNotLoaded(error.description))
                        report.hadErrors = true
                    }
                    #endif
                    break
                }
                do {
                    let python = ModelServer.python(configured: config.model?.python, environment: paths.environment)
                    let starting = Date()
                    let started = try ModelServer.start(gguf: gguf, python: python, contextLength: contextLength, log: paths.serverLog,
                                                        environment: paths.environment)
                    server = started
                    log(.modelReady(id: name, place: .server(started.endpoint.absoluteString), seconds: Date().timeIntervalSince(starting)))
                    if let endpoint = ModelEndpoint.loopback(started.endpoint.absoluteString) {
                        model = OpenAICompatibleModel(endpoint: endpoint, modelName: name, contextLength: contextLength, timeout: timeout)
                    }
                } catch {
                    log(.serverFailed("\(error)"))
                }
            case .loopback(let endpoint), .remote(let endpoint):
                model = OpenAICompatibleModel(endpoint: endpoint, modelName: config.model?.name ?? "default",
                                              contextLength: contextLength, timeout: timeout)
            }
        }
        log(.route(route, modelReady: model != nil))

        // Write the texts, child by child.
        let session = GenerationSession(model: model, checker: base.checker, library: base.library,
                                        temperature: config.model?.sampleTemperature ?? ModelRequest.defaultTemperature,
                                        seed: config.model?.seed.map { UInt32($0) })
        let children: [Child]
        do { children = try store.children() } catch { throw .state(error) }
        report.children = children.count
        var saidUnresponsive = false
        for child in children {
            do {
                var rounds = 0
                var withoutText = Set<OccurrenceKey>()
                while rounds < Self.maximumRounds {
                    let s = try Desk.situation(of: child, store, now: now, zone: datesZone)
                    let wanted = Array(s.candidates.prefix(CardChoice.count + Self.reserve))
                    let readyKeys = Set(s.ready.map(\.occurrenceKey))
                    guard let next = wanted.first(where: { !readyKeys.contains($0.key) && !withoutText.contains($0.key) }) else { break }
                    rounds += 1
                    var recent = s.usedTexts(now: now)
                    if let (_, result) = try Desk.write(next, for: s, store, session: session, now: now, zone: datesZone,
                                                        usedTexts: &recent, createdAt: Date(timeIntervalSince1970: TimeInterval(now))) {
                        report.written += 1
                        if result.fromLibrary { report.fromLibrary += 1 } else { report.byModel += 1 }
                        if !result.attempts.isEmpty { log(.text(childID: s.childID, result)) }
                        // A request that could not be logged first was not sent: the privacy
                        // configuration is failing, and the run says so with its status.
                        if case .notAllowed? = result.modelError { report.hadErrors = true }
                        if session.modelIsUnresponsive, !saidUnresponsive {
                            saidUnresponsive = true
                            log(.modelUnresponsive(timeout: Double(config.model?.timeoutSeconds ?? 120), times: GenerationSession.maximumTimeouts))
                        }
                    } else {
                        // Nothing fits this moment, or nothing passed: name it (date and event
                        // reference, never a title), and leave it out of this child's next rounds.
                        let missing = MomentWithoutText(
                            childID: s.childID, event: next.key.event, date: datesZone.date(of: next.start),
                            isLabel: next.moment.kind != nil || base.library.kinds(of: next.moment.phrase).isEmpty,
                            textsFit: !base.library.texts(for: child.grade, fitting: next.moment).isEmpty)
                        report.withoutText += 1
                        report.momentsWithoutText.append(missing)
                        log(.withoutText(missing))
                        withoutText.insert(next.key)
                    }
                }
                let cards = try Desk.cards(for: child, store, now: now, zone: datesZone, createdAt: Date(timeIntervalSince1970: TimeInterval(now)),
                                           makeSession: { base })
                report.cardsReady += cards.count
            } catch {
                switch error {
                case .lexiconMissing, .validatorUnavailable, .brokenLibrary, .grammarCheckFailing: throw error
                default:
                    log(.childFailed(childID: child.id ?? 0, error))
                    report.hadErrors = true
                }
            }
        }
        server?.stop()
        report.seconds = clock.now.timeIntervalSince(started)
        return report
    }

    /// Opens the state (created when missing).
    static func openState(_ path: String) throws(HouseholdError) -> StateStore {
        do { return try StateStore(path: path) } catch { throw .state(error) }
    }
}

/// What a nightly run tells as it goes (the run log). Never a text, a title or a child's name:
/// children are named by their id.
public enum NightlyEvent: Sendable {
    /// No source is configured and none was given: the stored moments are used.
    case noSource
    /// The ingest ran (its counts and problems).
    case ingested(IngestReport)
    /// A warning from building the validator (Grammalecte missing).
    case warning(String)
    /// The managed model server could not start (why): the library serves every text.
    case serverFailed(String)
    /// The managed model is ready (`id`, where it runs, seconds it took to load or start).
    case modelReady(id: String, place: ModelPlace, seconds: Double)
    /// The model file could not be loaded in process (why: `LlamaLoadError`'s message): the
    /// library serves every text.
    case modelNotLoaded(String)
    /// The route followed, and whether a model is ready on it.
    case route(ModelRoute, modelReady: Bool)
    /// The model did not answer within its timeout (seconds) `GenerationSession.maximumTimeouts`
    /// times: the library serves the rest of the run without asking it (said once).
    case modelUnresponsive(timeout: Double, times: Int)
    /// A text was asked of a model for this child: the result's attempts say how it went.
    case text(childID: Int64, GenerationResult)
    /// A child's texts could not be written (the other children were done).
    case childFailed(childID: Int64, HouseholdError)
    /// No text could be written about a moment for a child (named by date and event reference).
    case withoutText(MomentWithoutText)
}

/// A moment left without a text in a nightly run, for one child: when and which event, never
/// its title or phrase, and why (a label no library text fits, or texts that fit but failed).
public struct MomentWithoutText: Sendable, Hashable {
    /// The child (its id in the state).
    public var childID: Int64
    /// The event, by its reference (`ev-` + 12 hex digits).
    public var event: EventReference
    /// The occurrence's start date in the run's zone.
    public var date: CalendarDate
    /// Whether the moment is a parent's label (not a whitelist phrase).
    public var isLabel: Bool
    /// Whether library texts of the child's grade fit the moment (then none passed the
    /// validator; else no text fits its kinds).
    public var textsFit: Bool

    public init(childID: Int64, event: EventReference, date: CalendarDate, isLabel: Bool, textsFit: Bool) {
        self.childID = childID
        self.event = event
        self.date = date
        self.isLabel = isLabel
        self.textsFit = textsFit
    }
}

/// What a nightly run did.
public struct NightlyReport: Sendable, Equatable {
    /// Children in the state.
    public var children = 0
    /// Cards dealt and ready, over all children.
    public var cardsReady = 0
    /// Texts written this run, and by whom.
    public var written = 0
    /// Of those, written by the model.
    public var byModel = 0
    /// Of those, served from the handwritten library (no model, refused, or after 5 attempts).
    public var fromLibrary = 0
    /// Moments for which no text could be written (per child).
    public var withoutText = 0
    /// Those moments, in the order met (`withoutText` of them).
    public var momentsWithoutText: [MomentWithoutText] = []
    /// Wall-clock seconds of the run.
    public var seconds: Double = 0
    /// Whether a source, a child or the model configuration had errors (the rest was done).
    public var hadErrors = false

    public init() {}
}

/// The lock that keeps one nightly run at a time: `flock` on a file beside the state (opened with
/// `O_NOFOLLOW`, mode 0600), stamped with the holder's pid and start time for the next run to name.
struct NightlyLock {
    let fd: Int32

    /// - Throws: `HouseholdError.lockHeld` when another run holds it, `.cannotWrite` when the file
    ///   cannot be opened.
    init(path: String, started: Date) throws(HouseholdError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            throw .cannotWrite(FileWriteError(path: path, reason: tr("cannot open the lock file")))
        }
        // Never a FIFO or a device planted in its place: the stamp would be written into it.
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .cannotWrite(FileWriteError(path: path, reason: tr("the lock is not a regular file")))
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            throw .lockHeld(holder: holder, lock: path)
        }
        self.fd = fd
        ftruncate(fd, 0)
        let stamp = "pid \(getpid()), started \(ISO8601DateFormatter().string(from: started))\n"
        _ = stamp.withCString { write(fd, $0, strlen($0)) }
    }

    func release() { close(fd) }
}

/// Where the managed model runs.
public enum ModelPlace: Sendable, Equatable {
    /// Inside dictee (llama.cpp).
    case inProcess
    /// In the llama-cpp-python server at this URL (127.0.0.1).
    case server(String)
}
