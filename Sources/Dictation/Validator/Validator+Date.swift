import DicteeCore
import Foundation
import French

// Step 7, moment (rule moment_date): the days and tenses of the text agree with the
// occurrence's date seen from the day the text is written (`DictationPlan.date`). A child knows
// the lesson was on Saturday.

extension Validator {
    /// The findings of rule `moment_date` (none without `plan.date`):
    /// - a weekday written out must be one of the moment's days ("dimanche" for a Saturday
    ///   lesson is refused); "samedi dernier" needs a moment 1 to 7 days before the writing day,
    ///   "samedi prochain" 1 to 13 days after, "ce samedi" at most 6 days away; a day of the
    ///   month after the weekday ("le samedi 14 novembre") and a month name must be the moment's;
    /// - relative days: "aujourd'hui", "ce matin", "ce soir", "cet après-midi", "cette nuit" the
    ///   writing day (or a moment of several days going on), "hier" the day before, "avant-hier"
    ///   two days before, "demain" the day after, "après-demain" two days after (about a past
    ///   moment, both are free in a sentence in the futur: a later day), "la semaine
    ///   dernière/prochaine" 1 to 13 days away, "ce week-end" a Saturday or Sunday at most 6 days
    ///   away, "le week-end dernier" one 1 to 9 days before, "le week-end prochain" 1 to 13 days
    ///   after, "cette semaine" the writing day's week (Monday to Sunday), "tout à l'heure" the
    ///   writing day; a weekday alone ("samedi", not "samedi dernier" nor "samedi 21 novembre")
    ///   at most a week away (alone, it is the nearest one); "l'an dernier", "l'année prochaine", "il y a longtemps" never (a card's moment is
    ///   within weeks); "il y a trois jours", "dans une semaine" the moment's distance (a week 5
    ///   to 9 days); "la veille", "le lendemain" are free (days inside the story), and so is what
    ///   follows "depuis" ("depuis la semaine dernière, elle s'entraîne": since, not when);
    /// - a day of the month with its month ("le 29 novembre") must be one of the moment's days;
    ///   "à Noël", "le jour de Noël", "Pour Noël," only for a moment from 18 to 31 December;
    /// - a season ("l'hiver", "en été", "cet automne") must be the moment's (`MomentDate.seasons`);
    /// - tenses: about a past moment, neither the first sentence with a verb nor most of them
    ///   only in the futur, and from CE1 at least one verb in a past tense when the text names a
    ///   day ("samedi dernier, Léa va au judo" is refused, "Léa aime le judo" is not); about an upcoming
    ///   moment, neither the first nor most of them only in past tenses.
    func dateFindings(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        guard let date = plan.date else { return [] }
        let t = a.tagged
        let words = t.indices.filter { t[$0].token.kind != .punctuation }
        func word(_ k: Int) -> String? { k >= 0 && k < words.count ? t[words[k]].normalized : nil }
        let full = date.datedPhrase
        // "Le moment a eu lieu samedi dernier (samedi 28 novembre)"; a far date is said once.
        let day = date.dayPhrase == full ? full : "\(date.dayPhrase) (\(full))"
        let when = date.time == .past ? "Le moment a eu lieu \(day)" : "Le moment aura lieu \(day)"
        var out: [Finding] = []
        // Whether the text places itself in time (a weekday, a month, a relative day): then it
        // must tell a past moment in a past tense.
        var placed = false
        let relative: Set<String> = ["aujourd'hui", "hier", "avant-hier", "demain", "après-demain", "dernier", "dernière", "prochain", "prochaine"]
        func refuse(_ what: String, _ why: String) {
            guard !out.contains(where: { $0.message.contains("« \(what) »") }) else { return }
            out.append(Finding(step: .moment, rule: "moment_date", message: "\(when) : n'écris pas « \(shown(what)) », \(why)."))
        }
        let o = date.offset
        // "Samedi, Léa a nagé… Demain, elle racontera tout à sa classe.": about a past moment,
        // "demain" in a sentence in the futur is a later day, not the moment's.
        let verbs = tenses(in: a)
        func laterInAPastStory(_ index: Int) -> Bool {
            guard date.time == .past, let s = a.text.sentenceIndex(ofToken: index) else { return false }
            return verbs.contains { a.text.sentenceIndex(ofToken: $0.index) == s && $0.tenses == [.futur] }
        }
        var allowedDays = Set(date.days.map(MomentDate.weekday(of:)))
        // A week-end is its Saturday and its Sunday, whatever day the calendar gave it.
        if phraseWords(plan.moment.phrase).contains("week-end"), ["vendredi", "samedi", "dimanche"].contains(date.weekday) {
            allowedDays.formUnion(["samedi", "dimanche"])
        }
        let months = Set(date.days.map(MomentDate.month(of:)))
        // "Depuis septembre", "depuis la semaine dernière", "depuis hier", "depuis lundi": since
        // when something goes on, not when the moment is; the three words after "depuis" are
        // not read as the moment's day.
        let since = Set(words.indices.filter { word($0) == "depuis" }.flatMap { ($0 + 1)...($0 + 3) })
        for k in words.indices where !since.contains(k) {
            guard let w = word(k) else { continue }
            let text = t[words[k]].token.text
            let singular = w.hasSuffix("s") ? String(w.dropLast()) : w
            if FrenchWords.days.contains(singular) || FrenchWords.months.contains(w) || relative.contains(w) { placed = true }
            if FrenchWords.days.contains(singular) {
                let next = word(k + 1), previous = word(k - 1)
                if !allowedDays.contains(singular) {
                    refuse(text, "ce n'est pas le jour du moment (écris « \(date.weekday) »)")
                } else if next == "dernier", !(-7 ... -1).contains(o) {
                    refuse(text + " dernier", "écris « \(date.dayPhrase) »")
                } else if next == "prochain", !(1...13).contains(o) {
                    refuse(text + " prochain", "écris « \(date.dayPhrase) »")
                } else if ["ce", "cet"].contains(previous), abs(o) > 6, !date.isGoingOn {
                    refuse("ce " + text, "écris « \(date.dayPhrase) »")
                } else if let n = next.flatMap({ Int($0) ?? ($0 == "1er" ? 1 : nil) }), n != date.start.day {
                    refuse(text + " \(n)", "écris « \(full) »")
                } else if w == singular, next.flatMap({ Int($0) ?? ($0 == "1er" ? 1 : nil) }) == nil, !["ce", "cet"].contains(previous ?? ""),
                          !date.isGoingOn,
                          case let named = date.days.filter({ MomentDate.weekday(of: $0) == singular }), !named.isEmpty,
                          named.allSatisfy({ abs($0.daysSinceEpoch - date.written.daysSinceEpoch) > 7 }) {
                    // "Samedi" alone is the nearest Saturday (or a week from today): further
                    // away, the child reads another day.
                    refuse(text, "« \(singular) » seul, c'est le \(singular) le plus proche ; écris « \(date.dayPhrase) »")
                }
                continue
            }
            if FrenchWords.months.contains(w), !months.contains(w) {
                refuse(text, "ce n'est pas le mois du moment")
                continue
            }
            // A day of the month with its month, with or without the weekday: "le 29 novembre"
            // must be one of the moment's days.
            if let n = Int(w) ?? (w == "1er" ? 1 : nil), let m = word(k + 1), let month = Validator.monthNumber(m),
               FrenchWords.days.contains(word(k - 1) ?? "") == false,
               !date.days.contains(where: { $0.day == n && $0.month == month }) {
                refuse("\(text) \(t[words[k + 1]].token.text)", "ce n'est pas le jour du moment (écris « \(full) »)")
                continue
            }
            // "il y a une semaine", "il y a trois jours", "dans deux jours": the distance must be
            // the moment's (a week is 5 to 9 days; "quelques jours" 2 to 6).
            if (w == "a" && word(k - 1) == "y" && word(k - 2) == "il") || w == "dans",
               let amount = word(k + 1), let unit = word(k + 2), ["jour", "jours", "semaine", "semaines", "mois"].contains(unit) {
                let ago = w == "a"
                let distances = date.days.map { ago ? -($0.daysSinceEpoch - date.written.daysSinceEpoch) : $0.daysSinceEpoch - date.written.daysSinceEpoch }
                let said = ago ? "il y a \(amount) \(unit)" : "dans \(amount) \(unit)"
                let fits: Bool
                if amount == "quelques" {
                    fits = unit.hasPrefix("jour") ? distances.contains { (2...6).contains($0) } : distances.contains { (10...35).contains($0) }
                } else if let count = Validator.smallNumbers[amount] ?? Int(amount) {
                    switch unit {
                    case "jour", "jours": fits = distances.contains(count)
                    case "semaine", "semaines": fits = distances.contains { abs($0 - 7 * count) <= 2 }
                    default: fits = distances.contains { abs($0 - 30 * count) <= 5 }
                    }
                } else {
                    fits = true
                }
                if !fits { refuse(said, "écris « \(date.dayPhrase) »") }
            }
            // Christmas as the moment's time ("à Noël", "le jour de Noël", "Pour Noël, …" at the
            // start of a clause) only for a moment between 18 and 31 December; "un chant de
            // Noël", "le marché de Noël", "une carte pour Noël" speak of it, not of the day.
            if ["noël", "noel"].contains(w) {
                let christmas = date.days.contains { $0.month == 12 && (18...31).contains($0.day) }
                let previous = word(k - 1) ?? ""
                // "Pour" opening a clause: the first word, or after punctuation.
                let atStart = k > 0 && (words[k - 1] == 0 || t[words[k - 1] - 1].token.kind == .punctuation)
                let timed = previous == "à" || (previous == "de" && ["jour", "nuit", "soir", "matin", "veille", "lendemain"].contains(word(k - 2) ?? ""))
                    || (previous == "pour" && atStart)
                if timed, !christmas {
                    let phrase = previous == "de" ? "\(word(k - 2) ?? "") de Noël" : "\(previous) Noël"
                    refuse(phrase, "le moment n'a pas lieu à Noël (écris « \(date.dayPhrase) »)")
                }
            }
            let pair = word(k + 1).map { w + " " + $0 }
            switch w {
            case "aujourd'hui" where o != 0 && !date.isGoingOn:
                refuse(text, "ce n'est pas le jour où la dictée est écrite (écris « \(date.dayPhrase) »)")
            case "hier" where o != -1 && !(date.isGoingOn && date.start.daysSinceEpoch <= date.written.daysSinceEpoch - 1):
                refuse(text, "écris « \(date.dayPhrase) »")
            case "avant-hier" where o != -2:
                refuse(text, "écris « \(date.dayPhrase) »")
            case "demain" where o != 1 && !laterInAPastStory(words[k]):
                refuse(text, "écris « \(date.dayPhrase) »")
            case "après-demain" where o != 2 && !laterInAPastStory(words[k]):
                refuse(text, "écris « \(date.dayPhrase) »")
            default: break
            }
            switch pair {
            case "ce matin", "ce soir", "cet après-midi", "cette nuit", "cette matinée", "cette soirée":
                if o != 0, !date.isGoingOn { refuse(pair!, "ce n'est pas le jour où la dictée est écrite (écris « \(date.dayPhrase) »)") }
            case "semaine dernière":
                if !(-13 ... -1).contains(o) { refuse("la semaine dernière", "écris « \(date.dayPhrase) »") }
            case "semaine prochaine":
                if !(1...13).contains(o) { refuse("la semaine prochaine", "écris « \(date.dayPhrase) »") }
            case "ce week-end":
                if !["samedi", "dimanche"].contains(date.weekday) || abs(o) > 6 { refuse("ce week-end", "écris « \(date.dayPhrase) »") }
            case "week-end dernier":
                if !["samedi", "dimanche"].contains(date.weekday) || !(-9 ... -1).contains(o) { refuse("le week-end dernier", "écris « \(date.dayPhrase) »") }
            case "week-end prochain":
                if !["samedi", "dimanche"].contains(date.weekday) || !(1...13).contains(o) { refuse("le week-end prochain", "écris « \(date.dayPhrase) »") }
            case "cette semaine":
                // The same week, Monday to Sunday, when it opens a sentence or a clause (the time
                // of what follows); "elle a beaucoup travaillé cette semaine" is another time.
                let opens = k == 0 || (words[k] > 0 && t[words[k] - 1].token.kind == .punctuation)
                if opens, !date.isGoingOn, !(0...6).contains(MomentDate.mondayIndex(of: date.written) + o) {
                    refuse("cette semaine", "écris « \(date.dayPhrase) »")
                }
            case "tout à":
                if word(k + 2) == "l'", word(k + 3) == "heure", o != 0, !date.isGoingOn {
                    refuse("tout à l'heure", "ce n'est pas le jour où la dictée est écrite (écris « \(date.dayPhrase) »)")
                }
            case "an dernier", "année dernière", "an prochain", "année prochaine", "il y":
                if pair == "il y", word(k + 2) == "a", word(k + 3) == "longtemps" {
                    refuse("il y a longtemps", "le moment est tout proche (écris « \(date.dayPhrase) »)")
                } else if pair != "il y", word(k - 1) == "l'" {
                    refuse("l'" + pair!, "le moment est tout proche (écris « \(date.dayPhrase) »)")
                }
            default: break
            }
            // A season: "l'hiver", "en été", "cet automne", "au printemps" (not the participle
            // "été": "a été", "avait été").
            if ["hiver", "printemps", "été", "automne"].contains(w), !date.seasons.contains(w),
               let previous = word(k - 1), ["l'", "en", "cet", "cette", "au", "d'", "de"].contains(previous) {
                refuse(text, "ce n'est pas la saison du moment")
            }
        }
        out += tenseAgreement(a, plan, date: date, when: when, full: full, placed: placed)
        return out
    }

