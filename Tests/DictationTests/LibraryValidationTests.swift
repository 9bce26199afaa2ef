import DicteeCore
import Foundation
import Testing
@testable import Dictation
import French
import PrivacyFilter

/// What makes the handwritten library a safe fallback: every text, rendered for both genders, for
/// names starting with a consonant, a vowel and a mute h, and for every whitelist phrase that fits
/// its kinds (with and without a friend's name in slot phrases), and for every sample label of
/// its kind or of `general` (`Library.sampleLabels`: "le dîner chez Mamie", "la fête des
/// Lumières", "les vacances au ski", "l'atelier de poterie", "les jeux au jardin"), passes all eight validator steps
/// for its grade — Grammalecte included — with 3 trap sites for each skill the text is tagged with.
@Suite struct LibraryValidationTests {
    static let phrases = Whitelist.bundled.canonicalPhrases.map {
        (phrase: $0.phrase, grammar: $0.grammar, slot: $0.slot == .none ? nil : $0.slot.rawValue)
    }

    @Test func everyRenderingOfEveryTextPassesTheEightSteps() throws {
        let library = try Library.bundled()
        let renderings = try library.renderings(phrases: Self.phrases, labels: Library.sampleLabels, sitesPerTarget: 3)
        let validator = try TestValidator.shared()
        let results = validator.check(renderings.map { ($0.draft, $0.plan) })
        var failures: [String: [String]] = [:]
        for (r, findings) in zip(renderings, results) where !findings.isEmpty {
            failures[r.text.id, default: []].append("\(r.plan.child.firstName) / \(r.plan.moment.phrase): \(findings.map(\.description).joined(separator: " | "))\n    \(r.draft.text)")
        }
        for (id, list) in failures.sorted(by: { $0.key < $1.key }) {
            Issue.record("\(id): \(list.count) failing renderings, e.g.\n  \(list.prefix(3).joined(separator: "\n  "))")
        }
        print("library: \(library.texts.count) texts, \(renderings.count) renderings, \(failures.count) texts failing")
        #expect(renderings.count >= library.texts.count * 4)
    }

    @Test func everyTextFitsAtLeastOnePhrase() throws {
        let library = try Library.bundled()
        #expect(library.texts.count >= 75)
        let renderings = try library.renderings(phrases: Self.phrases, labels: Library.sampleLabels)
        for text in library.texts {
            #expect(renderings.contains { $0.text.id == text.id }, "\(text.id) fits no phrase")
        }
    }
}
