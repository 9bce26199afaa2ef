import Foundation
import DicteeCore
import Testing
@testable import Dictation
import DicteeTestSupport

/// The cards a child remembers (Docs/domain.md §8): per child, one weekly activity at most, a
/// coming moment within 7 days, multi-day moments during them and 30 days after, nothing the child
/// had, a series at most once in 14 days. A table of named situations, then 60 simulated days of
/// a two-child family over seeded calendars.
@Suite struct CardChoiceTableTests {
    static let day: Int64 = 86_400
    static let hour: Int64 = 3_600
    /// Today (days since the epoch) and now: 17:00 UTC that day. Dates are read in UTC here.
    static let today = 20_600
    static let now = Int64(today) * day + 17 * hour
    static let lea = Child(id: 1, firstName: "Léa", gender: .feminine, grade: .ce1)
    static let ines = Child(id: 2, firstName: "Inès", gender: .feminine, grade: .ce2)
    /// A child not stored yet: no id.
    static let zoe = Child(firstName: "Zoé", gender: .feminine, grade: .cm1)

    /// A moment of a situation and the label the expectations use for it.
    struct Labeled: Sendable {
        var label: String
        var moment: CardMoment
    }

    /// The event reference of a series name (at most 6 ASCII characters): its bytes in hex, so
    /// that keys sort as the names do (ties between equal starts go by key).
    static func reference(_ series: String) -> EventReference {
        let bytes = Array(series.utf8.prefix(6)) + Array(repeating: 0, count: max(0, 6 - series.utf8.count))
        return EventReference("ev-" + bytes.map { String(format: "%02x", $0) }.joined())!
    }

    static let grammar = PhraseGrammar(gender: .masculine, number: .singular, headNoun: "moment")

    /// A timed moment starting `offset` seconds from now, lasting `hours`.
    static func timed(_ label: String, _ phrase: String, series: String? = nil, at offset: Int64, hours: Int64 = 1,
                      recurring: Bool = false, children: [Int64] = [], friend: String? = nil) -> Labeled {
        let start = now + offset
        let key = OccurrenceKey(event: reference(series ?? label), start: .instant(start))
        return Labeled(label: label, moment: CardMoment(
            key: key, moment: MomentPhrase(phrase: phrase, grammar: grammar, friendName: friend),
            start: .instant(start), startSeconds: start, end: .instant(start + hours * hour), endSeconds: start + hours * hour,
            isRecurring: recurring, children: children))
    }

    /// An all-day moment from day `from` (relative to today) for `days` dates.
    static func allDay(_ label: String, _ phrase: String, from: Int, days: Int, children: [Int64] = []) -> Labeled {
        let first = CalendarDate(daysSinceEpoch: today + from)
        let after = first.adding(days: days)
        return Labeled(label: label, moment: CardMoment(
            key: OccurrenceKey(event: reference(label), start: .date(first)),
            moment: MomentPhrase(phrase: phrase, grammar: grammar),
            start: .date(first), startSeconds: Int64(first.daysSinceEpoch) * day,
            end: .date(after), endSeconds: Int64(after.daysSinceEpoch) * day, children: children))
    }

    /// One named situation: the child, the calendar, what the child had (and how long ago, in
    /// seconds), and the expected order (labels).
    struct Situation: Sendable, CustomTestStringConvertible {
        var name: String
        var child: Child
        var moments: [Labeled]
        var had: [(Labeled, Int64)] = []
        var expected: [String]
        var testDescription: String { name }
    }

    // Three past one-off moments, one day apart.
    static let a = timed("a", "la sortie au parc", at: -1 * day)
    static let b = timed("b", "la visite au musée", at: -2 * day)
    static let c = timed("c", "la kermesse", at: -3 * day)
    // Weekly activities.
    static let judo = timed("judo", "le cours de judo", at: -1 * day, recurring: true)
    static let danse = timed("danse", "le cours de danse", at: -2 * day, recurring: true)
    static let piano = timed("piano", "le cours de piano", at: -3 * day, recurring: true)
    static let piscine = timed("pisc", "la sortie piscine", at: -10 * day)
    static let musee = timed("musee", "la visite du château", at: -20 * day)
    static func anniv(_ offset: Int64) -> Labeled { timed("anniv", "l'anniversaire de Tom", at: offset, friend: "Tom") }
    static func judoAt(_ label: String, _ offset: Int64) -> Labeled {
        timed(label, "le cours de judo", series: "judo", at: offset, recurring: true)
    }
    // Moments going on at 17:00, for the multi-day ones to compete with.
    static let x = timed("x", "la fête du quartier", at: -1 * hour / 2, hours: 3)
    static let y = timed("y", "le goûter", at: -1 * hour, hours: 3)
    static let z = timed("z", "la chorale", at: -2 * hour, hours: 3)

