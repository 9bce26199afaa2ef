// dictee-bench-validate: validator throughput over the rendered handwritten library, on one
// thread (Scripts/bench-validate pins it to one core). Grammalecte is excluded from the main
// figure and measured separately, because it runs in a worker process of its own.
//
// Baseline: the target of README "Validator benchmark", 2,000 texts per second without Grammalecte.
import Dictation
import DicteeCore
import Foundation
import French
import PrivacyFilter

if let k = CommandLine.arguments.firstIndex(of: "--heldout"), k + 1 < CommandLine.arguments.count {
    exit(try runHeldout(path: CommandLine.arguments[k + 1]))
}

let target = 2_000.0
let seconds = Double(ProcessInfo.processInfo.environment["BENCH_SECONDS"] ?? "") ?? 5
let batchSize = Int(ProcessInfo.processInfo.environment["BENCH_GRAMMAR_BATCH"] ?? "") ?? 500

func now() -> Double { Date().timeIntervalSince1970 }

guard let lexiconURL = Lexicon.locate(environment: ProcessInfo.processInfo.environment, executable: Bundle.main.executableURL) else {
    FileHandle.standardError.write(Data("bench: Data/lexique-3.83.bin is missing; run Scripts/setup\n".utf8))
    exit(69)
}
var t0 = now()
let lexicon = try Lexicon(contentsOf: lexiconURL)
let loadMs = (now() - t0) * 1000
let spelling = try SpellChecker.french()
let validator = Validator(lexicon: lexicon, spelling: spelling, grammar: .skippedForBenchmark, registers: Whitelist.bundledRegisters)

let library = try Library.bundled()
let phrases = Whitelist.bundled.canonicalPhrases.map {
    (phrase: $0.phrase, grammar: $0.grammar, slot: $0.slot == .none ? nil : $0.slot.rawValue)
}
let renderings = try library.renderings(phrases: phrases, sitesPerTarget: 3)
let batch = renderings.map { ($0.draft, $0.plan) }
let words = renderings.reduce(0) { $0 + Tokenizer.tokenize($1.draft.text).wordCount }
print("library: \(library.texts.count) texts, \(renderings.count) renderings, \(words / max(renderings.count, 1)) words per text on average")
print("lexicon load: \(String(format: "%.2f", loadMs)) ms")

// Cold pass: the first time every word meets Hunspell.
t0 = now()
var failures = 0
for item in batch { failures += validator.check([item])[0].isEmpty ? 0 : 1 }
let cold = Double(batch.count) / (now() - t0)
print("cold pass (Hunspell cache empty): \(Int(cold)) texts/s, \(failures) renderings with findings")

// Steady state, repeated for `seconds`.
var done = 0
t0 = now()
while now() - t0 < seconds {
    for item in batch { _ = validator.check([item]) }
    done += batch.count
}
let rate = Double(done) / (now() - t0)
print("validator, 8 steps without Grammalecte, one thread: \(Int(rate)) texts/s "
      + "(\(String(format: "%.1f", 1_000_000 / rate)) µs per text)")
print("baseline: target 2,000 texts/s -> ratio \(String(format: "%.2f", rate / target))x \(rate >= target ? "(ok)" : "(BELOW TARGET)")")

// Where the time goes: tokenizing alone, tagging (tokens + Lexique readings + context), trap sites.
func phase(_ name: String, _ body: (Draft, DictationPlan) -> Void) {
    let t = now()
    for item in batch { body(item.0, item.1) }
    let perText = (now() - t) / Double(batch.count) * 1_000_000
    print("  \(name): \(String(format: "%.0f", perText)) µs per text")
}
phase("tokenizer") { d, _ in _ = Tokenizer.tokenize(d.text) }
phase("tagging (TextAnalysis)") { d, p in _ = TextAnalysis(d.text, lexicon: validator.lexicon, names: [p.child.firstName]) }
let analyzer = TrapAnalyzer(lexicon: validator.lexicon)
phase("tagging + all 15 skills' trap sites") { d, p in _ = analyzer.sites(in: d.text, names: [p.child.firstName]) }

// Grammalecte, separately: its worker's start-up, then texts on the running worker.
if GrammarChecker.isAvailable() {
    let checker = GrammarChecker()
    defer { checker.close() }
    let slice = Array(renderings.prefix(batchSize)).map(\.draft.text)
    t0 = now()
    _ = try checker.check([slice[0]])
    print("grammalecte start-up (a new worker, one text): \(String(format: "%.2f", now() - t0)) s")
    t0 = now()
    let issues = try checker.check(slice, acceptedWords: Set(Library.sampleChildren.map(\.firstName) + [Library.sampleFriend]))
    let elapsed = now() - t0
    print("grammalecte: \(slice.count) texts in \(String(format: "%.2f", elapsed)) s on the running worker -> \(Int(Double(slice.count) / elapsed)) texts/s "
          + "(\(issues.filter { !$0.isEmpty }.count) with issues)")
} else {
    print("grammalecte: not installed, not measured")
}
