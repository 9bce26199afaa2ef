import DicteeCore
import Foundation
import Store

extension Dictee {
    /// `dictee stats [--json]`: how the language model does, never anything about a child.
    ///
    /// JSON: `{"asked": n, "accepted": n, "accepted_first_attempt": n, "fallbacks": n,
    /// "library_only": n, "acceptance_first_attempt": ratio|null, "attempts_per_accepted": x|null,
    /// "fallback_rate": ratio|null, "tokens_per_accepted": x|null, "prompt_tokens": n,
    /// "cached_prompt_tokens": n, "completion_tokens": n, "failed_steps": {"step": count},
    /// "failed_rules": {"rule": count}}` (ratios between 0 and 1; `cached_prompt_tokens`: of
    /// `prompt_tokens`, those the model kept from an earlier request, 0 when it cannot say).
    /// The text says the kept tokens only when there are some.
    struct Stats: Command {
        static let name = "stats"
        static var summary: String { tr("summary.stats") }
        static let options = OptionSpec(valued: [], flags: ["json"])
        static var help: String { tr("help.stats") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else {
                throw CommandFailure(.usage, tr("stats takes no argument"))
            }
            let store = try StateOptions.open(context, create: false)
            let s: GenerationStats
            do { s = try store.generationStats() } catch { throw CommandFailure(error) }
            func ratio(_ a: Int, _ b: Int) -> Double? { b == 0 ? nil : Double(a) / Double(b) }
            let first = ratio(s.acceptedFirst, s.asked)
            let attempts = ratio(s.attemptsOfAccepted, s.accepted)
            let fallback = ratio(s.fallbacks, s.asked)
            let tokens = ratio(s.promptTokens + s.completionTokens, s.accepted)
            if arguments.flags.contains("json") {
                func number(_ x: Double?) -> JSONWriter.Value { x.map { .raw(String(format: "%.4f", $0)) } ?? .null }
                let steps = "{" + s.failedSteps.map { JSONWriter.quoted($0.step) + ":" + String($0.count) }.joined(separator: ",") + "}"
                let rules = "{" + s.failedRules.map { JSONWriter.quoted($0.rule) + ":" + String($0.count) }.joined(separator: ",") + "}"
                output.line(JSONWriter.object([
                    ("asked", .int(s.asked)), ("accepted", .int(s.accepted)), ("accepted_first_attempt", .int(s.acceptedFirst)),
                    ("fallbacks", .int(s.fallbacks)), ("library_only", .int(s.libraryOnly)),
                    ("acceptance_first_attempt", number(first)), ("attempts_per_accepted", number(attempts)),
                    ("fallback_rate", number(fallback)), ("tokens_per_accepted", number(tokens)),
                    ("prompt_tokens", .int(s.promptTokens)), ("cached_prompt_tokens", .int(s.cachedTokens)),
                    ("completion_tokens", .int(s.completionTokens)),
                    ("failed_steps", .raw(steps)), ("failed_rules", .raw(rules)),
                ]))
                return .ok
            }
            func percent(_ x: Double?) -> String { x.map { tr("%@ %%", String(format: "%.0f", $0 * 100)) } ?? "-" }
            func decimal(_ x: Double?) -> String { x.map(oneDecimal) ?? "-" }
            if s.asked == 0 {
                output.line(tr("no text was asked of a language model yet (%ld taken from the library)", s.libraryOnly))
                output.hint(tr("only 'dictee nightly' asks a model, when the config names one (see 'dictee privacy')"))
                return .ok
            }
            output.line(tr("texts asked of the model:        %ld", s.asked))
            output.line(tr("accepted at the first attempt:   %@ (%ld)", percent(first), s.acceptedFirst))
            output.line(tr("attempts per accepted text:      %@", decimal(attempts)))
            output.line(tr("taken from the library instead:  %@ (%ld)", percent(fallback), s.fallbacks))
            if s.cachedTokens > 0 {
                output.line(tr("tokens per accepted text:        %@ (%ld prompt, of which %ld kept from an earlier request, + %ld answer in all)",
                               decimal(tokens), s.promptTokens, s.cachedTokens, s.completionTokens))
            } else {
                // A model that cannot say (an HTTP server) reports none: nothing to say then.
                output.line(tr("tokens per accepted text:        %@ (%ld prompt + %ld answer in all)", decimal(tokens), s.promptTokens, s.completionTokens))
            }
            if !s.failedSteps.isEmpty {
                output.line(tr("failed steps:                    %@", s.failedSteps.prefix(8).map { "\($0.step) \($0.count)" }.joined(separator: ", ")))
            }
            // One line per failed rule, the 12 most frequent.
            for r in s.failedRules.prefix(12) {
                output.line(tr("failed rule %@: %ld", r.rule, r.count))
            }
            output.line(tr("taken from the library without a model: %ld", s.libraryOnly))
            return .ok
        }
    }
}