    /// The month number (1 to 12) of a French month name, lower case; `nil` for another word.
    static func monthNumber(_ name: String) -> Int? {
        (1...12).first { MomentDate.month(of: CalendarDate(year: 2000, month: $0, day: 1)) == name }
    }

    /// Numbers in words, for "il y a trois jours" / "dans deux semaines".
    static let smallNumbers: [String: Int] = [
        "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7, "huit": 8, "neuf": 9, "dix": 10,
        "onze": 11, "douze": 12, "treize": 13, "quatorze": 14, "quinze": 15,
    ]

    /// The tense half of `moment_date`: the story told before or after the moment.
    /// - Parameter placed: whether the text names a day (a timeless présent, "Léa aime le cours
    ///   de judo.", fits a past moment too).
    func tenseAgreement(_ a: TextAnalysis, _ plan: DictationPlan, date: MomentDate, when: String, full: String, placed: Bool) -> [Finding] {
        let verbs = tenses(in: a)
        guard !verbs.isEmpty else { return [] }
        // The tenses of each sentence's verbs, sentences in order.
        var bySentence: [Int: [Set<SchoolTense>]] = [:]
        for v in verbs {
            let s = a.text.sentenceIndex(ofToken: v.index) ?? 0
            bySentence[s, default: []].append(v.tenses)
        }
        let sentences = bySentence.keys.sorted().map { bySentence[$0]! }
        let wrong = date.time.wrongTenses
        func onlyWrong(_ s: [Set<SchoolTense>]) -> Bool { s.allSatisfy { !$0.isEmpty && $0.isSubset(of: wrong) } }
        let wrongCount = sentences.filter(onlyWrong).count
        let pastTenses: Set<SchoolTense> = [.passeComposeAvoir, .passeComposeEtre, .imparfait, .passeSimple, .plusQueParfait]
        if onlyWrong(sentences[0]) || wrongCount * 2 > sentences.count {
            let message = date.time == .past
                ? "\(when) : raconte-le au passé, pas au futur."
                : "\(when) : il n'a pas encore eu lieu, ne le raconte pas au passé."
            return [Finding(step: .moment, rule: "moment_date", message: message)]
        }
        // "Hier, il partit": the passé simple tells a story cut off from the day one writes; the
        // days said from that day (hier, aujourd'hui, ce matin…) go with the passé composé.
        let t = a.tagged
        let deictic = t.indices.first { k in
            let w = t[k].normalized, next = k + 1 < t.count ? t[k + 1].normalized : ""
            return ["aujourd'hui", "hier", "avant-hier"].contains(w) || (["ce", "cet"].contains(w) && ["matin", "soir", "après-midi"].contains(next))
        }
        if let k = deictic, verbs.contains(where: { $0.tenses == [.passeSimple] }) {
            let said = t[k].normalized == "ce" || t[k].normalized == "cet" ? t[k].token.text + " " + t[k + 1].token.text : t[k].token.text
            return [Finding(step: .moment, rule: "moment_date", message:
                "\(when) : au passé simple, n'écris pas « \(shown(said)) » ; écris « \(full) », ou raconte au passé composé.")]
        }
        if date.time == .past, placed, plan.grade != .cp, !verbs.contains(where: { !$0.tenses.isDisjoint(with: pastTenses) }) {
            let pasts = SchoolTense.allCases.filter { pastTenses.contains($0) && GradeNorms.of(plan.grade).tenses.contains($0) && $0 != .passeComposeEtre }
                .map { $0 == .passeComposeAvoir ? "passé composé" : $0.rawValue }
            let list = pasts.count > 1 ? pasts.dropLast().joined(separator: ", ") + " ou " + pasts.last! : pasts.joined()
            return [Finding(step: .moment, rule: "moment_date", message: "\(when) : raconte-le au passé (\(list)).")]
        }
        return []
    }
}
