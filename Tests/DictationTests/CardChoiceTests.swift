import Foundation
import DicteeCore
import Testing
@testable import Dictation
import DicteeTestSupport

/// Which moments the cards offer and in which order: recent past first (most recent first), then
/// upcoming (soonest first), a coming moment within 7 days among the three cards, one card per
/// phrase, without occurrences the child had or the child's own birthday. The rules about
/// children, weekly activities, multi-day moments and series: `CardChoiceTableTests`.
@Suite struct CardChoiceTests {
    static let now: Int64 = 1_750_000_000
    static let day: Int64 = 86_400
    static let lea = Child(firstName: "Léa", gender: .feminine, grade: .ce1)
    static let hugo = Child(firstName: "Hugo", gender: .masculine, grade: .ce2)

    /// A moment at `now + offset` seconds.
    static func moment(_ key: String, _ phrase: String, at offset: Int64, friend: String? = nil) -> CardMoment {
        let grammar = PhraseGrammar(gender: .masculine, number: .singular, headNoun: "moment")
        let seconds = now + offset
        return CardMoment(key: Self.key(key), moment: MomentPhrase(phrase: phrase, grammar: grammar, friendName: friend), start: .instant(seconds), startSeconds: seconds)
    }

    /// The names the tests give occurrences, in their order: a name's key sorts as the name does
    /// (ties between equal starts go by key), and reads back as the name.
    static let names = ["a-past", "a-up", "b-past", "c-up", "exactly-30d", "exactly-now", "judo+14", "judo+7", "judo-14",
                        "judo-40", "judo-7", "just-over-30d", "k", "k1", "k2", "lea", "leane", "musee+3", "musee-2", "noel+3",
                        "not-a-key", "old", "own", "own-up", "past-1s", "past-2d", "piscine", "piscine-1", "piscine-10", "sam-2",
                        "tom", "tom+5", "tom-1", "tom-3", "too-old-31d", "u4", "u9", "upcoming-10d", "upcoming-1s",
                        "upcoming-5d", "verte+4", "z-past"].sorted()

    /// The occurrence key of a test name: ranked for the fixed names, hashed for the random ones.
    static func key(_ name: String) -> OccurrenceKey {
        let event = names.firstIndex(of: name).map { EventReference("ev-" + String(format: "%012x", $0))! }
            ?? EventReference(uid: name)
        return OccurrenceKey(event: event, start: .instant(0))
    }

    static func keys(_ moments: [CardMoment]) -> [String] {
        moments.map { m in names.first { key($0) == m.key } ?? m.key.description }
    }

    /// The child had these occurrences long ago (no series gap applies).
    static func had(_ names: [String]) -> [CardChoice.Had] { names.map { CardChoice.Had(key: key($0), atSeconds: 0) } }

    // MARK: - Order

    @Test func recentPastMostRecentFirstThenUpcomingSoonestFirst() {
        let d = Self.day
        let input = [
            Self.moment("upcoming-5d", "le marché de Noël", at: 5 * d),
            Self.moment("too-old-31d", "les vacances", at: -31 * d),
            Self.moment("past-2d", "la sortie piscine", at: -2 * d),
            Self.moment("upcoming-1s", "la visite au musée", at: 1),
            Self.moment("exactly-30d", "la fête de l'école", at: -30 * d),
            Self.moment("just-over-30d", "la kermesse", at: -30 * d - 1),
            Self.moment("exactly-now", "le cours de judo", at: 0),
            Self.moment("past-1s", "le spectacle de danse", at: -1),
            Self.moment("upcoming-10d", "la classe verte", at: 10 * d),
        ]
        // The soonest coming moment (within 7 days) takes a card; the cards show the past first.
        let expected = ["exactly-now", "past-1s", "upcoming-1s", "past-2d", "exactly-30d", "upcoming-5d", "upcoming-10d"]
        #expect(Self.keys(CardChoice.order(input, child: Self.lea, now: Self.now)) == expected)
        // The input order does not matter.
        #expect(Self.keys(CardChoice.order(input.reversed(), child: Self.lea, now: Self.now)) == expected)
    }

