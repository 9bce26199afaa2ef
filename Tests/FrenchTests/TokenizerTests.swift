import Testing
@testable import French

@Suite struct TokenizerTests {
    func words(_ s: String) -> [String] { Tokenizer.tokenize(s).tokens.map(\.text) }

    @Test func elisionSplitsTheElidedForm() {
        #expect(words("L'enfant n'a pas d'amis qu'il aime.") ==
            ["L'", "enfant", "n'", "a", "pas", "d'", "amis", "qu'", "il", "aime", "."])
        #expect(words("Jusqu'à demain, c'est l'été.") ==
            ["Jusqu'", "à", "demain", ",", "c'", "est", "l'", "été", "."])
        #expect(words("J’aime m’amuser, t’as vu ?") == ["J’", "aime", "m’", "amuser", ",", "t’", "as", "vu", "?"])
    }

    @Test func wordsWithAnInnerApostropheStayWhole() {
        #expect(words("Aujourd'hui, quelqu'un chante.") == ["Aujourd'hui", ",", "quelqu'un", "chante", "."])
        #expect(words("aujourd’hui") == ["aujourd’hui"])
    }

    @Test func hyphenatedWordsAreOneTokenAndCountOnce() {
        let t = Tokenizer.tokenize("Le week-end, grand-mère a peut-être pique-niqué.")
        #expect(t.tokens.map(\.text) == ["Le", "week-end", ",", "grand-mère", "a", "peut-être", "pique-niqué", "."])
        #expect(t.wordCount == 6)
        #expect(words("« Viens », dit-il.") == ["«", "Viens", "»", ",", "dit-il", "."])
    }

    @Test func numbersAndPunctuation() {
        let t = Tokenizer.tokenize("Il a 10 ans, et 2,5 kilos… à 14h30 !")
        #expect(t.tokens.map(\.text) == ["Il", "a", "10", "ans", ",", "et", "2,5", "kilos", "…", "à", "14h30", "!"])
        #expect(t.wordCount == 9)
    }

    @Test func elidedFormsCountAsWords() {
        // Docs/domain.md §2: elided forms count, hyphenated words once, punctuation never.
        #expect(Tokenizer.tokenize("L'été, c'est super.").wordCount == 5)
        #expect(Tokenizer.tokenize("Il n'est pas là.").wordCount == 5)
    }

    @Test func sentencesEndAtFinalMarksBeforeACapital() {
        let t = Tokenizer.tokenize("Léa joue. Elle rit ! Tu viens ? Oui… Fin")
        #expect(t.sentences.count == 5)
        #expect(t.sentences.map { t.wordCount(ofSentence: t.sentences.firstIndex(of: $0)!) } == [2, 2, 2, 1, 1])
    }

    @Test func quotesAndAbbreviationsDoNotSplit() {
        let t = Tokenizer.tokenize("« Viens vite ! » crie Tom. M. Martin arrive. Il est là.")
        #expect(t.sentences.count == 3)
        #expect(t.tokens[t.sentences[0]].map(\.text).last == ".")
        let q = Tokenizer.tokenize("Maman dit : « Bravo ! » Puis elle part.")
        #expect(q.sentences.count == 2)
        #expect(q.tokens[q.sentences[0]].last?.text == "»")
    }

    @Test func blankLinesEndASentence() {
        let t = Tokenizer.tokenize("Un titre\n\nLéa joue.")
        #expect(t.sentences.count == 2)
    }

    @Test func offsetsAreUnicodeScalarOffsets() {
        let text = "Léa a mangé ses œufs."
        let t = Tokenizer.tokenize(text)
        for token in t.tokens { #expect(t.substring(from: token.start, to: token.end) == token.text) }
        #expect(t.tokens[2].start == 6)
    }

    @Test func normalizedFormIsLowerCaseWithStraightApostrophes() {
        let t = Tokenizer.tokenize("L’Été")
        #expect(t.tokens.map(\.normalized) == ["l'", "été"])
        #expect(t.tokens[0].isElided)
    }

    @Test func emptyAndPunctuationOnlyTexts() {
        #expect(Tokenizer.tokenize("").tokens.isEmpty)
        #expect(Tokenizer.tokenize("").sentences.isEmpty)
        #expect(Tokenizer.tokenize(" ... !").wordCount == 0)
    }
}
