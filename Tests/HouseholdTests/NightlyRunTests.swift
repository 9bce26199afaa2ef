import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import Dictation
@testable import Generation
@testable import Household
import Ingest
import Store

/// A model that always gives the same answer, and counts the requests.
final class FixedModel: LanguageModel, @unchecked Sendable {
    let id = "fixed-model"
    let contextLength = 8192
    let content: String
    private let lock = NSLock()
    private var asked: [ModelRequest] = []
    var requests: [ModelRequest] { lock.withLock { asked } }

    init(_ content: String) { self.content = content }

    func countTokens(_ text: String) -> Int? { text.utf8.count / 3 }

    func complete(_ request: ModelRequest) throws(ModelError) -> ModelAnswer {
        lock.withLock { asked.append(request) }
        return ModelAnswer(content: content, promptTokens: 300, completionTokens: 80, finishReason: .stop, seconds: 0.01)
    }
}

/// A model whose requests cannot be logged first (the egress log failed mid-run).
final class UnloggableModel: LanguageModel, @unchecked Sendable {
    let id = "remote-model"
    let contextLength = 8192
    func countTokens(_ text: String) -> Int? { nil }
    func complete(_ request: ModelRequest) throws(ModelError) -> ModelAnswer {
        throw .notAllowed("the egress log cannot be written: /full/egress.log: cannot write (no space left on device)")
    }
}

/// A model whose server never answers in time.
final class HangingModel: LanguageModel, @unchecked Sendable {
    let id = "hanging-model"
    let contextLength = 8192
    private let lock = NSLock()
    private var count = 0
    var requests: Int { lock.withLock { count } }
    func countTokens(_ text: String) -> Int? { nil }
    func complete(_ request: ModelRequest) throws(ModelError) -> ModelAnswer {
        lock.withLock { count += 1 }
        throw .timeout(120)
    }
}

/// A checker that accepts every text (or refuses every one), without Lexique, Hunspell or Grammalecte.
struct FixedChecker: DraftChecker {
    var accepts = true
    func check(_ draft: Draft, plan: DictationPlan) -> [Finding] {
        accepts ? [] : [Finding(step: .longueur, rule: "longueur_mots", message: "Le texte est trop court.")]
    }
    func sites(of draft: Draft, plan: DictationPlan) -> [TrapSite] { [] }
    func verbTenses(of draft: Draft, plan: DictationPlan) -> [Set<SchoolTense>] { [] }
}

/// The main job in process: a temporary state, a fixed clock, a fixed model and a fake checker.
@Suite struct NightlyRunTests {
    static let answer = #"{"titre": "Une belle journée", "phrases": ["Léa est contente.", "Elle joue avec Hugo."]}"#
    static let clock = FixedClock(Date(timeIntervalSince1970: 1_764_435_600))  // 2025-11-29T17:00Z