    @Test func equalStartsAreOrderedByKeyInThePastAndInTheFuture() {
        let d = Self.day
        let input = [
            Self.moment("b-past", "la sortie piscine", at: -3 * d),
            Self.moment("c-up", "le marché de Noël", at: 2 * d),
            Self.moment("a-past", "le cours de judo", at: -3 * d),
            Self.moment("a-up", "la classe verte", at: 2 * d),
            Self.moment("z-past", "les vacances", at: -1 * d),
        ]
        // a-up (coming in 2 days) is among the three cards, before b-past.
        #expect(Self.keys(CardChoice.order(input, child: Self.hugo, now: Self.now)) == ["z-past", "a-past", "a-up", "b-past", "c-up"])
    }

    @Test func nothingInNothingOut() {
        #expect(CardChoice.order([], child: Self.lea, now: Self.now).isEmpty)
        let old = [Self.moment("old", "les vacances", at: -60 * Self.day)]
        #expect(CardChoice.order(old, child: Self.lea, now: Self.now).isEmpty)
    }

    @Test func isUpcomingIsStrictlyAfterNow() {
        #expect(!CardChoice.isUpcoming(Self.moment("k", "les vacances", at: 0), now: Self.now))
        #expect(!CardChoice.isUpcoming(Self.moment("k", "les vacances", at: -1), now: Self.now))
        #expect(CardChoice.isUpcoming(Self.moment("k", "les vacances", at: 1), now: Self.now))
    }

    // MARK: - One card per phrase

    @Test func aWeeklyMomentAppearsOnceAtItsMostRecentPastPlace() {
        let d = Self.day
        let input = [
            Self.moment("judo+7", "le cours de judo", at: 7 * d),
            Self.moment("judo-14", "le cours de judo", at: -14 * d),
            Self.moment("piscine-10", "la sortie piscine", at: -10 * d),
            Self.moment("judo-7", "le cours de judo", at: -7 * d),
            Self.moment("musee+3", "la visite au musée", at: 3 * d),
        ]
        #expect(Self.keys(CardChoice.order(input, child: Self.lea, now: Self.now)) == ["judo-7", "piscine-10", "musee+3"])
    }

    @Test func aTooOldOccurrenceDoesNotHideTheUpcomingOne() {
        let d = Self.day
        let input = [
            Self.moment("judo-40", "le cours de judo", at: -40 * d),
            Self.moment("judo+7", "le cours de judo", at: 7 * d),
            Self.moment("judo+14", "le cours de judo", at: 14 * d),
        ]
        #expect(Self.keys(CardChoice.order(input, child: Self.lea, now: Self.now)) == ["judo+7"])
    }

    @Test func typographicApostropheAndCaseMakeTheSamePhrase() {
        let d = Self.day
        let input = [
            Self.moment("tom-3", "l'anniversaire de Tom", at: -3 * d, friend: "Tom"),
            Self.moment("tom-1", "L’anniversaire de Tom", at: -1 * d, friend: "Tom"),
            Self.moment("tom+5", "L'ANNIVERSAIRE DE TOM", at: 5 * d, friend: "Tom"),
            Self.moment("sam-2", "l’anniversaire de Sam", at: -2 * d, friend: "Sam"),
        ]
        // tom+5 is the coming moment within 7 days: it stands for the phrase, the past "Tom" ones go.
        #expect(Self.keys(CardChoice.order(input, child: Self.lea, now: Self.now)) == ["sam-2", "tom+5"])
        // Past only: the most recent stands for the phrase.
        #expect(Self.keys(CardChoice.order(Array(input.prefix(2)) + [input[3]], child: Self.lea, now: Self.now)) == ["tom-1", "sam-2"])
        // Upcoming only: the soonest one stands for the phrase.
        let upcoming = [
            Self.moment("u9", "l'anniversaire de Tom", at: 9 * d, friend: "Tom"),
            Self.moment("u4", "L’Anniversaire de tom", at: 4 * d, friend: "Tom"),
        ]
        #expect(Self.keys(CardChoice.order(upcoming, child: Self.lea, now: Self.now)) == ["u4"])
    }

