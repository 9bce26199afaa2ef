import Dictation
import DicteeCore
import Foundation

/// The French instructions and prompts for one dictation of a plan (README, "What the model is
/// told"): the grade, the target skills with what they mean, the word and sentence ranges, the
/// moment's canonical phrase, and the child's first name with the gender already resolved. Nothing
/// else from the calendar, ever: the moment arrives as its canonical phrase (in the audit file).
public enum Instructions {
    /// Parts a retry may leave out when the model refuses (a diagnosis of what triggered it).
    public typealias Removal = PromptRemoval

    /// Tokens per word the completion budget allows (French with small BPE vocabularies: about
    /// 1.5 to 2.5; 3 is generous), plus the JSON and the title.
    public static let tokensPerWord = 3
    public static let answerOverheadTokens = 60

    /// The completion budget for a plan, in tokens: the plan's maximum words × 3, plus 60 for the
    /// title and the JSON, plus 8 per sentence.
    public static func maxTokens(for plan: DictationPlan) -> Int {
        plan.words.upperBound * tokensPerWord + answerOverheadTokens + 8 * plan.sentences.upperBound
    }

    /// Everything of a plan that a request to a model may carry, and nothing else: the system
    /// message and the prompts are written from these fields only (`system(for:)` and
    /// `prompt(for:time:)` reduce the plan to them first). `dictee privacy` lists `contents`,
    /// so what it says a request contains is this type, not a second description.
    public struct Inputs: Sendable, Hashable {
        /// The child's first name (the audit file lists it with each moment).
        public var firstName: String
        /// The child's gender, to resolve agreements ("Léa est partie").
        public var gender: Gender
        /// The child's grade (CP to CM2).
        public var grade: Grade
        /// The target skills (ids and labels from the fifteen skills), with their trap sites per skill.
        public var targets: [SkillID]
        public var sitesPerTarget: Int
        /// Word and sentence ranges, and the longest sentence, in words.
        public var words: ClosedRange<Int>
        public var sentences: ClosedRange<Int>
        public var maxWordsPerSentence: Int
        /// The moment's canonical phrase, as listed in the audit file ("la sortie piscine").
        public var momentPhrase: String
        /// The moment's day seen from the writing day ("samedi", "avant-hier", "samedi dernier", "le samedi
        /// 14 novembre": `MomentDate.dayPhrase`), and whether it has begun; `nil` without a date.
        public var day: String?
        public var time: MomentTime?

        /// The inputs of a plan.
        public init(_ plan: DictationPlan) {
            firstName = plan.child.firstName
            gender = plan.child.gender
            grade = plan.grade
            targets = plan.targets
            sitesPerTarget = plan.sitesPerTarget
            words = plan.words
            sentences = plan.sentences
            maxWordsPerSentence = plan.maxWordsPerSentence
            momentPhrase = plan.moment.phrase
            day = plan.date?.dayPhrase
            time = plan.date?.time
        }

        /// What a request contains, one entry per stored property above (a test checks that the
        /// two lists agree), in English, plus the instructions dictee writes itself.
        public static let contents: [(field: String, description: String)] = [
            ("instructions", "the instructions (French, written by dictee)"),
            ("firstName", "the child's first name"),
            ("gender", "the child's gender"),
            ("grade", "the child's grade"),
            ("targets", "the target skills"),
            ("sitesPerTarget", "the trap sites per target skill"),
            ("words", "the word range"),
            ("sentences", "the sentence range"),
            ("maxWordsPerSentence", "the longest sentence allowed"),
            ("momentPhrase", "the moment's canonical phrase (as listed in the audit file)"),
            ("day", "the moment's day seen from the writing day ('hier', 'avant-hier', 'samedi', 'samedi dernier'; the day of the month when more than a week away), no hour"),
            ("time", "whether the moment has begun"),
        ]
    }

    /// The system message.
    /// - Parameters:
    ///   - plan: the dictation's plan (reduced to `Inputs` first).
    ///   - removing: parts left out (a refusal diagnosis).
    public static func system(for plan: DictationPlan, removing: Set<Removal> = []) -> String {
        system(Inputs(plan), removing: removing)
    }

