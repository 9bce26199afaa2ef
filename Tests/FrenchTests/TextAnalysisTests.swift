import DicteeCore
import Testing
@testable import French

/// Rule-based tagging over Lexique readings: the context rules the trap sites and the validator
/// rely on.
@Suite struct TextAnalysisTests {
    func classes(_ text: String, names: Set<String> = ["Léa"]) throws -> [String: WordClass] {
        let a = TextAnalysis(text, lexicon: try TestLexicon.shared(), names: names)
        var out: [String: WordClass] = [:]
        for t in a.tagged where t.token.kind == .word { out[t.token.text] = t.wordClass }
        return out
    }

    @Test func aDeterminerMakesANounASubjectMakesAVerb() throws {
        let c = try classes("Nous avions peur des avions.")
        #expect(c["avions"] == .noun)  // the last occurrence wins in the map: "des avions"
        let a = TextAnalysis("Nous avions peur.", lexicon: try TestLexicon.shared())
        #expect(a.tagged[1].wordClass == .finiteVerb)
        #expect(a.tagged[1].finiteForms.contains { $0.mood == .ind && $0.tense == .imp && $0.person == "1p" })
    }

    @Test func objectPronounsAndArticles() throws {
        let a = TextAnalysis("Il la mange. La pomme est rouge.", lexicon: try TestLexicon.shared())
        #expect(a.tagged[1].wordClass == .objectPronoun)
        #expect(a.tagged[4].wordClass == .determiner)
    }

    @Test func theCardinalPointAndTheNounSon() throws {
        let a = TextAnalysis("Le vent vient de l'est. Le son du piano est doux.", lexicon: try TestLexicon.shared())
        let words = a.tagged.filter { $0.token.kind == .word }
        #expect(words[5].token.text == "est" && words[5].wordClass == .noun)
        #expect(words[7].token.text == "son" && words[7].wordClass == .noun)
        #expect(words[10].token.text == "est" && words[10].wordClass == .finiteVerb)
    }

    @Test func participlesAfterAnAuxiliaryAndInfinitivesAfterAPreposition() throws {
        let a = TextAnalysis("Il n'a pas mangé. Elle est partie pour jouer.", lexicon: try TestLexicon.shared())
        let w = Dictionary(a.tagged.map { ($0.token.text, $0.wordClass) }, uniquingKeysWith: { a, _ in a })
        #expect(w["mangé"] == .pastParticiple)
        #expect(w["partie"] == .pastParticiple)
        #expect(w["jouer"] == .infinitive)
    }

    @Test func namesAreProperNounsEvenAtTheStartOfASentence() throws {
        let c = try classes("Rose mange. Hier, Léa et Tom jouent.", names: ["Rose"])
        #expect(c["Rose"] == .properNoun)
        #expect(c["Léa"] == .properNoun)
        #expect(c["Tom"] == .properNoun)
        #expect(c["Hier"] != .properNoun)
    }

    @Test func invertedPronounsUseTheVerbsReadings() throws {
        let a = TextAnalysis("« Viens », dit-il.", lexicon: try TestLexicon.shared())
        let dit = try #require(a.tagged.first { $0.token.text == "dit-il" })
        #expect(dit.entries.contains { $0.lemma == "dire" })
    }

    @Test func theMemoAnswersLikeTheLexicon() throws {
        let lexicon = try TestLexicon.shared()
        let memo = CachedLookup(lexicon, limit: 2)
        for w in ["partie", "a", "maison", "partie", "xyzzy"] {
            #expect(memo.entries(for: w) == lexicon.entries(for: w))
        }
    }
}