    /// A family with two children in a fresh state, and the job for the fixture calendar.
    func family(model: (any LanguageModel)?, checker: FixedChecker) throws -> (NightlyRun, URL, HouseholdPaths) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-household-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let env = ["HOME": dir.path, "DICTEE_CONFIG": dir.appendingPathComponent("config.json").path]
        let paths = HouseholdPaths(environment: env, statePath: dir.appendingPathComponent("dictee.sqlite").path)
        let store = try StateStore(path: paths.state)
        try store.addChild(Child(firstName: "Léa", gender: .feminine, grade: .ce1))
        try store.addChild(Child(firstName: "Hugo", gender: .masculine, grade: .cm1))
        let zone = try CalendarZone(identifier: "Europe/Paris")
        let now = try #require(zone.parseISO8601("2026-11-29T18:00:00+01:00"))
        var config = Config()
        if model != nil { config.model = Config.ModelConfig(endpoint: "http://127.0.0.1:9/v1") }
        let job = NightlyRun(paths: paths, config: config,
                             calendars: [repositoryRoot.appendingPathComponent("Fixtures/famille.ics").path],
                             zone: zone, zoneIsExplicit: true, now: now, clock: Self.clock,
                             modelFactory: { _ in model }, checker: checker)
        return (job, dir, paths)
    }

    @Test func theModelWritesEveryTextTheCheckerAcceptsThreeCardsAndTwoInReservePerChild() throws {
        let model = FixedModel(Self.answer)
        let (job, dir, paths) = try family(model: model, checker: FixedChecker())
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try job.run()
        #expect(report.children == 2 && report.cardsReady == 6)
        #expect(report.written == 10 && report.byModel == 10 && report.fromLibrary == 0, "\(report)")
        #expect(model.requests.count == 10, "one accepted attempt per text")
        // The audit file lists what may reach a model; every prompt names one of its phrases.
        let audit = try String(contentsOfFile: paths.auditFile, encoding: .utf8)
        let phrases = Set(audit.split(separator: "\n").dropFirst().compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["phrase"] as? String
        })
        for request in model.requests {
            #expect(phrases.contains { request.prompt.contains("« \($0) »") }, "\(request.prompt)")
        }
        // A second run the same evening writes nothing.
        let again = try job.run()
        #expect(again.written == 0 && again.cardsReady == 6)
        #expect(model.requests.count == 10)
    }

    @Test func aCheckerThatRefusesEverythingFailsClosedAfterFiveAttemptsAndStoresNothing() throws {
        let model = FixedModel(Self.answer)
        let (job, dir, paths) = try family(model: model, checker: FixedChecker(accepts: false))
        defer { try? FileManager.default.removeItem(at: dir) }
        // The library's texts go through the same refusing checker: nothing can be stored, and the
        // run says the checker itself is failing (as when Grammalecte is broken).
        let error = #expect(throws: HouseholdError.self) { try job.run() }
        guard case .grammarCheckFailing(let moments)? = error else {
            Issue.record("expected grammarCheckFailing, got \(String(describing: error))")
            return
        }
        #expect(moments > 0)
        #expect(model.requests.count >= GenerationSession.maximumAttempts, "five attempts before the library")
        #expect(model.requests.count % GenerationSession.maximumAttempts == 0)
        let store = try StateStore(path: paths.state)
        for child in try store.children() {
            #expect(try store.dictations(childID: child.id!).isEmpty)
        }
    }

    /// Issue 12: the run names each moment left without a text (its date and event reference,
    /// never a title or a phrase), instead of only counting them.
    @Test func momentsWithoutATextAreNamedByDateAndEventReference() throws {
        final class Events: @unchecked Sendable { var list: [MomentWithoutText] = []; let lock = NSLock() }
        let events = Events()
        var (job, dir, paths) = try family(model: nil, checker: FixedChecker(accepts: false))
        defer { try? FileManager.default.removeItem(at: dir) }
        job.log = { event in if case .withoutText(let m) = event { events.lock.withLock { events.list.append(m) } } }
        #expect(throws: HouseholdError.self) { try job.run() }
        let named = events.lock.withLock { events.list }
        // Every candidate of the first child's next cards was tried once, and each was named (then
        // the deal finds the checker itself failing, and the run stops).
        #expect(named.count == CardChoice.count + NightlyRun.reserve, "\(named.count)")
        let store = try StateStore(path: paths.state)
        let moments = try store.moments()
        for m in named {
            #expect(m.textsFit && !m.isLabel)
            #expect(moments.contains { $0.eventReference == m.event }, "\(m.event)")
            #expect(m.event.description.hasPrefix("ev-"))
        }
        #expect(Set(named.map { "\($0.childID) \($0.event) \($0.date)" }).count == named.count, "each moment named once per child")
    }

    @Test func aRequestThatCouldNotBeLoggedMakesTheRunEndWithItsErrorStatus() throws {
        let (job, dir, _) = try family(model: UnloggableModel(), checker: FixedChecker())
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try job.run()
        #expect(report.fromLibrary == 10 && report.byModel == 0, "nothing unlogged was sent; the library served")
        #expect(report.hadErrors, "the run says the privacy configuration failed")
    }

    @Test func aModelThatHangsIsAskedTwiceInTheWholeRunAndTheRunSaysWhy() throws {
        let model = HangingModel()
        var (job, dir, _) = try family(model: model, checker: FixedChecker())
        defer { try? FileManager.default.removeItem(at: dir) }
        final class Events: @unchecked Sendable { var unresponsive = 0 }
        let events = Events()
        job.log = { if case .modelUnresponsive(120, 2) = $0 { events.unresponsive += 1 } }
        let report = try job.run()
        #expect(report.written == 10 && report.fromLibrary == 10)
        #expect(model.requests == GenerationSession.maximumTimeouts, "not 5 attempts × 10 texts × 120 s")
        #expect(events.unresponsive == 1, "said once")
    }

    @Test func withoutAModelTheLibraryServesEveryText() throws {
        let (job, dir, _) = try family(model: nil, checker: FixedChecker())
        defer { try? FileManager.default.removeItem(at: dir) }
        final class Events: @unchecked Sendable { var routes: [ModelRoute] = [] }
        let events = Events()
        var logged = job
        logged.log = { if case .route(let r, _) = $0 { events.routes.append(r) } }
        let report = try logged.run()
        #expect(report.written == 10 && report.fromLibrary == 10 && report.byModel == 0)
        #expect(events.routes == [.library(.noModel)])
    }

    @Test func aSourceThatCannotBeFetchedCostsNothingAndTheRunEndsWithErrors() throws {
        var (job, dir, _) = try family(model: nil, checker: FixedChecker())
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try job.run()
        #expect(!first.hadErrors)
        let store = try StateStore(path: job.paths.state)
        let before = try store.moments().count
        // The configured sources: the family's file and a subscription nobody answers (loopback, port 1).
        job.calendars = nil
        job.config.sources = [.path(repositoryRoot.appendingPathComponent("Fixtures/famille.ics").path),
                              .subscription(.init(url: "http://127.0.0.1:1/ecole.ics"))]
        final class Events: @unchecked Sendable { var failures: [SourceFailure] = [] }
        let events = Events()
        job.log = { if case .ingested(let report) = $0 { events.failures += report.sourceFailures } }
        let second = try job.run()
        #expect(second.hadErrors, "a failing source makes the run end with status 1")
        #expect(events.failures.count == 1)
        if case .fetch(let error)? = events.failures.first?.error { #expect(error.exitCode == 69) }
        #expect(try store.moments().count == before, "the file's moments stay, nothing is lost")
        #expect(second.cardsReady == first.cardsReady)
    }

    @Test func aSecondRunWhileTheFirstHoldsTheLockIsRefusedNamingTheHolder() throws {
        let (job, dir, paths) = try family(model: nil, checker: FixedChecker())
        defer { try? FileManager.default.removeItem(at: dir) }
        let held = try NightlyLock(path: paths.nightlyLock, started: Self.clock.now)
        defer { held.release() }
        #expect(throws: HouseholdError.lockHeld(holder: "pid \(getpid()), started 2025-11-29T17:00:00Z", lock: paths.nightlyLock)) {
            try job.run()
        }
    }
}
