import Dictation
import DicteeCore
import Foundation

/// A written dictation: the validated draft, the plan it passed, where it comes from, and every
/// attempt. A library text looks exactly like a model's to the child and on the card.
public struct GenerationResult: Sendable {
    public var draft: Draft
    /// The plan the draft passed (for a library text: the text's own skills as targets).
    public var plan: DictationPlan
    /// The model's id, or `library:<text id>`.
    public var origin: String
    /// Whether the library served it (after 5 failed attempts, or without a model).
    public var fromLibrary: Bool
    /// Every attempt made with the model (empty without a model).
    public var attempts: [AttemptRecord]
    /// Which removal unlocked a refusal, when the model refused (e.g. `sans_moment`).
    public var diagnosis: String?
    /// Why the server failed, when an attempt ended with `serveur` or `contexte` (no text, no name).
    public var serverError: String?
    /// The same failure, typed: `.notAllowed` means a request was not sent because it could not
    /// be logged first (the egress log of a remote endpoint).
    public var modelError: ModelError?
}

/// Writes one validated dictation for a plan (README, "Budgets and retries"): at most 5
/// attempts with the model; each failed attempt continues the conversation with the previous
/// answer (the model's own turn, as it wrote it) and the validator's French sentences
/// (`ModelRequest`; the temperature stays the same, attempt n draws with seed + n - 1); a runaway (length finish or
/// timeout) is a failed attempt whose feedback says the text was far too long; a prompt that would
/// not fit the context with the completion budget is not sent. A refusal is retried without the
/// calendar moment first, then without the content rule, and the removal that unlocked it is kept
/// as a diagnosis. After 5 failures the library text for the same plan is served, silently.
public final class GenerationSession: @unchecked Sendable {
    public static let maximumAttempts = 5
    /// Attempts without an answer in time after which the session stops asking the model: the
    /// server hangs, and every further text would wait 5 × the timeout for nothing.
    public static let maximumTimeouts = 2
    /// Tokens kept free besides the prompt and the completion budget (the chat template's own).
    public static let templateMarginTokens = 32

    public let model: (any LanguageModel)?
    /// Checks every draft (and the library's renderings, and gives the trap sites).
    public let checker: any DraftChecker
    public let library: Library
    /// The sampling temperature of every request (`model.temperature`).
    public let temperature: Double
    /// The sampler's seed of every request (`model.seed`), `nil`: the model's own.
    public let seed: UInt32?
    private let timeoutLock = NSLock()
    private var timeouts = 0

    /// Whether the model stopped answering in time (`maximumTimeouts` attempts timed out in this
    /// session): later texts come from the library without asking it.
    public var modelIsUnresponsive: Bool { timeoutLock.withLock { timeouts >= Self.maximumTimeouts } }

    /// - Parameters:
    ///   - model: the model, or `nil` (the library serves every text).
    ///   - checker: the validator with Grammalecte (``Validator``), or a test's fake.
    ///   - library: the handwritten library (the fallback).
    ///   - temperature: the sampling temperature of every request (0 to 2).
    ///   - seed: the sampler's seed of every request.
    public init(model: (any LanguageModel)?, checker: any DraftChecker, library: Library, temperature: Double = ModelRequest.defaultTemperature, seed: UInt32? = nil) {
        self.model = model
        self.checker = checker
        self.library = library
        self.temperature = temperature
        self.seed = seed
    }

    /// A conservative token count when the server cannot count: one token per two UTF-8 bytes
    /// (French BPE averages three to four bytes a token), plus 8 per message.
    public static func estimateTokens(_ text: String) -> Int { text.utf8.count / 2 + 8 }

