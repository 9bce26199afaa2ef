import DicteeCore
import French
import Testing
@testable import Dictation

/// The three renderings of a dictation: read-aloud marks and list, clean copy, printable page.
@Suite struct DictationSheetTests {
    static let lea = Child(firstName: "Léa", gender: .feminine, grade: .ce1)

    static func sheet(title: String = "La sortie piscine", _ text: String, _ sites: [TrapSite],
                      motsDonnes: [String]? = ["Léa", "sortie", "piscine"]) -> DictationSheet {
        DictationSheet(id: 7, title: title, text: text, sites: sites, child: lea,
                       moment: "la sortie piscine", date: "samedi 28 novembre 2026", day: "samedi 28 novembre",
                       motsDonnes: motsDonnes)
    }

    /// The marked text alone, not wrapped: the body of `readAloud(color: false)`.
    static func marked(_ s: DictationSheet) -> String { s.markedText(color: false) }

    /// The first lines of every screen view: whose dictation, title, grade and moment, the mots
    /// donnés and how to dictate (wrapped at 78 columns, two-space margin).
    static let header = """
          Léa — Dictée sur le moment du samedi 28 novembre
          La sortie piscine
          CE1 · la sortie piscine

          Mots donnés : Léa, sortie, piscine
          Pour dicter : lire d'abord tout le texte ; dicter ensuite par groupes de
            mots, chaque groupe lu deux fois ; relire tout le texte ; puis l'enfant se
            relit.

        """

    static func site(_ skill: SkillID, _ start: Int, _ end: Int, _ word: String,
                     _ choice: String? = nil, _ alternatives: [String] = []) -> TrapSite {
        TrapSite(skill: skill, start: start, end: end, word: word, choice: choice, alternatives: alternatives)
    }

    // MARK: read aloud

