import DicteeCore
import French

/// The tenses a dictation may use, by grade (Docs/domain.md §2, from the 2008/2015
/// programmes and class plans; proposed defaults).
public enum SchoolTense: String, CaseIterable, Sendable, Hashable {
    case present = "présent"
    case futur = "futur"
    case passeComposeAvoir = "passé composé avec avoir"
    case imparfait = "imparfait"
    case passeComposeEtre = "passé composé avec être"
    case passeSimple = "passé simple"
    case imperatif = "impératif"
    case plusQueParfait = "plus-que-parfait"
    case conditionnel = "conditionnel présent"
    /// Never taught in primary school dictations (subjonctif, futur antérieur, passé antérieur,
    /// conditionnel passé, passé simple at the 1st/2nd person).
    case other = "un temps non étudié à l'école primaire"

    /// The name after "au"/"à l'": "au présent", "à l'imparfait".
    public var withPreposition: String {
        switch self {
        case .imparfait, .imperatif: "à l'" + rawValue
        case .other: "à " + rawValue
        default: "au " + rawValue
        }
    }
}

/// What Docs/domain.md §2 proposes for a grade: tenses, length, sentence sizes, and the vocabulary band.
public struct GradeNorms: Sendable, Hashable {
    /// The grade these norms are for.
    public var grade: Grade
    /// Total words (the word count of Docs/domain.md §2: elided forms count, hyphenated words once).
    public var words: ClosedRange<Int>
    /// Number of sentences, e.g. 4...6 in CE2 (Docs/domain.md §2).
    public var sentences: ClosedRange<Int>
    /// The longest sentence allowed, in words.
    public var maxWordsPerSentence: Int
    /// The tenses taught by this grade, cumulative (CP: présent only; Docs/domain.md §2).
    public var tenses: Set<SchoolTense>
    /// CP only: finite verbs must be être, avoir, aller or a first-group (-er) verb.
    public var restrictsVerbsToFirstGroup: Bool
    /// The lowest lemma frequency (occurrences per million words, Lexique 3.83, max of books and
    /// films) of a word that is not a "mot donné". A proposal standing in for Manulex and the
    /// Dubois-Buyse scale, which no package here ships (Docs/domain.md §3): CP 20, CE1 8, CE2 3, CM1 2,
    /// CM2 1.5. Adult corpora underrate children's words (toboggan 1.7, trottinette 0.8), hence
    /// the "mots de l'enfance" of `Resources/mots-donnes.txt`, allowed at every grade.
    public var minimumLemmaFrequency: Float

    /// The norms of `grade`.
    /// - Parameters:
    ///   - grade: CP to CM2.
    /// - Returns: Docs/domain.md §2's table row for `grade` (e.g. CE2: 40...65 words, 4...6 sentences,
    ///   at most 14 words per sentence) and its frequency band.
    public static func of(_ grade: Grade) -> GradeNorms {
        switch grade {
        case .cp:
            GradeNorms(grade: grade, words: 10...25, sentences: 1...3, maxWordsPerSentence: 8,
                       tenses: [.present], restrictsVerbsToFirstGroup: true, minimumLemmaFrequency: 20)
        case .ce1:
            GradeNorms(grade: grade, words: 20...40, sentences: 2...4, maxWordsPerSentence: 10,
                       tenses: [.present, .futur, .passeComposeAvoir], restrictsVerbsToFirstGroup: false,
                       minimumLemmaFrequency: 8)
        case .ce2:
            GradeNorms(grade: grade, words: 40...65, sentences: 4...6, maxWordsPerSentence: 14,
                       tenses: [.present, .futur, .passeComposeAvoir, .imparfait, .passeComposeEtre],
                       restrictsVerbsToFirstGroup: false, minimumLemmaFrequency: 3)
        case .cm1:
            GradeNorms(grade: grade, words: 55...80, sentences: 5...7, maxWordsPerSentence: 16,
                       tenses: [.present, .futur, .passeComposeAvoir, .imparfait, .passeComposeEtre, .passeSimple, .imperatif],
                       restrictsVerbsToFirstGroup: false, minimumLemmaFrequency: 2)
        case .cm2:
            GradeNorms(grade: grade, words: 65...100, sentences: 6...9, maxWordsPerSentence: 18,
                       tenses: [.present, .futur, .passeComposeAvoir, .imparfait, .passeComposeEtre, .passeSimple, .imperatif,
                                .plusQueParfait, .conditionnel],
                       restrictsVerbsToFirstGroup: false, minimumLemmaFrequency: 1.5)
        }
    }

