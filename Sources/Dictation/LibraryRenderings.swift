import DicteeCore
import French

/// One library text rendered for one child and one moment, with the plan it must satisfy.
public struct LibraryRendering: Sendable {
    /// The handwritten library text, before rendering.
    public var text: LibraryText
    /// The rendered text (sample child's name and moment phrase filled in), no title.
    public var draft: Draft
    /// The plan the draft must pass: sample child at the text's grade, the moment, the text's
    /// skills as targets.
    public var plan: DictationPlan
}

extension Library {
    /// The children every library text is proven for: both genders, and names that start with a
    /// consonant, a vowel (Inès: "d'Inès") and a mute h (Hugo: "d'Hugo").
    public static let sampleChildren: [(firstName: String, gender: Gender)] = [
        ("Léa", .feminine), ("Inès", .feminine), ("Tom", .masculine), ("Hugo", .masculine),
    ]

    /// The friend's name used for phrases with a name slot ("l'anniversaire de Jules").
    public static let sampleFriend = "Jules"

    /// The names a slot phrase is proven with: a consonant and a vowel after `de` ("de Jules",
    /// "d'Inès"), a name and a family word after `chez` ("chez Jules", "chez mamie").
    /// - Parameters:
    ///   - slot: the phrase's name slot: `de`, `chez` or `nil`.
    /// - Returns: two names for `de` or `chez`; empty for any other slot.
    public static func sampleFriends(slot: String?) -> [String] {
        switch slot {
        case "de": ["Jules", "Inès"]
        case "chez": ["Jules", "mamie"]
        default: []
        }
    }