    @Test func oneSiteWholeOutput() {
        let s = Self.sheet("Léa a mis son maillot.", [Self.site(.homophonesAA, 4, 5, "a", "a", ["à"])])
        #expect(s.readAloud(color: false) == Self.header + """

                Léa [a]¹ mis son maillot.

              ¹ a — homophones a / à : « a », pas « à »

            """)
    }

    @Test func severalSitesWholeOutput() {
        let s = Self.sheet("Léa a mis son grand maillot.", [
            Self.site(.homophonesAA, 4, 5, "a", "a", ["à"]),
            Self.site(.homophonesSonSont, 10, 13, "son", "son", ["sont"]),
            Self.site(.lettresMuettesFinales, 14, 19, "grand"),
        ])
        #expect(s.readAloud(color: false) == Self.header + """

                Léa [a]¹ mis [son]² [grand]³ maillot.

              ¹ a — homophones a / à : « a », pas « à »
              ² son — homophones son / sont : « son », pas « sont »
              ³ grand — lettres muettes finales

            """)
    }

    struct MarkCase: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var sites: [TrapSite]
        var expected: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        MarkCase(name: "numbers follow the array, not the position",
                 text: "Léa a mis son grand maillot.",
                 sites: [site(.lettresMuettesFinales, 14, 19, "grand"), site(.homophonesAA, 4, 5, "a", "a", ["à"])],
                 expected: "Léa [a]² mis son [grand]¹ maillot."),
        MarkCase(name: "identical spans share one bracket",
                 text: "Les enfants sont partis.",
                 sites: [site(.plurielNomsSX, 4, 11, "enfants"),
                         site(.accordSujetVerbe, 12, 16, "sont"),
                         site(.homophonesSonSont, 12, 16, "sont", "sont", ["son"])],
                 expected: "Les [enfants]¹ [sont]²˒³ partis."),
        MarkCase(name: "identical spans, numbers ascending whatever the order",
                 text: "Les enfants sont partis.",
                 sites: [site(.homophonesSonSont, 12, 16, "sont", "sont", ["son"]),
                         site(.plurielNomsSX, 4, 11, "enfants"),
                         site(.accordSujetVerbe, 12, 16, "sont")],
                 expected: "Les [enfants]² [sont]¹˒³ partis."),
        MarkCase(name: "a partial overlap merges into the union (typographic apostrophe)",
                 text: "C’est Léa.",
                 sites: [site(.homophonesCesSesCestSest, 0, 5, "C’est", "c’est", ["s’est"]),
                         site(.majusculePonctuation, 0, 1, "C"),
                         site(.majusculePonctuation, 9, 10, ".")],
                 expected: "[C’est]¹˒² Léa[.]³"),
        MarkCase(name: "a chain of overlaps is one bracket",
                 text: "abcdefgh",
                 sites: [site(.accordGNAdjectif, 2, 5, "cde"), site(.accordGNAdjectif, 0, 3, "abc"),
                         site(.accordGNAdjectif, 4, 7, "efg")],
                 expected: "[abcdefg]¹˒²˒³h"),
        MarkCase(name: "touching spans stay apart",
                 text: "abcdefgh",
                 sites: [site(.accordGNAdjectif, 2, 4, "cd"), site(.accordGNAdjectif, 0, 2, "ab")],
                 expected: "[ab]²[cd]¹efgh"),
        MarkCase(name: "é and ’ are one scalar each (not UTF-8 bytes)",
                 text: "L’été à la mer.",
                 sites: [site(.majusculePonctuation, 0, 1, "L"), site(.homophonesAA, 6, 7, "à", "à", ["a"]),
                         site(.majusculePonctuation, 14, 15, ".")],
                 expected: "[L]¹’été [à]² la mer[.]³"),
        MarkCase(name: "a decomposed é is two scalars (not one Character)",
                 text: "Le cafe\u{301} est chaud.",
                 sites: [site(.accordGNAdjectif, 3, 8, "cafe\u{301}"), site(.homophonesEtEst, 9, 12, "est", "est", ["et"])],
                 expected: "Le [cafe\u{301}]¹ [est]² chaud."),
        MarkCase(name: "out-of-range and empty sites are not marked",
                 text: "Léa a mis son maillot.",
                 sites: [site(.homophonesAA, 4, 5, "a", "a", ["à"]), site(.lettresMuettesFinales, 50, 55, "loin"),
                         site(.lettresMuettesFinales, 3, 3, ""), site(.lettresMuettesFinales, -1, 2, "Lé"),
                         site(.lettresMuettesFinales, 6, 4, "mis"), site(.majusculePonctuation, 21, 23, ".")],
                 expected: "Léa [a]¹ mis son maillot."),
        MarkCase(name: "a site at the very end and one at the start",
                 text: "Léa a mis son maillot.",
                 sites: [site(.majusculePonctuation, 21, 22, "."), site(.majusculePonctuation, 0, 1, "L")],
                 expected: "[L]²éa a mis son maillot[.]¹"),
        MarkCase(name: "twelve sites, two-digit numbers",
                 text: "abcdefghijkl",
                 sites: (0..<12).map { site(.accordGNAdjectif, 11 - $0, 12 - $0, "x") },
                 expected: "[a]¹²[b]¹¹[c]¹⁰[d]⁹[e]⁸[f]⁷[g]⁶[h]⁵[i]⁴[j]³[k]²[l]¹"),
    ])
    func marking(_ c: MarkCase) {
        #expect(Self.marked(Self.sheet(c.text, c.sites)) == c.expected)
    }

    @Test func outOfRangeSitesAreStillListed() {
        let s = Self.sheet("Léa a mis son maillot.", [
            Self.site(.homophonesAA, 4, 5, "a", "a", ["à"]),
            Self.site(.lettresMuettesFinales, 50, 55, "loin"),
            Self.site(.lettresMuettesFinales, 3, 3, "vide"),
        ])
        let list = s.readAloud(color: false).components(separatedBy: "\n\n").last
        #expect(list == "  ¹ a — homophones a / à : « a », pas « à »\n  ² loin — lettres muettes finales\n  ³ vide — lettres muettes finales\n")
    }

    @Test func severalAlternativesJoinedWithNi() {
        let s = Self.sheet("Il range ces jouets.", [
            Self.site(.homophonesCesSesCestSest, 9, 12, "ces", "ces", ["ses", "c'est"]),
        ])
        #expect(s.readAloud(color: false).hasSuffix("\n\n  ¹ ces — homophones ces / ses / c'est / s'est : « ces », pas « ses » ni\n    « c'est »\n"))
    }

    @Test func noSiteSaysSo() {
        let s = Self.sheet("Léa nage.", [])
        #expect(s.readAloud(color: false).hasSuffix("\n\n    Léa nage.\n\n  Aucun piège repéré dans ce texte.\n"))
    }

    @Test func paragraphsKeepTheirLineBreaks() {
        let s = Self.sheet("Léa a nagé.\nTom a plongé.", [Self.site(.homophonesAA, 16, 17, "a", "a", ["à"])])
        #expect(Self.marked(s) == "Léa a nagé.\nTom [a]¹ plongé.")
        #expect(s.readAloud(color: false).contains("\n\n    Léa a nagé.\n    Tom [a]¹ plongé.\n\n"))
    }

    // MARK: mots donnés, how to dictate, margins

    @Test func theMotsDonnesLineListsTheWordsOrSaysNone() {
        let some = Self.sheet("Léa a glissé sur le toboggan.", [], motsDonnes: ["Léa", "toboggan"])
        #expect(some.readAloud(color: false).contains("\n\n  Mots donnés : Léa, toboggan\n  Pour dicter : "))
        #expect(Language.$current.withValue(.french) { some.html() }.contains("<p class=\"donnes\">Mots donnés : Léa, toboggan</p>"))
        #expect(some.html().contains("<p class=\"donnes\">Words given: Léa, toboggan</p>"))
        let none = Self.sheet("Il pleut.", [], motsDonnes: [])
        #expect(none.readAloud(color: false).contains("\n  Mots donnés : aucun.\n"))
        // Not computed (the grading view): no line at all, how to dictate stays.
        let grading = Self.sheet("Il pleut.", [], motsDonnes: nil)
        #expect(!grading.readAloud(color: false).contains("Mots donnés"))
        #expect(!grading.html().contains("Mots donnés"))
        #expect(grading.readAloud(color: false).contains("Pour dicter : "))
    }

    @Test func theScreenViewHasMarginsAndWrapsAt78Columns() {
        let long = (0..<30).map { _ in "Léa a nagé." }.joined(separator: " ")
        let s = Self.sheet(long, [Self.site(.homophonesAA, 4, 5, "a", "a", ["à"])])
        for colour in [false, true] {
            for line in s.readAloud(color: colour).split(separator: "\n") {
                #expect(DictationSheet.visibleWidth(String(line)) <= DictationSheet.screenWidth, "\(line)")
                #expect(line.hasPrefix("  "), "\(line)")
            }
        }
        let body = s.readAloud(color: false).components(separatedBy: "\n\n")[2]
        #expect(body.split(separator: "\n").count > 1)
        #expect(body.split(separator: "\n").allSatisfy { $0.hasPrefix("    ") && !$0.hasPrefix("     ") })
        // The words are all there, in order, once the lines are joined again.
        #expect(body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            == s.markedText(color: false))
    }

    @Test func theHeadingSaysWhoseDictationAndItsDay() {
        let s = Self.sheet("Léa nage.", [])
        #expect(s.readAloud(color: false).hasPrefix("  Léa — Dictée sur le moment du samedi 28 novembre\n  La sortie piscine\n"))
        var noDay = s
        noDay.day = ""
        #expect(noDay.readAloud(color: false).hasPrefix("  Léa — Dictée sur le moment du samedi 28 novembre 2026\n"))
    }

    // MARK: colour

    @Test func colourOnlyWhenAskedFor() {
        let s = Self.sheet("Léa a mis son maillot.", [Self.site(.homophonesAA, 4, 5, "a", "a", ["à"])])
        let coloured = s.readAloud(color: true)
        #expect(coloured.contains("Léa [\u{1B}[1;4ma\u{1B}[0m]\u{1B}[36m¹\u{1B}[0m mis son maillot."))
        #expect(coloured.contains("\u{1B}[36m¹\u{1B}[0m a — homophones a / à"))
        #expect(!s.readAloud(color: false).unicodeScalars.contains("\u{1B}"))
        #expect(!s.cleanCopy().unicodeScalars.contains("\u{1B}"))
        #expect(!s.html().unicodeScalars.contains("\u{1B}"))
    }

    @Test func controlCharactersInTheTextNeverReachTheTerminal() {
        let s = Self.sheet(title: "Titre\u{1B}[2J", "Léa\u{1B}]0;x\u{07} a nagé.", [])
        #expect(!s.readAloud(color: false).unicodeScalars.contains("\u{1B}"))
        #expect(!s.cleanCopy().unicodeScalars.contains("\u{1B}"))
        #expect(s.cleanCopy() == "Titre[2J\n\nLéa]0;x a nagé.\n")
    }

    // MARK: clean copy

    @Test func cleanCopyHasNoMark() {
        let s = Self.sheet("Les enfants sont partis.\nLéa a nagé.", [
            Self.site(.plurielNomsSX, 4, 11, "enfants"),
            Self.site(.homophonesSonSont, 12, 16, "sont", "sont", ["son"]),
            Self.site(.homophonesAA, 29, 30, "a", "a", ["à"]),
        ])
        #expect(s.cleanCopy() == "La sortie piscine\n\nLes enfants sont partis.\nLéa a nagé.\n")
        #expect(!s.cleanCopy().contains { "[]¹²³˒—".contains($0) })
    }

    // MARK: HTML

    @Test func htmlEscapesEveryText() {
        let s = Self.sheet(title: "<script>alert('x')</script> & \"co\"",
                           "Un <script>bonjour</script> & l'eau.",
                           [Self.site(.majusculePonctuation, 0, 1, "<U>", "<a>", ["&b"])])
        let h = s.html()
        #expect(h.contains("<title>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;</title>"))
        #expect(h.contains("<h1>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;</h1>"))
        #expect(h.contains("<p>Un &lt;script&gt;bonjour&lt;/script&gt; &amp; l&#39;eau.</p>"))
        #expect(h.contains("<li>&lt;U&gt; — majuscules et ponctuation : « &lt;a&gt; », pas « &amp;b »</li>"))
        #expect(!h.lowercased().contains("<script"))
    }

    @Test func htmlIsAStandalonePrintablePage() {
        let s = Self.sheet("Léa a mis son maillot.\nElle a nagé.", [
            Self.site(.homophonesAA, 4, 5, "a", "a", ["à"]),
            Self.site(.homophonesSonSont, 10, 13, "son", "son", ["sont"]),
            Self.site(.accordSujetVerbe, 10, 13, "son"),
        ])
        // The parent's labels in French, as a French family reads them (English: `lang="en"`).
        let h = Language.$current.withValue(.french) { s.html() }
        #expect(s.html().contains("<section class=\"parent\" lang=\"en\">\n<h2>For the parent: the traps to check</h2>"))
        #expect(h.hasPrefix("<!DOCTYPE html>\n<html lang=\"fr\">"))
        #expect(h.contains("<meta charset=\"utf-8\">"))
        #expect(h.contains("@page { size: A4; margin: 2cm; }"))
        #expect(h.contains("font-size: 20pt"))
        #expect(h.contains("break-before: page; page-break-before: always;"))
        #expect(h.contains("<section class=\"parent\">\n<h2>Pour le parent : les pièges à vérifier</h2>"))
        #expect(h.contains("<p>Léa a mis son maillot.</p>\n<p>Elle a nagé.</p>"))
        #expect(h.contains("<p>Léa <mark>a</mark><sup>1</sup> mis <mark>son</mark><sup>2˒3</sup> maillot.</p>\n<p>Elle a nagé.</p>"))
        #expect(h.contains("<p class=\"meta\">Léa — Dictée sur le moment du samedi 28 novembre · CE1 · la sortie piscine</p>"))
        // Page 1 says whose dictation it is and its date; the parent's part has the mots donnés
        // and how to dictate before the marked text.
        #expect(h.contains("<body>\n<section class=\"enfant\">\n<p class=\"qui\">Léa — Dictée sur le moment du samedi 28 novembre</p>\n<h1>La sortie piscine</h1>"))
        #expect(h.contains("<p class=\"donnes\">Mots donnés : Léa, sortie, piscine</p>\n<p class=\"dicter\">Pour dicter : lire d&#39;abord tout le texte ;"))
        #expect(h.range(of: "class=\"donnes\"")!.lowerBound > h.range(of: "<section class=\"parent\">")!.lowerBound)
        #expect(h.contains("<ol>\n<li>a — homophones a / à : « a », pas « à »</li>\n<li>son — homophones son / sont : « son », pas « sont »</li>\n<li>son — accord sujet-verbe</li>\n</ol>"))
        // The parent's part comes after the child's text.
        let child = h.range(of: "<div class=\"texte\">")!, parent = h.range(of: "<section class=\"parent\">")!
        #expect(child.lowerBound < parent.lowerBound)
        let lower = h.lowercased()
        for outside in ["http", "src=", "<link", "<script", "<img", "url(", "@import", "@font-face", "href", "//"] {
            #expect(!lower.contains(outside), "\(outside)")
        }
    }

    // MARK: no score

    @Test func noScoreAnywhere() throws {
        let fraction = try Regex(#"\d+ ?/ ?\d+"#)
        let sheets = [
            Self.sheet("Léa a mis son grand maillot.", [
                Self.site(.homophonesAA, 4, 5, "a", "a", ["à"]),
                Self.site(.homophonesSonSont, 10, 13, "son", "son", ["sont"]),
                Self.site(.lettresMuettesFinales, 14, 19, "grand"),
                Self.site(.lettresMuettesFinales, 80, 90, "hors"),
            ]),
            Self.sheet("abcdefghijkl", (0..<12).map { Self.site(.accordGNAdjectif, $0, $0 + 1, "x") }),
            Self.sheet("Léa nage.", []),
        ]
        for s in sheets {
            for out in [s.readAloud(color: false), s.readAloud(color: true), s.cleanCopy(), s.html()] {
                #expect(!out.contains("%"))
                #expect(!out.contains(fraction))
                let lower = out.lowercased()
                for word in ["score", "points", "moyenne", "note", "total", "erreurs"] {
                    #expect(!lower.contains(word), "\(word)")
                }
            }
        }
    }
}
