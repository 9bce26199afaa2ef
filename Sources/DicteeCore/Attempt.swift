/// The validator's steps, in the order they run. The raw values are a contract: `dictee check
/// --json` prints them, the generation feeds the findings back to the model, and the state stores
/// them for `dictee stats` (the `attempts.failed_steps` column).
public enum ValidationStep: String, CaseIterable, Codable, Sendable, Hashable {
    case vocabulaire, temps, longueur, registre, competences, prenom, moment
    case orthographeGrammaire = "orthographe_grammaire"
}

/// Parts of the prompt a retry may leave out when the model refuses (a diagnosis of what
/// triggered the refusal). The raw values are stored (`attempts.removed`, `dictations.diagnosis`).
public enum PromptRemoval: String, Sendable, Hashable, CaseIterable {
    /// The calendar moment: the only content dictee did not write itself.
    case moment = "sans_moment"
    /// The content rule of the instructions (no violence, death, illness...).
    case contentRule = "sans_regle_de_contenu"
}

/// One validator step an attempt failed, with the ids of the rules of that step that failed
/// (e.g. `orthographe_grammaire` with `["elision_consonne", "grammalecte:…"]`).
public struct FailedStep: Sendable, Hashable {
    /// The step.
    public var step: ValidationStep
    /// Rule ids in the order the validator reported them, each once; may be empty (an attempt
    /// stored before rule ids were recorded, schema version 4).
    public var rules: [String]

    /// - Parameters:
    ///   - step: the failed step.
    ///   - rules: its failed rule ids, each once.
    public init(step: ValidationStep, rules: [String] = []) {
        self.step = step
        self.rules = rules
    }
}

/// Why one attempt of the language model did not give the dictation.
public enum AttemptFailure: Sendable, Hashable {
    /// The validator refused the draft: the failed steps in step order, each with its rules.
    case validation([FailedStep])
    /// The answer was not the JSON object asked for.
    case format
    /// A runaway: the completion budget ran out (the `length` finish).
    case runaway
    /// No answer within the per-attempt timeout: the server hangs. Not a runaway: the model is
    /// not told its text was too long, and the text's attempts end there.
    case timeout
    /// The model or the server refused (a refusal text, a content filter).
    case refusal
    /// The prompt would not fit the model's context with the completion budget (not sent).
    case context
    /// The server failed (unreachable, a bad response, not allowed).
    case server
}

/// One attempt of a language model for a dictation: what `GenerationSession` records and the
/// state stores for `dictee stats` and the run log. Holds no text and no name.
public struct AttemptRecord: Sendable, Hashable {
    /// 1 to 5.
    public var number: Int
    /// Why the attempt failed; `nil` for the accepted attempt.
    public var failure: AttemptFailure?
    /// Tokens of the prompt (0 when nothing was sent or counted).
    public var promptTokens: Int
    /// Tokens of the answer (0 when there was none).
    public var completionTokens: Int
    /// Of `promptTokens`, those the model did not evaluate again because it kept them from an
    /// earlier request (its KV cache); 0 when the model cannot say (an HTTP server) or nothing
    /// was sent.
    public var cachedTokens: Int
    /// Wall-clock seconds of the request.
    public var seconds: Double
    /// The server's finish reason (`stop`, `length`...), or `-` when there was no answer.
    public var finishReason: String
    /// Parts of the prompt left out for this attempt (refusal diagnosis), in `allCases` order.
    public var removed: [PromptRemoval]

    /// - Parameters:
    ///   - number: 1 to 5.
    ///   - failure: why it failed, `nil` when accepted.
    ///   - promptTokens: tokens of the prompt.
    ///   - completionTokens: tokens of the answer.
    ///   - cachedTokens: of the prompt's tokens, those the model kept from an earlier request.
    ///   - seconds: wall-clock seconds of the request.
    ///   - finishReason: the server's finish reason, `-` without an answer.
    ///   - removed: prompt parts left out.
    public init(number: Int, failure: AttemptFailure?, promptTokens: Int = 0, completionTokens: Int = 0, cachedTokens: Int = 0,
                seconds: Double = 0, finishReason: String = "-", removed: [PromptRemoval] = []) {
        self.number = number
        self.failure = failure
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.cachedTokens = cachedTokens
        self.seconds = seconds
        self.finishReason = finishReason
        self.removed = removed
    }
}