    /// Parents' labels the library is proven with (`LabelPhrase` reads them so: a test checks
    /// it): masculine, feminine, plural and elided articles, a family word, a feast's name (a festival: the general texts), a party. Each
    /// fits the texts of its kind and the `general` texts (`kinds(of:)`).
    public static let sampleLabels: [MomentPhrase] = [
        MomentPhrase(phrase: "le dîner chez Mamie", grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "dîner"),
                     friendName: "Mamie", kind: "repas"),
        MomentPhrase(phrase: "la fête des Lumières", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "fête"), kind: "general"),
        MomentPhrase(phrase: "la fête des voisins", grammar: PhraseGrammar(gender: .feminine, number: .singular, headNoun: "fête"), kind: "fete"),
        MomentPhrase(phrase: "les vacances au ski", grammar: PhraseGrammar(gender: .feminine, number: .plural, headNoun: "vacances"), kind: "sejour"),
        MomentPhrase(phrase: "l'atelier de poterie", grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "atelier"), kind: "activite"),
        MomentPhrase(phrase: "le solfège", grammar: PhraseGrammar(gender: .masculine, number: .singular, headNoun: "solfège"), kind: "musique"),
        MomentPhrase(phrase: "les jeux au jardin", grammar: PhraseGrammar(gender: .masculine, number: .plural, headNoun: "jeux"), kind: "general"),
    ]

    /// The day the library's proof writes its texts: Tuesday 1 December 2026.
    public static let sampleWritingDay = CalendarDate(year: 2026, month: 12, day: 1)

    /// The dates a text told at `time` is proven with, seen from `sampleWritingDay`: every form
    /// of `{quand}` ("samedi dernier" 3 days back, "samedi" 4 ahead, "mercredi" 3 days back
    /// within the same week (seen from Saturday 5 December), "samedi 21 novembre", "aujourd'hui",
    /// "hier", "avant-hier", "demain", "après-demain", "mardi prochain", "jeudi 10 décembre") and a moment of several days going on (begun "avant-hier"); the
    /// sample children take them in turn, so that each phrase is proven with each. A `past` text gets past dates, a `coming` one upcoming
    /// dates, an `any` text both (the near and the far forms).
    public static func sampleDates(for time: TextTime) -> [MomentDate] {
        let w = sampleWritingDay
        func date(_ offset: Int, _ t: MomentTime, days: Int = 0) -> MomentDate {
            MomentDate(start: w.adding(days: offset), end: w.adding(days: offset + days), written: w, time: t)
        }
        // Earlier the same week, seen from Saturday 5 December: Wednesday 2 is "mercredi".
        let sameWeek = MomentDate(start: w.adding(days: 1), end: w.adding(days: 1), written: w.adding(days: 4), time: .past)
        let past = [date(-3, .past), date(-10, .past), date(0, .past), date(-2, .past, days: 4), date(-1, .past), sameWeek]
        let coming = [date(4, .upcoming), date(9, .upcoming), date(0, .upcoming), date(1, .upcoming), date(2, .upcoming), date(7, .upcoming)]
        switch time {
        case .past: return past
        case .coming: return coming
        case .any: return [past[0], coming[1], past[1], coming[0], past[4], coming[4]]
        }
    }

    /// Every rendering the library must get right: each text, for each sample child (at the
    /// text's grade), for each canonical phrase that fits the text's kinds, and for phrases with
    /// a name slot both without and with a friend's name; and for each label of `labels` that
    /// fits the text (its kind, and `general`).
    /// - Parameters:
    ///   - phrases: the whitelist's canonical phrases with their grammar and name slot (`de`,
    ///     `chez` or `nil`).
    ///   - sitesPerTarget: trap sites required per skill of the text.
    /// - Returns: one rendering per text, moment and sample child, in text order; a child is never
    ///   paired with a friend slot holding its own name. For each phrase, the sample children
    ///   take the dates of `sampleDates(for:)` in turn, so that every day form is proven with
    ///   every phrase.
    /// - Throws: a `LibraryError` when a text cannot be rendered.
    ///   - labels: parents' labels with their kinds (`sampleLabels`).
    public func renderings(phrases: [(phrase: String, grammar: PhraseGrammar, slot: String?)], labels: [MomentPhrase] = [],
                           sitesPerTarget: Int = 2) throws -> [LibraryRendering]
    {
        var moments: [(MomentPhrase, Set<String>)] = []
        for p in phrases {
            let kinds = fittingKinds(of: p.phrase)
            moments.append((MomentPhrase(phrase: p.phrase, grammar: p.grammar), kinds))
            // As the privacy filter renders captured names: "de Jules", "d'Inès" (elision),
            // "chez Jules", "chez mamie".
            for friend in Library.sampleFriends(slot: p.slot) {
                let joined = p.slot == "de" && LibraryText.elides(before: friend) ? "\(p.phrase) d'\(friend)" : "\(p.phrase) \(p.slot!) \(friend)"
                moments.append((MomentPhrase(phrase: joined, grammar: p.grammar, friendName: friend), kinds))
            }
        }
        for label in labels { moments.append((label, kinds(of: label))) }
        var out: [LibraryRendering] = []
        for text in texts {
            let dates = Library.sampleDates(for: text.time).filter { !(text.tellsEnd && $0.isGoingOn) }
            for (moment, kinds) in moments where text.fits(kinds) {
                // Each phrase with every day form and every sample child: they take the dates in
                // turn. The child's own birthday is not "l'anniversaire d'Inès" in a text for
                // Inès: a plan never pairs a child with a friend slot holding the child's own name.
                let children = Library.sampleChildren.filter { moment.friendName != $0.firstName }
                for turn in 0..<max(children.count, dates.count) {
                    let (name, gender) = children[turn % children.count]
                    let child = Child(firstName: name, gender: gender, grade: text.grade)
                    let date = dates[turn % dates.count]
                    let rendered = try text.render(firstName: name, gender: gender, moment: moment, date: date)
                    var plan = DictationPlan(child: child, moment: moment, targets: text.skills, sitesPerTarget: sitesPerTarget)
                    plan.date = date
                    out.append(LibraryRendering(text: text, draft: Draft(text: rendered), plan: plan))
                }
            }
        }
        return out
    }
}