    /// Docs/domain.md §2: no generated text has more than 12 sentences, whatever the grade.
    public static let sentenceCap = 12
}

/// What the next dictation of a child must be: the value the planner produces, the generation
/// consumes and the validator checks against.
public struct DictationPlan: Sendable, Hashable {
    /// The child: first name (a "mot donné"), gender (agreements), grade.
    public var child: Child
    /// The moment the text is about, as its canonical phrase (with a friend's name if any).
    public var moment: MomentPhrase
    /// Target skills (at most 3 in plans made by the planner).
    public var targets: [SkillID]
    /// Total words wanted.
    public var words: ClosedRange<Int>
    /// Sentences wanted (never more than `GradeNorms.sentenceCap`).
    public var sentences: ClosedRange<Int>
    /// Longest sentence allowed, in words.
    public var maxWordsPerSentence: Int
    /// Trap sites required per target skill.
    public var sitesPerTarget: Int
    /// Words given to the child before the dictation besides the moment's and the name (the
    /// family words of `Vocabulary.familyWords` are always given).
    public var givenWords: [String]
    /// Trap sites wanted per sentence, all targets together (the planner's density; 1.0 for a
    /// first text). `sitesPerTarget` is derived from it by the planner.
    public var density: Double = 1.0
    /// The word count aimed at (the planner's aim, inside `words`; the middle of `words` unless
    /// the planner set it). Recorded with the dictation so that the next plan follows from it.
    public var aimWords: Double?
    /// When the moment is, seen from the day the text is written: the day the text may name and
    /// the tense that tells it (validator rule `moment_date`). `nil` when no date is known (a
    /// text checked with `dictee check` without `--date`): nothing about days is checked.
    public var date: MomentDate?

    /// `aimWords`, else the middle of `words`.
    public var aimedWords: Double { aimWords ?? Double(words.lowerBound + words.upperBound) / 2 }

    /// The child's grade.
    public var grade: Grade { child.grade }

    /// A plan with the grade's defaults (Docs/domain.md §2): the whole word and sentence ranges, the
    /// grade's longest sentence, 2 trap sites per target.
    /// - Parameters:
    ///   - child: the child the text is for.
    ///   - moment: the moment the text is about.
    ///   - targets: the skills to practise.
    ///   - sitesPerTarget: trap sites required per target skill.
    ///   - givenWords: extra "mots donnés".
    public init(child: Child, moment: MomentPhrase, targets: [SkillID], sitesPerTarget: Int = 2, givenWords: [String] = []) {
        let norms = GradeNorms.of(child.grade)
        self.init(child: child, moment: moment, targets: targets, words: norms.words, sentences: norms.sentences,
                  maxWordsPerSentence: norms.maxWordsPerSentence, sitesPerTarget: sitesPerTarget, givenWords: givenWords)
    }

    /// A plan with explicit lengths.
    /// - Parameters:
    ///   - child: the child the text is for.
    ///   - moment: the moment the text is about.
    ///   - targets: the skills to practise.
    ///   - words: total words wanted (Docs/domain.md §2 word count).
    ///   - sentences: sentences wanted; both bounds are capped at `GradeNorms.sentenceCap` (12).
    ///   - maxWordsPerSentence: the longest sentence allowed, in words.
    ///   - sitesPerTarget: trap sites required per target skill.
    ///   - givenWords: extra "mots donnés".
    public init(child: Child, moment: MomentPhrase, targets: [SkillID], words: ClosedRange<Int>, sentences: ClosedRange<Int>,
                maxWordsPerSentence: Int, sitesPerTarget: Int, givenWords: [String] = []) {
        self.child = child
        self.moment = moment
        self.targets = targets
        self.words = words
        let upper = min(sentences.upperBound, GradeNorms.sentenceCap)
        self.sentences = min(sentences.lowerBound, upper)...upper
        self.maxWordsPerSentence = maxWordsPerSentence
        self.sitesPerTarget = sitesPerTarget
        self.givenWords = givenWords
    }
}
