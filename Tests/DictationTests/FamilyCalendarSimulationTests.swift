import DicteeCore
import DicteeTestSupport
import Foundation
import PrivacyFilter
import Testing
import Dictation

/// Sixty days of a two-child family, end to end from calendar titles: a seeded calendar of titles
/// as families write them (Docs/domain.md §5), each with the truth of whose it is, goes through
/// `PrivacyFilter(family:)` as ingest sends it (an `Occurrence` per date, `decision(for:
/// classification:)`), its moments become card candidates as the desk makes them, and each day
/// both children get `CardChoice.order` (§8), pick a card, and build a history. Every day the cards
/// are checked against the titles' truth, not against what the filter said.
@Suite struct FamilyCalendarSimulationTests {
    static let day: Int64 = 86_400
    static let hour: Int64 = 3_600
    /// The first simulated day (days since the epoch, 2026-05-26); dates are read in UTC.
    static let today = 20_600

    /// Whose an event is, as the family meant it (the generator's truth, never the filter's).
    enum Owner: Hashable, CustomStringConvertible {
        /// One child's (the title names the child): "Judo Noah".
        case child(Int64)
        /// Both children's: "Piscine Inès et Noah".
        case both
        /// The whole family's: "Ciné en famille", a friend's birthday.
        case family
        /// The family's, with a child's own name in the friend slot: "Anniv de Noah" is Noah's own
        /// birthday, never a card for Noah, a card his sister may get.
        case birthdayOf(Int64)
        /// The parents' own (`Whitelists/parents.txt`): never a moment.
        case parents
        /// A sensitive event (`Whitelists/disqualifiers.txt`, in the title, place or description).
        case disqualified
        /// Nothing the whitelist names: waits for the parent, never a card by itself.
        case unlabeled

        var description: String {
            switch self {
            case .child(let id): "child \(id)"
            case .both: "both"
            case .family: "family"
            case .birthdayOf(let id): "birthday of \(id)"
            case .parents: "parents"
            case .disqualified: "disqualified"
            case .unlabeled: "unlabeled"
            }
        }
    }

    /// One generated calendar event: its texts, its truth, its occurrences.
    struct Event {
        var title: String
        var location = ""
        var description = ""
        var owner: Owner
        var recurring: Bool
        var spans: [(start: EventTime, end: EventTime)]
    }

    // MARK: - Names and titles

    /// First names for the children (accented ones among them); two distinct ones per family.
    static let childNames = ["Inès", "Noah", "Léa", "Chloé", "Hugo", "Maël", "Jules", "Élise", "Anaïs", "Lou"]
    /// Friends' first names (each in `Whitelists/given-names.txt`, so "anniv zoé" captures Zoé);
    /// the children's own names are left out.
    static let friendNames = ["Zoé", "Tom", "Anaïs", "Sacha", "Nora", "Lucas", "Émile", "Manon"]

    /// A name or phrase folded as a person compares it (case, accents, apostrophes, spaces aside),
    /// written apart from the sources.
    static func folded(_ s: String) -> String {
        s.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil).lowercased()
            .replacingOccurrences(of: "’", with: "'").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The words of a phrase, folded ("l'anniversaire d'Inès" -> l, anniversaire, d, ines).
    static func words(_ phrase: String) -> [String] {
        folded(phrase).split(whereSeparator: { !$0.isLetter && $0 != "-" }).map(String.init)
    }

    static func withoutAccents(_ s: String) -> String {
        String(String.UnicodeScalarView(s.decomposedStringWithCanonicalMapping.unicodeScalars
            .filter { !(0x300...0x36F).contains($0.value) })).precomposedStringWithCanonicalMapping
    }