    /// The system message from the inputs alone.
    public static func system(_ plan: Inputs, removing: Set<Removal> = []) -> String {
        let norms = GradeNorms.of(plan.grade)
        let name = plan.firstName
        let girl = plan.gender == .feminine
        let tenses = SchoolTense.allCases.filter { norms.tenses.contains($0) }.map(\.rawValue)
        var rules: [String] = [
            "Le texte compte entre \(plan.words.lowerBound) et \(plan.words.upperBound) mots en tout, en \(plan.sentences.lowerBound) à \(plan.sentences.upperBound) phrases ; aucune phrase ne dépasse \(plan.maxWordsPerSentence) mots.",
            "Temps permis : \(list(tenses)) ; aucun autre temps.",
            "Des mots simples et courants, connus d'un élève de \(plan.grade.rawValue).",
            "Chaque phrase commence par une majuscule et finit par un point, un point d'exclamation ou un point d'interrogation.",
            "Le personnage principal est \(name), \(girl ? "une fille" : "un garçon") : écris toujours « \(name) » (jamais un autre nom ni un espace réservé) et accorde au \(girl ? "féminin" : "masculin") (« \(name) est \(girl ? "partie" : "parti") », « \(girl ? "elle" : "il") est \(girl ? "contente" : "content") »).",
        ]
        if norms.restrictsVerbsToFirstGroup {
            rules.append("Les seuls verbes conjugués sont être, avoir, aller et des verbes en -er.")
        }
        if !removing.contains(.contentRule) {
            rules.append("Le texte est joyeux et bienveillant : ni violence, ni mort, ni maladie, ni corps, ni gros mot, ni alcool, ni tabac, ni drogue, ni argent, ni dispute.")
        }
        if !plan.targets.isEmpty {
            let skills = plan.targets.map { "« \($0.label) » : au moins \(plan.sitesPerTarget) fois \(Validator.hint($0, grade: plan.grade))" }
            rules.append("Fais travailler ces points d'orthographe : " + skills.joined(separator: " ; ") + ".")
        }
        return """
            Tu écris une courte dictée en français pour un enfant de \(plan.grade.rawValue) (école primaire).
            Réponds uniquement par un objet JSON de la forme {"titre": "…", "phrases": ["…", "…"]} : \
            un titre d'au plus 60 caractères, puis les phrases de la dictée dans l'ordre, une phrase \
            par élément du tableau, \(plan.sentences.lowerBound) à \(plan.sentences.upperBound) éléments (jamais plus de 12).
            Règles :
            \(rules.map { "- " + $0 }.joined(separator: "\n"))
            """
    }

    /// The first prompt (the user message).
    /// - Parameters:
    ///   - plan: the dictation's plan (its moment's canonical phrase is the only calendar content).
    ///   - removing: parts left out (a refusal diagnosis).
    public static func prompt(for plan: DictationPlan, removing: Set<Removal> = []) -> String {
        prompt(Inputs(plan), removing: removing)
    }

    /// The first prompt from the inputs alone.
    public static func prompt(_ plan: Inputs, removing: Set<Removal> = []) -> String {
        let name = plan.firstName
        if removing.contains(.moment) {
            return "Écris la dictée : une journée ordinaire de \(name)."
        }
        let when: String
        // "C'était samedi ; ne nomme aucun autre jour, ni « hier » ni « aujourd'hui » ni
        // « demain »." — the relative days other than the moment's own.
        let day = plan.day.map { d in
            let others = ["hier", "aujourd'hui", "demain"].filter { $0 != d }.map { "« \($0) »" }.joined(separator: " ni ")
            return " \(plan.time == .past ? "C'était" : "C'est") \(d) ; ne nomme aucun autre jour, ni \(others)."
        } ?? ""
        switch plan.time {
        case .past?: when = " Ce moment a déjà eu lieu : raconte-le au passé." + day
        case .upcoming?: when = " Ce moment va bientôt avoir lieu : raconte ce qui se prépare." + day
        case nil: when = ""
        }
        return "Écris la dictée sur ce moment de la vie de \(name) : « \(plan.momentPhrase) ». Écris « \(plan.momentPhrase) » tel quel dans le texte (avec « au », « aux », « du » ou « des » si la phrase le demande).\(when)"
    }

    /// What a retry's prompt adds to the inputs, described for `dictee privacy`.
    public static let retryContents = [
        "on a retry, the model's previous answer and the validator's French sentences about it",
    ]

    /// The most validator sentences one retry tells: a small model repairs a few points at a
    /// time (a 135M model given eight or nine at once kept none), and each sentence is tens of
    /// tokens the model must read before it writes; the next attempt's findings bring the rest.
    public static let maximumFeedbackSentences = 4

    /// A retry's second user message, after the first prompt and the model's previous answer
    /// (its own turn of the conversation, `ModelRequest.previousAnswer`): the validator's French
    /// sentences, or what went wrong with the answer itself, each once (the validator may say the
    /// same sentence for several places, e.g. one Grammalecte finding per repeated word), in the
    /// validator's order (its steps: vocabulary and tense before spelling), at most
    /// `maximumFeedbackSentences`.
    public static func feedback(_ problems: [String]) -> String {
        var seen = Set<String>()
        let distinct = problems.filter { seen.insert($0).inserted }
        let told = distinct.prefix(maximumFeedbackSentences)
        var text = "Ta réponse ne convient pas :\n" + told.map { "- " + $0 }.joined(separator: "\n")
        if distinct.count > told.count { text += "\n(Corrige d'abord ces points.)" }
        return text + "\nÉcris une nouvelle réponse qui corrige ces points et respecte toutes les règles."
    }

    /// The feedback of a runaway (the budget ran out, or the attempt's timeout).
    public static func runaway(_ plan: DictationPlan) -> String {
        "Le texte était beaucoup trop long et n'a pas été terminé : écris au plus \(plan.sentences.upperBound) phrases et \(plan.words.upperBound) mots en tout, puis ferme l'objet JSON."
    }

    /// The feedback of an answer that is not the JSON object asked for.
    public static let notJSON = "La réponse n'était pas un objet JSON de la forme {\"titre\": \"…\", \"phrases\": [\"…\"]}."

    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " et " + items.last!
    }
}