    static let situations: [Situation] = [
        // Whose moment.
        Situation(name: "another child's moment is not offered", child: lea,
                  moments: [timed("pisc", "la sortie piscine", at: -day, children: [2]), timed("musee", "la visite au musée", at: -2 * day, children: [1]),
                            timed("fete", "la fête de l'école", at: -3 * day)],
                  expected: ["musee", "fete"]),
        Situation(name: "the other child gets its own moment and the family's", child: ines,
                  moments: [timed("pisc", "la sortie piscine", at: -day, children: [2]), timed("musee", "la visite au musée", at: -2 * day, children: [1]),
                            timed("fete", "la fête de l'école", at: -3 * day)],
                  expected: ["pisc", "fete"]),
        Situation(name: "a moment of both children goes to each", child: lea,
                  moments: [timed("cirque", "le cirque", at: -day, children: [1, 2]), timed("foot", "le match de foot", at: -2 * day, children: [2])],
                  expected: ["cirque"]),
        Situation(name: "a child without an id gets the family's moments only", child: zoe,
                  moments: [timed("cirque", "le cirque", at: -day, children: [1, 2]), timed("fete", "la fête de l'école", at: -2 * day)],
                  expected: ["fete"]),
        Situation(name: "a multi-day moment of the other child is not offered", child: lea,
                  moments: [allDay("verte", "la classe verte", from: -1, days: 4, children: [2]), a],
                  expected: ["a"]),
        Situation(name: "the friend slot with the child's own name", child: lea,
                  moments: [timed("lea", "l'anniversaire de Léa", at: -day, friend: "Léa"),
                            timed("leane", "l'anniversaire de Léane", at: -2 * day, friend: "Léane")],
                  expected: ["leane"]),
        Situation(name: "the friend slot with the own name without its accent", child: ines,
                  moments: [timed("ines", "l'anniversaire d'Ines", at: -day, friend: "Ines"), timed("fete", "la fête de l'école", at: -2 * day)],
                  expected: ["fete"]),
        Situation(name: "a label naming the child without a friend slot", child: ines,
                  moments: [timed("spect", "le spectacle d’INÈS", at: -day), timed("fete", "la fête de l'école", at: -2 * day)],
                  expected: ["fete"]),
        // Weekly activities.
        Situation(name: "one weekly activity while one-off moments fill the cards", child: lea,
                  moments: [judo, danse, piano, piscine, musee],
                  expected: ["judo", "pisc", "musee", "danse", "piano"]),
        Situation(name: "weekly activities fill the cards when the one-off moments run out", child: lea,
                  moments: [judo, danse, piano, piscine],
                  expected: ["judo", "danse", "pisc", "piano"]),
        Situation(name: "weekly activities only", child: lea,
                  moments: [piano, judo, danse],
                  expected: ["judo", "danse", "piano"]),
        // Coming moments.
        Situation(name: "a coming moment in 6 days gets a card", child: lea,
                  moments: [a, b, c, anniv(6 * day)],
                  expected: ["a", "b", "anniv", "c"]),
        Situation(name: "a coming moment exactly 7 days ahead gets a card", child: lea,
                  moments: [a, b, c, anniv(7 * day)],
                  expected: ["a", "b", "anniv", "c"]),
        Situation(name: "a coming moment in 8 days waits its turn", child: lea,
                  moments: [a, b, c, anniv(8 * day)],
                  expected: ["a", "b", "c", "anniv"]),
        Situation(name: "a coming one-off moment before a sooner weekly one", child: lea,
                  moments: [a, b, c, judoAt("judo", day), anniv(5 * day)],
                  expected: ["a", "b", "anniv", "c", "judo"]),
        Situation(name: "a weekly activity takes the coming card when no one-off moment is coming", child: lea,
                  moments: [a, b, c, judoAt("judo", 2 * day)],
                  expected: ["a", "b", "judo", "c"]),
        Situation(name: "the coming weekly activity is the one weekly activity", child: lea,
                  moments: [timed("danse", "le cours de danse", at: -day, recurring: true), b, c, judoAt("judo", 2 * day)],
                  expected: ["b", "c", "judo", "danse"]),
        Situation(name: "the child's own weekly activity before the family's coming one", child: lea,
                  moments: [timed("judo", "le cours de judo", at: -4 * day, recurring: true, children: [1]),
                            timed("pisc", "la piscine", at: 2 * day, recurring: true), b, c],
                  expected: ["b", "c", "judo", "pisc"]),
        Situation(name: "the child's own moment before the family's recent ones", child: lea,
                  moments: [a, b, c, timed("piano", "le cours de piano", at: -5 * day, recurring: true, children: [1])],
                  expected: ["a", "b", "piano", "c"]),
        // Multi-day moments.
        Situation(name: "a holiday going on gets a card", child: lea,
                  moments: [a, b, c, anniv(3 * day), allDay("vac", "les vacances en Bretagne", from: -10, days: 14)],
                  expected: ["vac", "a", "anniv", "b", "c"]),
        Situation(name: "a stage longer than 24 hours going on gets a card before shorter moments going on", child: lea,
                  moments: [x, y, z, timed("stage", "le stage de poney", at: -2 * day - 8 * hour, hours: 3 * 24 + 8)],
                  expected: ["x", "y", "stage", "z"]),
        Situation(name: "a 20-hour moment is not multi-day", child: lea,
                  moments: [x, y, z, timed("nuit", "la nuit chez mamie", at: -19 * hour, hours: 20)],
                  expected: ["x", "y", "z", "nuit"]),
        Situation(name: "a one-date all-day moment is not multi-day", child: lea,
                  moments: [x, y, z, allDay("fete", "la fête de l'école", from: 0, days: 1)],
                  expected: ["x", "y", "z", "fete"]),
        Situation(name: "a holiday whose last day was 30 days ago is offered", child: lea,
                  moments: [a, timed("old", "la sortie au zoo", at: -40 * day), allDay("vac", "les vacances en Bretagne", from: -43, days: 14)],
                  expected: ["a", "vac"]),
        Situation(name: "a holiday whose last day was 31 days ago is left out", child: lea,
                  moments: [a, allDay("vac", "les vacances en Bretagne", from: -44, days: 14)],
                  expected: ["a"]),
        // What the child had.
        Situation(name: "an occurrence the child had is not offered again", child: lea,
                  moments: [piscine, musee], had: [(piscine, -5 * day)],
                  expected: ["musee"]),
        Situation(name: "the same series 13 days after the child had it is left out", child: lea,
                  moments: [judoAt("j-6", -6 * day), judoAt("j+1", day), b], had: [(judoAt("j-13", -13 * day), -13 * day + 2 * hour)],
                  expected: ["b"]),
        Situation(name: "the same series 15 days after the child had it is offered", child: lea,
                  moments: [judoAt("j-8", -8 * day), judoAt("j-1", -day), b], had: [(judoAt("j-15", -15 * day), -15 * day + 2 * hour)],
                  expected: ["j-1", "b"]),
        Situation(name: "the same series exactly 14 days after the child had it is offered", child: lea,
                  moments: [judoAt("j-1", -day), b], had: [(judoAt("j-14", -14 * day), -14 * day)],
                  expected: ["j-1", "b"]),
        Situation(name: "another series with the same phrase is not held back", child: lea,
                  moments: [timed("judo2", "le cours de judo", at: -day, recurring: true), b], had: [(judoAt("j-7", -7 * day), -7 * day)],
                  expected: ["judo2", "b"]),
        // One card per phrase, and ties.
        Situation(name: "the same phrase twice (case, accents, spaces aside)", child: lea,
                  moments: [timed("pisc1", "la sortie piscine", at: -day), timed("pisc2", "La  sortie piscine", at: -3 * day), b,
                            timed("fete1", "la fête", at: -4 * day), timed("fete2", "LA FETE", at: -5 * day)],
                  expected: ["pisc1", "b", "fete1"]),
        Situation(name: "equal starts go by key", child: lea,
                  moments: [timed("a", "la sortie au parc", at: -day), timed("b", "la visite au musée", at: -day), timed("c", "la kermesse", at: -day),
                            timed("u", "le carnaval", at: 2 * day), timed("v", "le pique-nique", at: 2 * day)],
                  expected: ["a", "b", "u", "c", "v"]),
        Situation(name: "equal starts go by key, the input reversed", child: lea,
                  moments: [timed("v", "le pique-nique", at: 2 * day), timed("u", "le carnaval", at: 2 * day),
                            timed("c", "la kermesse", at: -day), timed("b", "la visite au musée", at: -day), timed("a", "la sortie au parc", at: -day)],
                  expected: ["a", "b", "u", "c", "v"]),
    ]

