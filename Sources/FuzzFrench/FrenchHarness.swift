// dictee-fuzz-french: libFuzzer harness over the French pipeline (Scripts/fuzz; README "Fuzzing").
// Each input is a dictation text (its bytes read as UTF-8, invalid sequences replaced): the
// tokenizer, the tagging with Lexique 3.83, the trap-site analysis, and the validator's eight
// steps with Grammalecte left out (`GrammarGate.skippedForBenchmark`: step 8 checks Hunspell and
// dictee's own rules only), for one of four plans chosen by the input's length (so a mutation that
// keeps the length keeps the plan). The Lexique table, Hunspell and the validator load once.
//
// The invariants are cheap: tokens and sentences cover the text in order and within it, one tag per
// token, trap sites inside the text, every finding with a rule-bearing step and a sentence.
import Dictation
import DicteeCore
import Foundation
import French
import FuzzSupport
import PrivacyFilter

enum FrenchHarness {
    static let validator: Validator = {
        let environment = ProcessInfo.processInfo.environment
        guard let url = Lexicon.locate(environment: environment, executable: Bundle.main.executableURL) else {
            fatalError("Data/lexique-3.83.bin is missing: run Scripts/setup, or set DICTEE_LEXICON")
        }
        do {
            return Validator(lexicon: try Lexicon(contentsOf: url), spelling: try SpellChecker.french(environment: environment),
                             grammar: .skippedForBenchmark, registers: Whitelist.bundledRegisters)
        } catch {
            fatalError("the Lexique table or the French dictionary cannot be read: \(error)")
        }
    }()

    /// Four plans across the grades, genders, slots and day forms.
    static let plans: [DictationPlan] = {
        let written = CalendarDate(year: 2026, month: 11, day: 29)
        let masculine = PhraseGrammar(gender: .masculine, number: .singular, headNoun: "anniversaire")
        let feminine = PhraseGrammar(gender: .feminine, number: .singular, headNoun: "sortie")
        var lea = DictationPlan(child: Child(firstName: "Léa", gender: .feminine, grade: .ce1),
                                moment: MomentPhrase(phrase: "la sortie piscine", grammar: feminine),
                                targets: [.homophonesAA, .majusculePonctuation])
        lea.date = MomentDate(start: written.adding(days: -1), end: written.adding(days: -1), written: written, time: .past)
        var hugo = DictationPlan(child: Child(firstName: "Hugo", gender: .masculine, grade: .cm1),
                                 moment: MomentPhrase(phrase: "l'anniversaire de Tom", grammar: masculine, friendName: "Tom"),
                                 targets: [.accordPPEtre, .homophonesCesSesCestSest])
        hugo.date = MomentDate(start: written.adding(days: 3), end: written.adding(days: 3), written: written, time: .upcoming)
        let ines = DictationPlan(child: Child(firstName: "Inès", gender: .feminine, grade: .cp),
                                 moment: MomentPhrase(phrase: "la sortie piscine", grammar: feminine),
                                 targets: [.mDevantMBP])
        let tom = DictationPlan(child: Child(firstName: "Tom", gender: .masculine, grade: .cm2),
                                moment: MomentPhrase(phrase: "l'anniversaire d'Anaïs", grammar: masculine, friendName: "Anaïs"),
                                targets: [.passeSimple3ePersonne, .imparfaitFuturTerminaisons])
        return [lea, hugo, ines, tom]
    }()

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        let plan = plans[bytes.count % plans.count]
        let scalars = text.unicodeScalars.count

        let tokenized = Tokenizer.tokenize(text)
        var previousEnd = 0
        for token in tokenized.tokens {
            guard previousEnd <= token.start, token.start <= token.end, token.end <= scalars else {
                fatalError("a token lies outside the text or out of order")
            }
            previousEnd = token.end
        }
        for sentence in tokenized.sentences {
            guard sentence.lowerBound >= 0, sentence.upperBound <= tokenized.tokens.count else {
                fatalError("a sentence lies outside the tokens")
            }
        }
        let analysis = TextAnalysis(tokenized: tokenized, lexicon: validator.lexicon, names: [plan.child.firstName])
        guard analysis.tagged.count == tokenized.tokens.count else { fatalError("a token was left untagged") }

        let draft = Draft(text: text)
        for site in validator.sites(of: draft, plan: plan) {
            guard 0 <= site.start, site.start <= site.end, site.end <= scalars else {
                fatalError("a trap site lies outside the text")
            }
        }
        for finding in validator.check(draft, plan: plan) {
            guard !finding.message.isEmpty else { fatalError("a finding has no sentence") }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FrenchHarness.run(UnsafeBufferPointer(start: size > 0 ? data : nil, count: data == nil ? 0 : size))
    return 0
}

@main
struct FuzzFrench {
    static func main() {
        FuzzDriver.main(LLVMFuzzerTestOneInput)
    }
}