    /// Writes the dictation.
    /// - Parameters:
    ///   - plan: the planner's plan (its `date` says when the moment is: the prompt names the day
    ///     and the tense, the validator checks them, the fallback chooses a text told that way).
    ///   - used: library texts the child had lately or has waiting, with when (for the
    ///     fallback: `Library.serving(for:checker:used:)`).
    /// - Returns: the result, or `nil` when the model failed and no library text fits the moment.
    public func write(_ plan: DictationPlan, used: [String: Int64] = [:]) -> GenerationResult? {
        var attempts: [AttemptRecord] = []
        var diagnosis: String?
        var serverError: String?
        var modelError: ModelError?
        if let model, !modelIsUnresponsive {
            var removals: Set<Instructions.Removal> = []
            var refusals = 0
            var previous: String?
            var problems: [String] = []
            attemptLoop: for number in 1...Self.maximumAttempts {
                let removed = Instructions.Removal.allCases.filter(removals.contains)
                let system = Instructions.system(for: plan, removing: removals)
                let first = Instructions.prompt(for: plan, removing: removals)
                let feedback = problems.isEmpty ? nil : Instructions.feedback(problems)
                let maxTokens = Instructions.maxTokens(for: plan)
                // Attempt n draws with seed + n - 1: a retry whose prompt came out the same (the
                // same answer, the same findings) still gets another text.
                let request = ModelRequest(instructions: system, prompt: first, previousAnswer: feedback == nil ? nil : previous,
                                           feedback: feedback, schema: DictationAnswer.schema, maxTokens: maxTokens,
                                           temperature: temperature, seed: seed.map { $0 &+ UInt32(number - 1) })
                let everything = request.messages.map(\.content).joined(separator: "\n")
                let counted = model.countTokens(everything) ?? Self.estimateTokens(everything)
                if counted + maxTokens + Self.templateMarginTokens > model.contextLength {
                    attempts.append(AttemptRecord(number: number, failure: .context, promptTokens: counted, removed: removed))
                    serverError = ModelError.promptTooLong(promptTokens: counted, maxTokens: maxTokens, context: model.contextLength).description
                    break attemptLoop
                }
                let answer: ModelAnswer
                do {
                    answer = try model.complete(request)
                } catch {
                    switch error {
                    case .refused:
                        attempts.append(AttemptRecord(number: number, failure: .refusal, promptTokens: counted, removed: removed))
                        refusals += 1
                        removals = Self.removals(afterRefusals: refusals)
                        continue attemptLoop
                    case .timeout(let s):
                        // The server hangs: no feedback about length, no more attempts for this
                        // text, and after `maximumTimeouts` none for the rest of the session.
                        attempts.append(AttemptRecord(number: number, failure: .timeout, promptTokens: counted, seconds: s, removed: removed))
                        serverError = error.description
                        modelError = error
                        timeoutLock.withLock { timeouts += 1 }
                        break attemptLoop
                    case .promptTooLong:
                        attempts.append(AttemptRecord(number: number, failure: .context, promptTokens: counted, removed: removed))
                        serverError = error.description
                        modelError = error
                        break attemptLoop
                    case .unavailable, .badResponse, .notAllowed:
                        attempts.append(AttemptRecord(number: number, failure: .server, promptTokens: counted, removed: removed))
                        serverError = error.description
                        modelError = error
                        break attemptLoop
                    }
                }
                func record(_ failure: AttemptFailure?) {
                    attempts.append(AttemptRecord(number: number, failure: failure, promptTokens: answer.promptTokens,
                                                  completionTokens: answer.completionTokens, cachedTokens: answer.cachedTokens,
                                                  seconds: answer.seconds, finishReason: answer.finishReason.description, removed: removed))
                }
                if answer.finishReason == .length {
                    record(.runaway)
                    (previous, problems) = (nil, [Instructions.runaway(plan)])
                    continue
                }
                if case .other(let reason) = answer.finishReason, reason.contains("filter") {
                    record(.refusal)
                    refusals += 1
                    removals = Self.removals(afterRefusals: refusals)
                    continue
                }
                guard let parsed = DictationAnswer.parse(answer.content) else {
                    if Self.isRefusal(DictationAnswer(titre: "", phrases: [answer.content])) {
                        record(.refusal)
                        refusals += 1
                        removals = Self.removals(afterRefusals: refusals)
                        continue
                    }
                    record(.format)
                    (previous, problems) = (answer.content, [Instructions.notJSON])
                    continue
                }
                if Self.isRefusal(parsed) {
                    record(.refusal)
                    refusals += 1
                    removals = Self.removals(afterRefusals: refusals)
                    continue
                }
                if let unlocked = removed.first {
                    diagnosis = unlocked.rawValue
                    if unlocked == .moment {
                        // The moment itself triggers the refusals: no text about it will come.
                        record(.refusal)
                        break
                    }
                }
                let draft = Self.draft(parsed, plan: plan)
                let findings = checker.check(draft, plan: plan)
                if findings.isEmpty {
                    record(nil)
                    return GenerationResult(draft: draft, plan: plan, origin: model.id, fromLibrary: false, attempts: attempts,
                                            diagnosis: diagnosis, serverError: serverError, modelError: modelError)
                }
                record(.validation(Self.failedSteps(findings)))
                // The answer as the model wrote it: its own turn of the retry's conversation.
                previous = answer.content
                problems = findings.map(\.message)
            }
        }
        guard let serving = library.serving(for: plan, checker: checker, used: used) else { return nil }
        var draft = serving.draft
        draft.title = plan.moment.capitalized
        return GenerationResult(draft: draft, plan: serving.plan, origin: "library:" + serving.text.id, fromLibrary: true,
                                attempts: attempts, diagnosis: diagnosis, serverError: serverError, modelError: modelError)
    }