    /// A child's name as a family writes it outside a friend slot: as registered, in capitals, in
    /// lower case, without accents, or with an invisible character inside.
    static func written(_ name: String, _ rng: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0, 1, 2: return name
        case 3: return name.uppercased()
        case 4: return name.lowercased()
        case 5: return withoutAccents(name)
        case 6: return withoutAccents(name).uppercased()
        default:
            var chars = Array(name)
            let invisible: [Character] = ["\u{200D}", "\u{00AD}", "\u{200B}"]
            chars.insert(invisible.randomElement(using: &rng)!, at: 1 + Int.random(in: 0..<(chars.count - 1), using: &rng))
            return String(chars)
        }
    }

    /// A child's or friend's name in a birthday's slot, as families write it (with an invisible
    /// character inside too, which keeps a child's name and drops a friend's).
    static func birthday(_ name: String, _ rng: inout SeededGenerator) -> String {
        let de = "aeiouhéèêàâîïôûAEIOUHÉÈÊÀÂÎÏÔÛ".contains(name.first!) ? "d'" : "de "
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return "Anniv de \(name)"
        case 7:
            // An invisible character inside: a child's name is still read, a friend's is not captured.
            var scalars = Array(name.unicodeScalars)
            scalars.insert("\u{200D}", at: 1 + Int.random(in: 0..<(scalars.count - 1), using: &rng))
            return "Anniv de \(String(String.UnicodeScalarView(scalars)))"
        case 1: return "anniv \(name.lowercased())"
        case 2: return "ANNIV \(name.uppercased())"
        case 3: return "Anniversaire \(de)\(name)"
        case 4: return "Goûter d'anniv de \(name)"
        case 5: return "anniv \(withoutAccents(name).lowercased())"
        default: return "Annif \(name) 14h30"
        }
    }

    static func time(_ rng: inout SeededGenerator) -> String { ["17h", "10h30", "9h-11h", "14:00", "18h15"].randomElement(using: &rng)! }

    /// An activity title naming one child.
    static func forOne(_ activity: String, _ name: String, _ rng: inout SeededGenerator) -> String {
        let n = written(name, &rng)
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: return "\(activity) \(n)"
        case 1: return "\(activity) \(n) \(time(&rng))"
        case 2: return "\(n) : \(activity.lowercased())"
        case 3: return "\(activity) (\(n))"
        case 4: return "\(activity) avec \(n)"
        case 5: return "\(activity.lowercased()) \(n)"
        default: return "\(activity.uppercased()) - \(n)"
        }
    }

    /// An activity title naming both children.
    static func forBoth(_ activity: String, _ a: String, _ b: String, _ rng: inout SeededGenerator) -> String {
        let (x, y) = Bool.random(using: &rng) ? (a, b) : (b, a)
        let (p, q) = (written(x, &rng), written(y, &rng))
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return "\(activity) \(p) et \(q)"
        case 1: return "\(activity) \(p) + \(q)"
        case 2: return "\(activity) - \(p), \(q)"
        default: return "\(activity) \(p)/\(q) \(time(&rng))"
        }
    }

    static let weeklyActivities = ["Judo", "Piscine", "Cours de piano", "Danse", "Foot", "Tennis", "Théâtre", "Escalade",
                                   "Chorale", "Gym", "Basket", "Poney", "Karaté", "Natation"]
    static let familyWeekly = ["Ciné en famille", "Sortie vélo", "Piscine en famille", "Rando du dimanche", "Médiathèque"]
    static let childOneOffs = ["Sortie scolaire", "Spectacle", "Match basket", "Tournoi judo", "Gala de danse", "Concert",
                               "Cirque", "Chasse au trésor", "Accrobranche", "Patinoire", "Match de foot"]
    static let familyOneOffs = ["Ciné en famille", "Sortie vélo", "Zoo de Beauval", "Musée d'Orsay", "Pique-nique au parc",
                                "Fête foraine", "Carnaval", "Fête de l'école", "Halloween", "Aquarium", "Plage", "Kermesse",
                                "Sortie en mer avec Papi", "Noël chez Mamie", "Bal du 14 juillet", "Chasse aux œufs"]
    static let familyHolidays = ["Vacances Bretagne", "Vacs chez papi", "Ski en famille", "Camping Ardèche", "Vacances chez Mamie"]
    static let childHolidays = ["Classe verte", "Colo", "Classe de neige"]
    /// The parents' events of issue 12 (the child's name filled in).
    static func issueParents(_ child: String) -> [String] {
        ["Resto anniv de mariage", "Réunion rentrée CE2", "Garde \(child) week-end papa", "Conseil d'école", "Pot de départ Marc",
         "Réunion parents-profs \(child)", "Dîner sans les enfants", "Récup enfants chez papa", "Messe de Noël", "Marché de Noël"]
    }
    static let unlabeledTitles = ["Coiffeur", "Courses", "Plombier", "Livraison colis", "Appeler Marc", "Vidange voiture"]

    /// The entries of `Whitelists/parents.txt`, read from the file an auditor reads.
    static let parentEntries: [String] = {
        let text = (try? String(contentsOf: repositoryRoot.appendingPathComponent("Whitelists/parents.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            return fields.count == 2 && fields[0].hasPrefix("P") ? String(fields[1]) : nil
        }
    }()

    // MARK: - The calendar

    /// The family (ids 1 and 2) and a seeded calendar of about 90 days around the simulated 60
    /// (days -20 to 70): weekly activities per child, for both and for the family; one-off moments
    /// for each, both or the family; friends' birthdays and the children's own; holidays over
    /// several dates (all-day); the parents' events; disqualified and unlabeled titles.
    static func calendar(_ rng: inout SeededGenerator) -> (children: [Child], events: [Event]) {
        let first = Int.random(in: 0..<childNames.count, using: &rng)
        var second = Int.random(in: 0..<(childNames.count - 1), using: &rng)
        if second >= first { second += 1 }
        let children = [Child(id: 1, firstName: childNames[first], gender: .feminine, grade: .ce2),
                        Child(id: 2, firstName: childNames[second], gender: .masculine, grade: .ce1)]
        let name: [Int64: String] = [1: children[0].firstName, 2: children[1].firstName]
        let friends = friendNames.filter { f in !children.contains { folded($0.firstName) == folded(f) } }
        var events: [Event] = []

        func instant(_ dayOffset: Int, _ hourOfDay: Int64, hours: Int64) -> (start: EventTime, end: EventTime) {
            let s = Int64(today + dayOffset) * day + hourOfDay * hour
            return (.instant(s), .instant(s + hours * hour))
        }
        func oneOff(_ title: String, _ owner: Owner, location: String = "", description: String = "") {
            let at = instant(Int.random(in: -20...70, using: &rng), Int64.random(in: 8...19, using: &rng),
                             hours: Int64.random(in: 1...3, using: &rng))
            events.append(Event(title: title, location: location, description: description, owner: owner, recurring: false, spans: [at]))
        }
        func weekly(_ title: String, _ owner: Owner, every weeks: Int = 1) {
            let weekday = Int.random(in: 0..<7, using: &rng)
            let at = Int64.random(in: 9...18, using: &rng)
            let spans = stride(from: -21, to: 70, by: 7 * weeks).map { instant($0 + weekday, at, hours: 1) }
            events.append(Event(title: title, owner: owner, recurring: true, spans: spans))
        }
        func allDay(_ title: String, _ owner: Owner, from: Int, dates: Int) {
            let start = CalendarDate(daysSinceEpoch: today + from)
            events.append(Event(title: title, owner: owner, recurring: false,
                                spans: [(.date(start), .date(start.adding(days: dates)))]))
        }
        let ids: [Int64] = [1, 2]

        // Weekly activities: two per child, one for both, one for the family.
        var activities = weeklyActivities.shuffled(using: &rng)
        for id in ids {
            for _ in 0..<2 { weekly(forOne(activities.removeFirst(), name[id]!, &rng), .child(id)) }
        }
        weekly(forBoth(activities.removeFirst(), name[1]!, name[2]!, &rng), .both)
        weekly(familyWeekly.randomElement(using: &rng)!, .family)
        // One-off moments, for each, both, the family.
        for _ in 0..<Int.random(in: 25...35, using: &rng) {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0, 1:
                let id = ids.randomElement(using: &rng)!
                oneOff(forOne(childOneOffs.randomElement(using: &rng)!, name[id]!, &rng), .child(id))
            case 2: oneOff(forBoth(childOneOffs.randomElement(using: &rng)!, name[1]!, name[2]!, &rng), .both)
            default: oneOff(familyOneOffs.randomElement(using: &rng)!, .family)
            }
        }
        // Friends' birthdays (some of them one child's: "Anniv de Zoé (Inès)"), and each child's own.
        for _ in 0..<Int.random(in: 6...10, using: &rng) {
            let friend = friends.randomElement(using: &rng)!
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                let id = ids.randomElement(using: &rng)!
                oneOff("Anniv de \(friend) (\(written(name[id]!, &rng)))", .child(id))
            case 1:
                let id = ids.randomElement(using: &rng)!
                oneOff("\(birthday(friend, &rng)) avec \(written(name[id]!, &rng))", .child(id))
            default: oneOff(birthday(friend, &rng), .family)
            }
        }
        for id in ids {
            for _ in 0..<Int.random(in: 1...2, using: &rng) { oneOff(birthday(name[id]!, &rng), .birthdayOf(id)) }
        }
        // Holidays over several dates: a family one early, then a child's, then another family one.
        let holiday = Int.random(in: 2...15, using: &rng)
        let holidayDates = Int.random(in: 5...10, using: &rng)
        allDay(familyHolidays.randomElement(using: &rng)!, .family, from: holiday, dates: holidayDates)
        let id = ids.randomElement(using: &rng)!
        let away = holiday + holidayDates + Int.random(in: 1...10, using: &rng)
        allDay("\(childHolidays.randomElement(using: &rng)!) \(written(name[id]!, &rng))", .child(id), from: away,
               dates: Int.random(in: 2...5, using: &rng))
        allDay(familyHolidays.randomElement(using: &rng)!, .family, from: away + Int.random(in: 10...25, using: &rng),
               dates: Int.random(in: 2...8, using: &rng))
        // The parents' events: the issue's titles, and entries of parents.txt beside moment words
        // and children's names (the parents' rule must win).
        for _ in 0..<Int.random(in: 4...6, using: &rng) {
            oneOff(issueParents(written(name[ids.randomElement(using: &rng)!]!, &rng)).randomElement(using: &rng)!, .parents)
        }
        weekly("Garde \(name[ids.randomElement(using: &rng)!]!) week-end papa", .parents, every: 2)
        for _ in 0..<Int.random(in: 8...12, using: &rng) {
            let entry = parentEntries.randomElement(using: &rng)!
            let n = written(name[ids.randomElement(using: &rng)!]!, &rng)
            let title: String
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: title = entry.prefix(1).uppercased() + entry.dropFirst()
            case 1: title = "\(entry) \(n)"
            case 2: title = "\(weeklyActivities.randomElement(using: &rng)!) \(n) puis \(entry)"
            case 3: title = "\(entry.uppercased()) \(time(&rng))"
            default: title = "\(familyOneOffs.randomElement(using: &rng)!) \(entry)"
            }
            oneOff(title, .parents)
        }
        // Sensitive events: in the title, the place or the description, beside a moment.
        let disqualifiers = Whitelist.bundled.disqualifiers
        for _ in 0..<Int.random(in: 6...10, using: &rng) {
            let d = disqualifiers.randomElement(using: &rng)!.text
            let n = written(name[ids.randomElement(using: &rng)!]!, &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: oneOff("\(d.prefix(1).uppercased() + d.dropFirst()) \(n)", .disqualified)
            case 1: oneOff("\(weeklyActivities.randomElement(using: &rng)!) \(n) puis \(d)", .disqualified)
            case 2: oneOff("Anniversaire de mamie à l'hôpital", .disqualified)
            case 3: oneOff(forOne(childOneOffs.randomElement(using: &rng)!, name[1]!, &rng), .disqualified, location: "\(d) Saint-Louis")
            default: oneOff(familyOneOffs.randomElement(using: &rng)!, .disqualified, description: "avant le \(d)")
            }
        }
        for _ in 0..<3 { oneOff(unlabeledTitles.randomElement(using: &rng)!, .unlabeled) }
        return (children, events)
    }

    /// A start or end in seconds since the epoch (UTC; local midnight for a date).
    static func seconds(_ t: EventTime) -> Int64 {
        switch t {
        case .instant(let s): s
        case .date(let d): Int64(d.daysSinceEpoch) * day
        }
    }

    /// Every occurrence through the privacy filter, as ingest does (one classification per event,
    /// one decision per occurrence); the moments as the desk makes card candidates of them. Checks
    /// on the way that the filter decided what the title's truth says.
    static func moments(_ events: [Event], family: [FamilyMember], seed: UInt64)
        -> (moments: [CardMoment], owner: [EventReference: Owner], titles: [EventReference: String])
    {
        let filter = PrivacyFilter(family: family)
        var moments: [CardMoment] = []
        var owner: [EventReference: Owner] = [:]
        var titles: [EventReference: String] = [:]
        for (k, e) in events.enumerated() {
            let c = filter.classify(title: e.title, location: e.location, description: e.description)
            let shown = e.title.unicodeScalars.map { $0.isASCII || $0.properties.isAlphabetic ? String($0) : String(format: "\\u{%X}", $0.value) }.joined()
            let about = "seed \(seed): '\(shown)' (\(e.owner))"
            switch e.owner {
            case .child(let id): #expect(c.decision == .moment && c.children == [id], "\(about): \(c.decision) for \(c.children)")
            case .both: #expect(c.decision == .moment && c.children == [1, 2], "\(about): \(c.decision) for \(c.children)")
            case .family: #expect(c.decision == .moment && c.children.isEmpty, "\(about): \(c.decision) for \(c.children)")
            case .birthdayOf(let id):
                let registered = family.first { $0.id == id }!.firstName
                #expect(c.decision == .moment && c.children.isEmpty && c.firstName == registered, "\(about): \(c.decision) \(c.firstName ?? "-")")
            case .parents: #expect(c.decision == .disqualified && c.rule?.hasPrefix("P") == true, "\(about): \(c.decision) \(c.rule ?? "-")")
            case .disqualified: #expect(c.decision == .disqualified && c.rule?.hasPrefix("D") == true, "\(about): \(c.decision) \(c.rule ?? "-")")
            case .unlabeled: #expect(c.decision == .unlabeled, "\(about): \(c.decision)")
            }
            for span in e.spans {
                let o = Occurrence(uid: "sim-\(seed)-\(k)@example.org", summary: e.title, location: e.location,
                                   eventDescription: e.description, start: span.start, end: span.end,
                                   isRecurring: e.recurring, source: SourceLocation(file: "sim.ics", line: k))
                owner[o.eventReference] = e.owner
                titles[o.eventReference] = shown
                guard case .moment(let m) = filter.decision(for: o, classification: c) else { continue }
                moments.append(CardMoment(
                    key: OccurrenceKey(event: m.eventReference, start: m.start),
                    moment: MomentPhrase(phrase: m.phrase, grammar: m.grammar, friendName: m.firstName, kind: m.kind),
                    start: m.start, startSeconds: seconds(m.start), end: m.end, endSeconds: seconds(m.end),
                    isRecurring: m.isRecurring, children: m.children))
            }
        }
        return (moments, owner, titles)
    }

    // MARK: - Sixty days

    /// How often each rule had something to catch: the test must not pass for want of cases.
    struct Exercised: CustomStringConvertible {
        var otherChildsInWindow = 0, ownBirthdayInWindow = 0, siblingBirthdayOffered = 0, parentsTitles = 0,
            disqualifiedTitles = 0, samePhraseTwice = 0, weeklyCapped = 0, coming = 0, comingOneOffBeforeWeekly = 0,
            weeksWithOneOff = 0, multiDayGoingOn = 0, picks = 0
        var description: String {
            "other child's in window \(otherChildsInWindow), own birthday in window \(ownBirthdayInWindow), sibling's birthday offered \(siblingBirthdayOffered), "
                + "parents' titles \(parentsTitles), disqualified titles \(disqualifiedTitles), same phrase twice \(samePhraseTwice), "
                + "weekly capped \(weeklyCapped), coming \(coming), coming one-off before a weekly one \(comingOneOffBeforeWeekly), "
                + "weeks with a one-off \(weeksWithOneOff), multi-day going on \(multiDayGoingOn), picks \(picks)"
        }
    }

    @Test("60 days of a two-child family: the cards follow the titles' truth through the privacy filter",
          arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func sixtyDays(seed: UInt64) {
        var rng = SeededGenerator(seed: 0x5EED_F11E_0000 + seed)
        let (children, events) = Self.calendar(&rng)
        let family = children.map { FamilyMember(id: $0.id!, firstName: $0.firstName) }
        let (moments, owner, titles) = Self.moments(events, family: family, seed: seed)
        var seen = Exercised()
        seen.parentsTitles = events.filter { $0.owner == .parents }.count
        seen.disqualifiedTitles = events.filter { $0.owner == .disqualified }.count
        let phraseOf = Dictionary(moments.map { ($0.key, Self.folded($0.moment.phrase)) }, uniquingKeysWith: { a, _ in a })
        var history: [Int64: [CardChoice.Had]] = [1: [], 2: []]
        // Per child and week: whether a one-off moment was eligible one day, and offered one day.
        var weekEligible: Set<[Int64]> = [], weekOffered: Set<[Int64]> = []

        for simulated in 0..<60 {
            let now = Int64(Self.today + simulated) * Self.day + 17 * Self.hour
            for child in children {
                let id = child.id!, other = 3 - id
                let own = Self.folded(child.firstName), otherName = Self.folded(children[Int(other) - 1].firstName)
                let had = history[id]!
                let at = "seed \(seed), day \(simulated), \(child.firstName) (\(id))"
                func truth(_ m: CardMoment) -> Owner { owner[m.key.event]! }
                // Eligibility from the truth, written apart from CardChoice.
                func allowed(_ m: CardMoment) -> Bool {
                    switch truth(m) {
                    case .child(let c): c == id
                    case .both, .family, .birthdayOf(other): true
                    default: false
                    }
                }
                let hadKeys = Set(had.map(\.key))
                let recentSeries = Set(had.filter { now - $0.atSeconds < 14 * Self.day }.map(\.key.event))
                func inWindow(_ m: CardMoment) -> Bool { m.startSeconds > now || now - min(m.endSeconds, now) <= 30 * Self.day }
                func soon(_ m: CardMoment) -> Bool { m.startSeconds > now && m.startSeconds - now <= 7 * Self.day }
                func goingOnMultiDay(_ m: CardMoment) -> Bool { m.isMultiDay && m.startSeconds <= now && now < m.endSeconds }
                let window = moments.filter(inWindow)
                let eligible = window.filter { allowed($0) && !hadKeys.contains($0.key) && !recentSeries.contains($0.key.event) }
                seen.otherChildsInWindow += window.filter { truth($0) == .child(other) }.count
                seen.ownBirthdayInWindow += window.filter { truth($0) == .birthdayOf(id) && !hadKeys.contains($0.key) }.count
                if Set(eligible.map { phraseOf[$0.key]! }).count < eligible.count { seen.samePhraseTwice += 1 }

                let cards = Array(CardChoice.order(moments, child: child, now: now, history: had).prefix(CardChoice.count))
                let cardPhrases = cards.map { phraseOf[$0.key]! }
                for m in cards {
                    let whose = truth(m)
                    let about = "\(at): card '\(m.moment.phrase)' from '\(titles[m.key.event]!)' (\(whose))"
                    // Never the other child's moment, a parents' or sensitive or unnamed event.
                    #expect(whose != .child(other), "\(about): the other child's moment")
                    #expect(![.parents, .disqualified, .unlabeled].contains(whose), "\(about): not a children's moment")
                    // Never the child's own birthday; the other child's name only as the slot of
                    // that child's own birthday (the family's, which the sibling may get).
                    #expect(whose != .birthdayOf(id), "\(about): the child's own birthday")
                    let w = Self.words(m.moment.phrase)
                    #expect(!w.contains(own), "\(about): the phrase names the child")
                    #expect(!w.contains(otherName) || whose == .birthdayOf(other), "\(about): the phrase names the other child")
                    if whose == .birthdayOf(other) { seen.siblingBirthdayOffered += 1 }
                    // And nothing the child already had, nor the same series within 14 days.
                    #expect(!hadKeys.contains(m.key) && !recentSeries.contains(m.key.event), "\(about): had it")
                }
                // Three distinct phrases, or as many as can be offered.
                #expect(Set(cardPhrases).count == cards.count, "\(at): the same phrase twice: \(cardPhrases)")
                #expect(cards.count == min(CardChoice.count, Set(eligible.map { phraseOf[$0.key]! }).count), "\(at): \(cards.count) cards")
                // One weekly activity at most while one-off moments can fill the cards: with L the
                // eligible one-off phrases that no weekly card already has, weekly cards <= max(1, 3 - |L|).
                let weeklyCards = cards.filter(\.isRecurring)
                let oneOffLeft = Set(eligible.filter { !$0.isRecurring }.map { phraseOf[$0.key]! })
                    .subtracting(weeklyCards.map { phraseOf[$0.key]! })
                if !oneOffLeft.isEmpty, Set(eligible.filter(\.isRecurring).map { phraseOf[$0.key]! }).count >= 2 { seen.weeklyCapped += 1 }
                #expect(weeklyCards.count <= max(1, CardChoice.count - oneOffLeft.count),
                        "\(at): \(weeklyCards.count) weekly cards with \(oneOffLeft.count) one-off phrases eligible")
                // A coming moment within 7 days gets a card: a one-off one always (unless a holiday
                // going on has its phrase); a weekly one when the one weekly place is still free
                // (the child's own activity comes first).
                if eligible.contains(where: soon) {
                    seen.coming += 1
                    if !weeklyCards.contains(where: { !soon($0) }) || eligible.contains(where: { soon($0) && !$0.isRecurring }) {
                        #expect(cards.contains(where: soon), "\(at): no card for a coming moment")
                    }
                    let livedPhrases = Set(cards.filter(goingOnMultiDay).map { phraseOf[$0.key]! })
                    if eligible.contains(where: { soon($0) && !$0.isRecurring && !livedPhrases.contains(phraseOf[$0.key]!) }) {
                        if eligible.contains(where: { soon($0) && $0.isRecurring }) { seen.comingOneOffBeforeWeekly += 1 }
                        #expect(cards.contains { soon($0) && !$0.isRecurring }, "\(at): no card for a coming one-off moment")
                    }
                }
                // A holiday going on gets a card.
                if eligible.contains(where: goingOnMultiDay) {
                    seen.multiDayGoingOn += 1
                    #expect(cards.contains(where: goingOnMultiDay), "\(at): no card for the holiday going on")
                }
                let week = Int64(simulated / 7)
                if eligible.contains(where: { !$0.isRecurring }) { weekEligible.insert([id, week]) }
                if cards.contains(where: { !$0.isRecurring }) { weekOffered.insert([id, week]) }

                // The child picks a card most days (served now): the second child any card, the
                // first never a multi-day one (so that a holiday stays offered while it goes on).
                let pickable = id == 1 ? cards.filter { !$0.isMultiDay } : cards
                if Int.random(in: 0..<5, using: &rng) != 0, let pick = pickable.randomElement(using: &rng) {
                    history[id]!.append(CardChoice.Had(key: pick.key, atSeconds: now))
                    seen.picks += 1
                }
            }
        }
        // Each week, each child was offered a one-off moment when one was eligible that week.
        for key in weekEligible.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            #expect(weekOffered.contains(key), "seed \(seed), child \(key[0]), week \(key[1]): no one-off moment offered")
        }
        seen.weeksWithOneOff = weekEligible.count
        // Every rule had cases to catch.
        #expect(seen.otherChildsInWindow > 0 && seen.ownBirthdayInWindow > 0 && seen.siblingBirthdayOffered > 0
                && seen.parentsTitles > 0 && seen.disqualifiedTitles > 0 && seen.samePhraseTwice > 0 && seen.weeklyCapped > 0
                && seen.coming > 0 && seen.comingOneOffBeforeWeekly > 0 && seen.weeksWithOneOff > 0 && seen.multiDayGoingOn > 0
                && seen.picks > 0, "seed \(seed): \(seen)")
    }
}