    @Test func theSamePhraseAtTheSameStartKeepsTheSmallestKey() {
        let input = [
            Self.moment("k2", "la sortie piscine", at: -Self.day),
            Self.moment("k1", "La sortie piscine", at: -Self.day),
        ]
        #expect(Self.keys(CardChoice.order(input, child: Self.lea, now: Self.now)) == ["k1"])
    }

    // MARK: - Left out

    @Test func excludedKeysAreLeftOut() {
        let d = Self.day
        let input = [
            Self.moment("piscine-1", "la sortie piscine", at: -1 * d),
            Self.moment("musee-2", "la visite au musée", at: -2 * d),
            Self.moment("noel+3", "le marché de Noël", at: 3 * d),
            Self.moment("verte+4", "la classe verte", at: 4 * d),
        ]
        let out = CardChoice.order(input, child: Self.lea, now: Self.now, history: Self.had(["piscine-1", "noel+3", "not-a-key"]))
        #expect(Self.keys(out) == ["musee-2", "verte+4"])
        #expect(Self.keys(CardChoice.order(input, child: Self.lea, now: Self.now, history: input.map { CardChoice.Had(key: $0.key, atSeconds: 0) })) == [])
    }

    @Test func anExcludedOccurrenceLetsTheNextOneOfTheSamePhraseThrough() {
        let d = Self.day
        let input = [
            Self.moment("judo-7", "le cours de judo", at: -7 * d),
            Self.moment("judo-14", "le cours de judo", at: -14 * d),
            Self.moment("judo+7", "le cours de judo", at: 7 * d),
        ]
        // judo+7 (coming, exactly 7 days ahead) takes the coming card and stands for the phrase.
        #expect(Self.keys(CardChoice.order(input, child: Self.lea, now: Self.now, history: Self.had(["judo-7"]))) == ["judo+7"])
        #expect(Self.keys(CardChoice.order(Array(input.prefix(2)), child: Self.lea, now: Self.now, history: Self.had(["judo-7"]))) == ["judo-14"])
        #expect(Self.keys(CardChoice.order(input, child: Self.lea, now: Self.now, history: Self.had(["judo-7", "judo-14"]))) == ["judo+7"])
    }

    @Test func theChildsOwnBirthdayIsLeftOutAFriendsIsKept() {
        let d = Self.day
        let input = [
            Self.moment("lea", "l'anniversaire de Léa", at: -2 * d, friend: "Léa"),
            Self.moment("tom", "l'anniversaire de Tom", at: -3 * d, friend: "Tom"),
            Self.moment("leane", "l'anniversaire de Léane", at: -4 * d, friend: "Léane"),
            Self.moment("piscine", "la sortie piscine", at: 2 * d),
        ]
        #expect(Self.keys(CardChoice.order(input, child: Self.lea, now: Self.now)) == ["tom", "leane", "piscine"])
        // For Hugo, the coming "piscine" (in 2 days) is among the three cards.
        #expect(Self.keys(CardChoice.order(input, child: Self.hugo, now: Self.now)) == ["lea", "tom", "piscine", "leane"])
    }