    /// The answer as a draft: Unicode NFC, every run of white space (new lines, tabs) one space;
    /// the title kept only when each of its words is in the text or the moment's phrase (a title
    /// is not validated otherwise: no new name or word may enter through it), else the moment's
    /// phrase with a capital.
    static func draft(_ answer: DictationAnswer, plan: DictationPlan) -> Draft {
        func clean(_ s: String) -> String {
            s.precomposedStringWithCanonicalMapping.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        let sentences = answer.phrases.map(clean)
        let text = sentences.joined(separator: " ")
        func words(_ s: String) -> Set<String> {
            Set(s.lowercased().replacingOccurrences(of: "’", with: "'").split(whereSeparator: { !$0.isLetter }).map(String.init))
        }
        let title = clean(answer.titre)
        let known = words(text).union(words(plan.moment.phrase))
        let keep = !title.isEmpty && words(title).isSubset(of: known) && title.unicodeScalars.allSatisfy { $0.value >= 0x20 }
        return Draft(title: keep ? title : plan.moment.capitalized, sentences: sentences)
    }

    /// The failed steps of findings, in the order they first appear, each with its failed rule
    /// ids in the order they first appear.
    static func failedSteps(_ findings: [Finding]) -> [FailedStep] {
        var steps: [FailedStep] = []
        for f in findings {
            if let k = steps.firstIndex(where: { $0.step == f.step }) {
                if !steps[k].rules.contains(f.rule) { steps[k].rules.append(f.rule) }
            } else {
                steps.append(FailedStep(step: f.step, rules: [f.rule]))
            }
        }
        return steps
    }

    /// After the first refusal the moment is left out; after the second, the content rule (the
    /// moment back in); then both.
    static func removals(afterRefusals n: Int) -> Set<Instructions.Removal> {
        switch n {
        case 0: []
        case 1: [.moment]
        case 2: [.contentRule]
        default: [.moment, .contentRule]
        }
    }

    /// Whether an answer is a refusal written as text ("Je ne peux pas…", "I'm sorry…").
    static func isRefusal(_ answer: DictationAnswer) -> Bool {
        let text = (answer.titre + " " + answer.phrases.joined(separator: " ")).lowercased().replacingOccurrences(of: "’", with: "'")
        return ["je ne peux pas", "je suis désolé", "je suis désolée", "désolé, je", "i can't", "i cannot", "i'm sorry", "as an ai", "en tant qu'ia"]
            .contains { text.contains($0) }
    }
}