    @Test(arguments: situations)
    func situation(_ s: Situation) {
        let history = s.had.map { CardChoice.Had(key: $0.0.moment.key, atSeconds: Self.now + $0.1) }
        let out = CardChoice.order(s.moments.map(\.moment), child: s.child, now: Self.now, history: history)
        let labels = out.map { m in s.moments.first { $0.moment == m }?.label ?? "?" }
        #expect(labels == s.expected)
    }

    @Test func multiDayIsTwoDatesOrMoreThan24Hours() {
        #expect(Self.allDay("v", "les vacances", from: 0, days: 2).moment.isMultiDay)
        #expect(!Self.allDay("v", "les vacances", from: 0, days: 1).moment.isMultiDay)
        #expect(Self.timed("s", "le stage", at: 0, hours: 25).moment.isMultiDay)
        #expect(!Self.timed("s", "le stage", at: 0, hours: 24).moment.isMultiDay)
        // Without an end: a moment without duration.
        let bare = CardMoment(key: Self.a.moment.key, moment: Self.a.moment.moment, start: .instant(5), startSeconds: 5)
        #expect(!bare.isMultiDay && bare.endSeconds == 5 && !bare.isRecurring && bare.children.isEmpty)
    }

    @Test func thereAreAtLeastTwentySituations() {
        #expect(Self.situations.count >= 20)
        #expect(Set(Self.situations.map(\.name)).count == Self.situations.count)
    }