    @Test(arguments: ["Léa", "léa", "LÉA", "lÉa", "Le\u{301}a"])
    func theOwnNameIsRecognisedInAnyCase(friend: String) {
        let input = [
            Self.moment("own", "l'anniversaire de \(friend)", at: -Self.day, friend: friend),
            Self.moment("own-up", "la fête de \(friend)", at: Self.day, friend: friend),
        ]
        #expect(CardChoice.order(input, child: Self.lea, now: Self.now).isEmpty)
        #expect(Self.keys(CardChoice.order(input, child: Self.hugo, now: Self.now)) == ["own", "own-up"])
    }

    @Test func theOwnNameWithoutAFriendSlotIsNotAReason() {
        // Only the friend slot counts: a moment without one is kept whatever its phrase says.
        let input = [Self.moment("k", "la sortie piscine", at: -Self.day, friend: nil)]
        #expect(Self.keys(CardChoice.order(input, child: Self.lea, now: Self.now)) == ["k"])
    }

    // MARK: - Property

    /// The shared seeded generator (SplitMix64).
    typealias SplitMix64 = SeededGenerator

    /// The phrase identity as the rule states it, written independently of the source.
    static func identity(_ phrase: String) -> String {
        String(phrase.map { $0 == "\u{2019}" ? "'" : $0 }).lowercased()
    }

    static func randomMoments(_ rng: inout SplitMix64) -> [CardMoment] {
        let d = day
        let plain = ["le cours de judo", "Le cours de judo", "la sortie piscine", "la visite au musée", "les vacances", "la fête de l’école", "la fête de l'école", "LA CLASSE VERTE"]
        let friends = ["Tom", "tom", "Léa", "léa", "LÉA", "Hugo", "Sam", "Léane"]
        let offsets: [Int64] = [0, 1, -1, -30 * d, -30 * d - 1, -30 * d + 1, 7 * d, 7 * d + 1, -7 * d, -14 * d, 40 * d, -31 * d]
        let owners: [[Int64]] = [[], [], [1], [2], [1, 2]]
        let count = Int.random(in: 0...40, using: &rng)
        return (0..<count).map { i in
            let offset: Int64 =
                Bool.random(using: &rng)
                ? offsets.randomElement(using: &rng)!
                : Bool.random(using: &rng)
                    ? Int64.random(in: -45...45, using: &rng) * d  // whole days: equal starts, ties by key
                    : Int64.random(in: -45 * d...45 * d, using: &rng)
            // Keys unique per occurrence, in an order unrelated to the start.
            let key = "k\(Int.random(in: 0...99, using: &rng))-\(i)"
            var m: CardMoment
            if Int.random(in: 0..<3, using: &rng) == 0 {
                let friend = friends.randomElement(using: &rng)!
                let article = Bool.random(using: &rng) ? "l'" : "L’"
                m = moment(key, "\(article)anniversaire de \(friend)", at: offset, friend: friend)
            } else {
                m = moment(key, plain.randomElement(using: &rng)!, at: offset)
            }
            // Short moments only (at most 3 hours): multi-day ones are CardChoiceTableTests'.
            m.endSeconds = m.startSeconds + Int64.random(in: 0...3, using: &rng) * 3_600
            m.end = .instant(m.endSeconds)
            m.isRecurring = Int.random(in: 0..<3, using: &rng) == 0
            m.children = owners.randomElement(using: &rng)!
            return m
        }
    }

