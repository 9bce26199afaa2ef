@_spi(PrivacyFilter) import DicteeCore
import Foundation
import Testing
@testable import PrivacyFilter

/// Issue 15, "Long values cost quadratic time": the filter reads a bounded prefix of each text
/// (`PrivacyFilter.titleBound`, `textBound`); a longer text is never a moment. No test here is
/// timed: `Scripts/bench-limits` measures the 10 MB values.
@Suite("PrivacyFilter: bounded texts")
struct BoundTests {
    let filter = PrivacyFilter()

    /// `count` Unicode scalars of words, starting with `start`.
    static func text(_ start: String, scalars count: Int) -> String {
        let filler = " avec Tom et Léa au centre aquatique"
        let text = start + String(repeating: filler, count: count / filler.unicodeScalars.count + 1)
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(count)))
    }

    @Test("longTitleIsCutToTheBound: a 1 MB title is read in its first 256 scalars and is never a moment")
    func longTitleIsCutToTheBound() {
        let long = Self.text("Piscine", scalars: 1_000_000)
        let cut = PrivacyFilter.bounded(long, PrivacyFilter.titleBound)
        #expect(cut.cut && cut.text.unicodeScalars.count == PrivacyFilter.titleBound)
        #expect(long.hasPrefix(cut.text))
        // "Piscine avec Tom…" would be la piscine: past the bound nothing was read, so not a moment.
        #expect(filter.classify(title: long).decision == .unlabeled)
        // A disqualifier inside the bound still wins.
        let hospital = filter.classify(title: Self.text("Piscine à l'hôpital", scalars: 1_000_000))
        #expect(hospital.decision == .disqualified && hospital.rule == "D01")
        // A parents' rule too.
        #expect(filter.classify(title: Self.text("Réunion piscine", scalars: 1_000_000)).decision == .disqualified)
        // The same title at the bound is read whole, as before.
        let atBound = Self.text("Piscine", scalars: PrivacyFilter.titleBound)
        #expect(!PrivacyFilter.bounded(atBound, PrivacyFilter.titleBound).cut)
        #expect(filter.classify(title: atBound).decision == .moment)
        #expect(filter.classify(title: atBound + "x").decision == .unlabeled)
    }

    @Test("longTextIsCutToTheBound: a 1 MB description or location makes the event unlabeled unless its prefix disqualifies it")
    func longTextIsCutToTheBound() {
        let long = Self.text("Rendez-vous", scalars: 1_000_000)
        #expect(filter.classify(title: "Piscine", description: long).decision == .unlabeled)
        #expect(filter.classify(title: "Piscine", location: long).decision == .unlabeled)
        let clinic = filter.classify(title: "Piscine", description: Self.text("Clinique du Parc", scalars: 1_000_000))
        #expect(clinic.decision == .disqualified)
        // A description as long as a video-call invitation (a few kB) is read whole.
        let invitation = Self.text("Rendez-vous", scalars: PrivacyFilter.textBound)
        #expect(filter.classify(title: "Piscine", description: invitation).decision == .moment)
        // Scalars, not bytes: 4,096 accented letters are within the bound.
        let accents = String(repeating: "é", count: PrivacyFilter.textBound)
        #expect(!PrivacyFilter.bounded(accents, PrivacyFilter.textBound).cut)
    }
}