    // MARK: - Sixty simulated days of a two-child family

    /// A name folded as a person would compare it (case and accents aside), written apart from
    /// the source.
    static func folded(_ s: String) -> String {
        s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
            .replacingOccurrences(of: "’", with: "'").split(separator: " ").joined(separator: " ")
    }

    /// A seeded calendar around today: weekly activities for each child and for both, one-off
    /// moments for each, both or the family (some coming), a family holiday and a classe verte or
    /// a stage for one child (never overlapping).
    static func calendar(_ rng: inout SeededGenerator) -> [CardMoment] {
        var moments: [CardMoment] = []
        var serial = 0
        func add(_ l: Labeled) { moments.append(l.moment) }
        // Weekly activities, days -20 to 80.
        let weekly: [(String, [Int64])] = [
            (["le cours de judo", "le cours de danse", "le cours de piano"].randomElement(using: &rng)!, [1]),
            (["le cours de théâtre", "la chorale"].randomElement(using: &rng)!, [1]),
            (["le cours de judo", "l'entraînement de foot"].randomElement(using: &rng)!, [2]),
            (["le cours de poterie", "le cours d'escalade"].randomElement(using: &rng)!, [2]),
            ("la piscine", [1, 2]),
        ]
        for (n, (phrase, children)) in weekly.enumerated() {
            let weekday = Int.random(in: 0..<7, using: &rng)
            let hour = Int64.random(in: 9...18, using: &rng)
            for week in stride(from: -21, to: 80, by: 7) {
                let offset = Int64(week + weekday) * day + hour * Self.hour - 17 * Self.hour
                add(timed("w\(n)", phrase, series: "w\(n)", at: offset, recurring: true, children: children))
            }
        }
        // One-off moments, days -20 to 80.
        let oneOffs = ["la sortie au musée", "la visite du zoo", "la fête de l'école", "le spectacle de Noël", "le pique-nique",
                       "la sortie au cinéma", "la kermesse", "le carnaval", "la sortie au parc", "le marché de Noël"]
        let friends = ["Tom", "Sam", "Léa", "Lea", "Inès", "Ines", "Nora"]
        let owners: [[Int64]] = [[], [], [1], [2], [1, 2]]
        for _ in 0..<Int.random(in: 25...40, using: &rng) {
            serial += 1
            let offset = Int64.random(in: -20...80, using: &rng) * day + Int64.random(in: -8...3, using: &rng) * hour
            let hours = Int64.random(in: 1...3, using: &rng)
            let children = owners.randomElement(using: &rng)!
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let friend = friends.randomElement(using: &rng)!
                add(timed("o\(serial)", "l'anniversaire de \(friend)", at: offset, hours: hours, children: children, friend: friend))
            } else {
                add(timed("o\(serial)", oneOffs.randomElement(using: &rng)!, at: offset, hours: hours, children: children))
            }
        }
        // A family holiday starting between days 5 and 25, 7 to 14 dates; then, after it, a
        // classe verte (all-day) or a stage (timed) for one child.
        let holidayStart = Int.random(in: 5...25, using: &rng)
        let holidayDays = Int.random(in: 7...14, using: &rng)
        add(allDay("vac", "les vacances en Bretagne", from: holidayStart, days: holidayDays))
        let nextStart = holidayStart + holidayDays + Int.random(in: 2...15, using: &rng)
        let child: Int64 = Bool.random(using: &rng) ? 1 : 2
        if Bool.random(using: &rng) {
            add(allDay("verte", "la classe verte", from: nextStart, days: Int.random(in: 3...5, using: &rng), children: [child]))
        } else {
            add(timed("stage", "le stage de poney", at: Int64(nextStart) * day - 8 * hour, hours: 4 * 24 + 8, children: [child]))
        }
        return moments
    }

    /// What the simulation saw, to check that the calendars exercise each rule.
    struct Seen {
        var comingDays = 0, multiDayDays = 0, multiDayAfter = 0, cappedDays = 0, heldSeries = 0, otherChilds = 0, ownName = 0
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func sixtyDaysOfTwoChildren(seed: UInt64) {
        var rng = SeededGenerator(seed: 0xCA4D_5000 + seed)
        let moments = Self.calendar(&rng)
        var history: [Int64: [CardChoice.Had]] = [1: [], 2: []]
        // Folded once: the phrases, and the friend slots holding each child's name.
        let folded = Dictionary(uniqueKeysWithValues: moments.map { ($0.key, Self.folded($0.moment.phrase)) })
        let namesOf = Dictionary(uniqueKeysWithValues: [Self.lea, Self.ines].map { child in
            (child.id!, Set(moments.filter { $0.moment.friendName.map(Self.folded) == Self.folded(child.firstName) }.map(\.key)))
        })
        var seen = Seen()
        // Per child and week: whether a one-off moment was eligible, and whether one was offered.
        var weekEligible: [Int64: Bool] = [:], weekOffered: [Int64: Bool] = [:]
        for simulated in 0..<60 {
            let now = Int64(Self.today + simulated) * Self.day + 17 * Self.hour
            for child in [Self.lea, Self.ines] {
                let id = child.id!
                let had = history[id]!
                let where_ = "seed \(seed), day \(simulated), child \(id)"
                // Eligibility, written apart from the source.
                func forOther(_ m: CardMoment) -> Bool { !m.children.isEmpty && !m.children.contains(id) }
                func ownName(_ m: CardMoment) -> Bool { namesOf[id]!.contains(m.key) }
                let hadKeys = Set(had.map(\.key))
                let recentSeries = Set(had.filter { now - $0.atSeconds < 14 * Self.day }.map(\.key.event))
                func heldBack(_ m: CardMoment) -> Bool { hadKeys.contains(m.key) || recentSeries.contains(m.key.event) }
                func inWindow(_ m: CardMoment) -> Bool { m.startSeconds > now || now - min(m.endSeconds, now) <= 30 * Self.day }
                func soon(_ m: CardMoment) -> Bool { m.startSeconds > now && m.startSeconds <= now + 7 * Self.day }
                func phrase(_ m: CardMoment) -> String { folded[m.key]! }
                let window = moments.filter(inWindow)
                let eligible = window.filter { !forOther($0) && !ownName($0) && !heldBack($0) }
                seen.heldSeries += window.filter { !hadKeys.contains($0.key) && heldBack($0) }.count
                seen.otherChilds += window.filter(forOther).count
                seen.ownName += window.filter(ownName).count

                let order = CardChoice.order(moments, child: child, now: now, history: had)
                let cards = Array(order.prefix(CardChoice.count))
                // Every eligible moment is offered (once per phrase): the multi-day ones up to 30
                // days after their end among them.
                #expect(Set(order.map(phrase)) == Set(eligible.map(phrase)), "\(where_): offered phrases")
                seen.multiDayAfter += eligible.filter { $0.isMultiDay && $0.endSeconds <= now }.count

                // Never another child's moment, nor the own name, nor what the child had.
                for m in cards {
                    #expect(!forOther(m), "\(where_): another child's moment")
                    #expect(!ownName(m), "\(where_): the child's own name")
                    #expect(!heldBack(m), "\(where_): had, or the same series within 14 days")
                    #expect(inWindow(m), "\(where_): out of the window")
                }
                // Three cards when three phrases can be offered, never two with the same phrase.
                #expect(Set(cards.map(phrase)).count == cards.count, "\(where_): the same phrase twice")
                #expect(cards.count == min(3, Set(eligible.map(phrase)).count), "\(where_): \(cards.count) cards")
                // One weekly activity at most while one-off moments can fill the cards.
                let oneOffPhrases = Set(eligible.filter { !$0.isRecurring }.map(phrase))
                if !oneOffPhrases.isEmpty, eligible.contains(where: \.isRecurring) { seen.cappedDays += 1 }
                if oneOffPhrases.count >= 2 {
                    #expect(cards.filter(\.isRecurring).count <= 1, "\(where_): two weekly activities")
                } else {
                    #expect(oneOffPhrases.isSubset(of: Set(cards.map(phrase))), "\(where_): a one-off moment left out")
                }
                // A coming one-off moment within 7 days, when there is one (a coming weekly
                // activity only when the one weekly place is free: the child's own comes first).
                if eligible.contains(where: { soon($0) && !$0.isRecurring }) {
                    seen.comingDays += 1
                    #expect(cards.contains(where: soon), "\(where_): no coming moment")
                }
                // A multi-day moment during its span (the child did not have it yet).
                for m in eligible where m.isMultiDay && m.startSeconds <= now && now < m.endSeconds {
                    seen.multiDayDays += 1
                    #expect(cards.contains(m), "\(where_): the multi-day moment going on is not offered")
                }
                // Each week, a one-off moment when one was eligible that week.
                let week = Int64(simulated / 7)
                if !oneOffPhrases.isEmpty { weekEligible[week * 10 + id] = true }
                if cards.contains(where: { !$0.isRecurring }) { weekOffered[week * 10 + id] = true }

                // The child picks a card, served now: Inès any (as the generator says), Léa the
                // first past one that is not multi-day, or none that day (so that the holiday
                // stays hers through its span and after: had, it would not come back).
                let pick = id == 2 ? cards.randomElement(using: &rng) : cards.first { $0.startSeconds <= now && !$0.isMultiDay }
                if let pick { history[id]!.append(CardChoice.Had(key: pick.key, atSeconds: now)) }
            }
        }
        for (week, eligible) in weekEligible where eligible {
            #expect(weekOffered[week] == true, "seed \(seed), week \(week / 10), child \(week % 10): no one-off moment offered")
        }
        // The calendars exercise every rule.
        #expect(seen.comingDays > 10 && seen.multiDayDays > 5 && seen.multiDayAfter > 5 && seen.cappedDays > 10 && seen.heldSeries > 0
                && seen.otherChilds > 0, "seed \(seed): \(seen)")
    }
}