    @Test func propertiesHoldOnRandomLists() {
        var rng = SplitMix64(seed: 0x00D1_C7EE)
        var nonEmpty = 0
        var capped = 0
        var coming = 0
        for round in 0..<300 {
            let moments = Self.randomMoments(&rng)
            let child = Bool.random(using: &rng)
                ? Child(id: 1, firstName: "Léa", gender: .feminine, grade: .ce1)
                : Child(id: 2, firstName: "Hugo", gender: .masculine, grade: .ce2)
            let had = moments.map(\.key).filter { _ in Int.random(in: 0..<5, using: &rng) == 0 }
            let out = CardChoice.order(moments, child: child, now: Self.now, history: had.map { CardChoice.Had(key: $0, atSeconds: 0) })
            if !out.isEmpty { nonEmpty += 1 }

            func isPast(_ m: CardMoment) -> Bool { m.startSeconds <= Self.now }
            func soon(_ m: CardMoment) -> Bool { !isPast(m) && m.startSeconds <= Self.now + 7 * Self.day }
            func eligible(_ m: CardMoment) -> Bool {
                let recent = isPast(m) ? Self.now - min(m.endSeconds, Self.now) <= 30 * Self.day : true
                let own = m.moment.friendName.map { $0.lowercased() == child.firstName.lowercased() } ?? false
                let mine = m.children.isEmpty || m.children.contains(child.id!)
                return recent && !own && mine && !had.contains(m.key)
            }
            // The base order, written independently: recency (end, or now), later start, key; then
            // the soonest coming.
            func before(_ a: CardMoment, _ b: CardMoment) -> Bool {
                switch (isPast(a), isPast(b)) {
                case (true, false): return true
                case (false, true): return false
                case (true, true):
                    return (min(a.endSeconds, Self.now), a.startSeconds) > (min(b.endSeconds, Self.now), b.startSeconds)
                        || (min(a.endSeconds, Self.now), a.startSeconds) == (min(b.endSeconds, Self.now), b.startSeconds) && a.key < b.key
                case (false, false): return a.startSeconds < b.startSeconds || (a.startSeconds == b.startSeconds && a.key < b.key)
                }
            }

            // Every element comes from the input and is eligible.
            for m in out {
                #expect(moments.contains(m), "round \(round): \(m.key) not in the input")
                #expect(eligible(m), "round \(round): \(m.key) is not eligible")
            }
            // Never two with the same phrase, and every eligible phrase once.
            let ids = out.map { Self.identity($0.moment.phrase) }
            #expect(Set(ids).count == ids.count, "round \(round): repeated phrase")
            let candidates = moments.filter(eligible)
            #expect(Set(candidates.map { Self.identity($0.moment.phrase) }) == Set(ids), "round \(round): a phrase is missing")
            // The cards are shown in the base order.
            let cards = Array(out.prefix(3))
            for (a, b) in zip(cards, cards.dropFirst()) {
                #expect(before(a, b), "round \(round): card \(a.key) before \(b.key)")
            }
            // At most one weekly activity, unless the one-off moments are all on the cards.
            let oneOffs = Set(candidates.filter { !$0.isRecurring }.map { Self.identity($0.moment.phrase) })
            if cards.filter(\.isRecurring).count > 1 {
                #expect(oneOffs.isSubset(of: Set(cards.map { Self.identity($0.moment.phrase) })), "round \(round): two weekly activities")
            } else if cards.count == 3 && oneOffs.count >= 2 {
                capped += 1
            }
            // A coming one-off moment within 7 days has a card when there is one (a coming weekly
            // activity only when the one weekly place is free: the child's own comes first).
            if candidates.contains(where: { soon($0) && !$0.isRecurring }) {
                coming += 1
                #expect(cards.contains(where: soon), "round \(round): no coming moment")
            }
            // After the cards: the one-off moments in the base order, then the recurring ones.
            let rest = Array(out.dropFirst(3))
            let firstRecurring = rest.firstIndex(where: \.isRecurring) ?? rest.count
            let restOneOffs = Array(rest[..<firstRecurring])
            let restRecurring = Array(rest[firstRecurring...])
            if cards.contains(where: \.isRecurring) {
                #expect(restRecurring.allSatisfy { $0.isRecurring }, "round \(round): a one-off moment after a recurring one")
                for part in [restOneOffs, restRecurring] {
                    for (a, b) in zip(part, part.dropFirst()) { #expect(before(a, b), "round \(round): \(a.key) before \(b.key)") }
                }
            }
        }
        // The generator does exercise the function.
        #expect(nonEmpty > 200 && capped > 50 && coming > 50)
    }
}
