import DicteeCore
import Foundation

/// An approved moment a card could be about: one stored occurrence that passed the privacy filter
/// (or the parent's label), as its canonical phrase.
public struct CardMoment: Sendable, Hashable {
    /// The occurrence, unique per card candidate.
    public var key: OccurrenceKey
    /// The moment as the text will name it.
    public var moment: MomentPhrase
    /// The occurrence's start (a date for all-day ones).
    public var start: EventTime
    /// The start in seconds since the epoch (local midnight for an all-day occurrence), for
    /// ordering and for telling the past from the upcoming.
    public var startSeconds: Int64
    /// The occurrence's end (for an all-day one, the exclusive date: RFC 5545 section 3.6.1).
    public var end: EventTime
    /// The end in seconds since the epoch (local midnight of the exclusive end date for an
    /// all-day occurrence).
    public var endSeconds: Int64
    /// Whether the occurrence belongs to a recurring series (a weekly activity); the series is
    /// its event reference (`key.event`).
    public var isRecurring: Bool
    /// The ids of the children the moment belongs to, in the state; empty: the whole family's.
    public var children: [Int64]

    /// - Parameters:
    ///   - key: the occurrence.
    ///   - moment: its phrase.
    ///   - start: its start, and `startSeconds` the same in seconds since the epoch.
    ///   - end: its end, and `endSeconds` the same in seconds since the epoch; give both or
    ///     neither (`nil`: the start, a moment without duration).
    ///   - isRecurring: whether it is an occurrence of a recurring series.
    ///   - children: the ids of the children it belongs to; empty (the default): the family's.
    public init(key: OccurrenceKey, moment: MomentPhrase, start: EventTime, startSeconds: Int64,
                end: EventTime? = nil, endSeconds: Int64? = nil, isRecurring: Bool = false, children: [Int64] = []) {
        self.key = key
        self.moment = moment
        self.start = start
        self.startSeconds = startSeconds
        self.end = end ?? start
        self.endSeconds = endSeconds ?? startSeconds
        self.isRecurring = isRecurring
        self.children = children
    }

    /// Whether the occurrence spans several days (holidays, a classe verte, a colonie, a stage):
    /// an all-day occurrence over 2 dates or more, or a timed one longer than 24 hours
    /// (Docs/domain.md §8).
    public var isMultiDay: Bool {
        if case .date(let first) = start, case .date(let after) = end {
            return after.daysSinceEpoch - first.daysSinceEpoch >= 2
        }
        return endSeconds - startSeconds > 86_400
    }

    /// The end in seconds, never before the start (a malformed end counts as the start).
    var lastSeconds: Int64 { max(startSeconds, endSeconds) }
}

/// Which moments a child's cards offer, in which order (Docs/domain.md §8; README "dictee cards").
///
/// Pure and deterministic: the same moments, child, `now` and history give the same list, whatever
/// the input order; times are whole seconds since the epoch, given by the caller.
public enum CardChoice {
    /// Cards offered at once.
    public static let count = 3
    /// How long a moment stays "recent" after its end, in days (a proposal: a child remembers the
    /// last month). A multi-day moment counts from its end too, so holidays stay for a month after
    /// the return.
    public static let recentDays: Int64 = 30
    /// How far ahead a coming moment earns its card, in days (a week: the child can look forward
    /// to it).
    public static let comingDays: Int64 = 7
    /// How long after the child had one occurrence of a series no occurrence of it is offered, in
    /// days (two weeks: one judo text a fortnight at most).
    public static let seriesDays: Int64 = 14

    /// One dictation the child had (served or graded): which occurrence, and when.
    public struct Had: Sendable, Hashable {
        /// The occurrence the dictation was about.
        public var key: OccurrenceKey
        /// When the child had it (served), in seconds since the epoch.
        public var atSeconds: Int64

        public init(key: OccurrenceKey, atSeconds: Int64) {
            self.key = key
            self.atSeconds = atSeconds
        }
    }

    /// The candidate moments for a child's cards, best first: the first `count` are the cards,
    /// the rest follow in the order they should replace a card that cannot be written.
    ///
    /// Offered to the child (everything else is left out):
    /// - a moment of the child's (`children` contains `child.id`) or of the whole family's
    ///   (`children` empty); never another child's (a child without an id gets family moments
    ///   only);
    /// - never a moment whose friend slot holds the child's own first name, nor one whose phrase
    ///   names the child as a word ("l'anniversaire de Léa" for Léa), case, accents and
    ///   apostrophes aside ("Ines" is "Inès");
    /// - never an occurrence the child already had (in `history`), and no occurrence of a series
    ///   (same event reference) within `seriesDays` days after the child had one of it;
    /// - a moment going on at `now` (started, not ended), one that ended at most `recentDays` days
    ///   ago, or a coming one. A multi-day moment is thus offered during it and for `recentDays`
    ///   days after its end.
    ///
    /// The base order: first the past and ongoing moments, the most recent first (by the
    /// moment's end, or `now` while it is going on; then the later start; then the key), then
    /// the coming ones, the soonest first (then the key).
    ///
    /// The cards (the first `count`), chosen in this order, each time the first fitting one:
    /// 1. a multi-day moment going on at `now`, if there is one (the holiday the child is living);
    /// 2. the soonest coming one-off moment within `comingDays` days, if there is one (a
    ///    birthday next Saturday is offered before it happens);
    /// 3. the child's own moment (`children` not empty: a title naming the child or its grade, or a label given for it), the
    ///    first in the base order, if there is one (the dictation is about her moment, so a sister
    ///    and a brother with the same family calendar get different cards when their own
    ///    activities are in it);
    /// 4. without a coming one-off moment, the soonest coming recurring one within `comingDays`
    ///    days, if it fits (after the child's own, so that the family's swimming next week cannot
    ///    take the one weekly place from the child's own judo);
    /// 5. the rest in the base order.
    ///
    /// A moment fits when no card chosen before has its phrase (never two cards for the same
    /// moment: the weekly "le cours de judo" appears once), and, for a recurring one, when no
    /// recurring moment is chosen yet or no one-off moment is left to choose (at most one weekly
    /// activity among the cards while one-off moments can fill them; recurring ones fill the
    /// cards rather than leave one empty). The cards are then shown in the base order (the past
    /// first). The rest of the list continues the same choice (step 5 with the same fit: once a
    /// recurring moment is chosen, the one-off moments left come first, then the recurring ones,
    /// each in the base order); an occurrence whose phrase is already in the list is left out.
    ///
    /// Why this order: the child recognises what was lived lately (recency first), a holiday in
    /// progress outweighs an ordinary day, a coming event is only worth a dictation before it
    /// happens, a moment that is the child's own is the one she remembers best, and weekly
    /// activities are many and alike, so they get one card at most. The
    /// caller takes the candidates in order and skips one that cannot be written, so when a
    /// card's text cannot be written the next candidate keeps the rules as far as it can.
    /// - Parameters:
    ///   - moments: every stored moment.
    ///   - child: the child the cards are for (its `id` for `children`, its first name).
    ///   - now: seconds since the epoch.
    ///   - history: the dictations the child had (served or graded), with when.
    /// - Returns: the ordered candidates (any number, each phrase once).
    public static func order(_ moments: [CardMoment], child: Child, now: Int64, history: [Had] = []) -> [CardMoment] {
        let had = Set(history.map(\.key))
        let blockedSeries = Set(history.filter { now - $0.atSeconds < seriesDays * 86_400 }.map(\.key.event))
        let own = LooseMatch.fold(child.firstName)
        let pool = moments
            .filter { m in
                (m.startSeconds > now || now - min(m.lastSeconds, now) <= recentDays * 86_400)
                    && !had.contains(m.key)
                    && !blockedSeries.contains(m.key.event)
                    && isForChild(m, child)
                    && m.moment.friendName.map(LooseMatch.fold) != own
                    && !LooseMatch.names(m.moment.phrase, firstName: child.firstName)
            }
            .sorted { precedes($0, $1, now: now) }

        var choice = Choice(pool)
        // 1. A multi-day moment going on.
        choice.take { $0.isMultiDay && $0.startSeconds <= now && now < $0.lastSeconds }
        // 2. The soonest coming one-off moment within a week.
        let soon = { (m: CardMoment) in m.startSeconds > now && m.startSeconds - now <= comingDays * 86_400 }
        let comingOneOff = choice.take { soon($0) && !$0.isRecurring }
        // 3. The child's own moment (a title naming the child or its grade, or a label given for it), in the base order:
        //    her Saturday, not only the family's. Before a coming weekly activity, so that the
        //    family's swimming next week cannot take the one weekly place from the child's judo.
        choice.take { !$0.children.isEmpty }
        // 4. Without a coming one-off moment, the soonest coming weekly activity, if it fits.
        if !comingOneOff { choice.take(soon) }
        // 5. The rest, in the base order.
        while choice.take({ _ in true }) {}

        let cards = choice.chosen.prefix(count).sorted { precedes($0, $1, now: now) }
        return cards + choice.chosen.dropFirst(count)
    }

    /// The choice in progress: the chosen candidates, the rest in the base order (each with its
    /// phrase's identity).
    private struct Choice {
        var chosen: [CardMoment] = []
        var rest: [(moment: CardMoment, phrase: String)]
        var phrases: Set<String> = []
        var hasRecurring = false
        /// The phrases of one-off moments still to choose.
        var oneOffPhrases: Set<String>

        init(_ pool: [CardMoment]) {
            rest = pool.map { ($0, CardChoice.phraseKey($0.moment.phrase)) }
            oneOffPhrases = Set(rest.filter { !$0.moment.isRecurring }.map(\.phrase))
        }

        /// Whether a candidate may be chosen next: a new phrase, and a recurring one only as the
        /// first or when no one-off moment is left.
        func fits(_ m: CardMoment, _ phrase: String) -> Bool {
            if phrases.contains(phrase) { return false }
            return !m.isRecurring || !hasRecurring || oneOffPhrases.isEmpty
        }

        /// Chooses the first fitting candidate of the rest that satisfies `wanted`.
        /// - Returns: whether one was chosen.
        @discardableResult
        mutating func take(_ wanted: (CardMoment) -> Bool) -> Bool {
            guard let i = rest.firstIndex(where: { fits($0.moment, $0.phrase) && wanted($0.moment) }) else { return false }
            let (m, phrase) = rest.remove(at: i)
            chosen.append(m)
            phrases.insert(phrase)
            oneOffPhrases.remove(phrase)
            if m.isRecurring { hasRecurring = true }
            // Other occurrences of the phrase can no longer be chosen.
            rest.removeAll { $0.phrase == phrase }
            return true
        }
    }

    /// The base order: past and ongoing first, the most recent first (end, or `now` while going
    /// on; then the later start; then the key); then the coming ones, the soonest first (then the
    /// key).
    static func precedes(_ a: CardMoment, _ b: CardMoment, now: Int64) -> Bool {
        let aPast = a.startSeconds <= now, bPast = b.startSeconds <= now
        if aPast != bPast { return aPast }
        if aPast {
            let aLast = min(a.lastSeconds, now), bLast = min(b.lastSeconds, now)
            if aLast != bLast { return aLast > bLast }
            if a.startSeconds != b.startSeconds { return a.startSeconds > b.startSeconds }
            return a.key < b.key
        }
        if a.startSeconds != b.startSeconds { return a.startSeconds < b.startSeconds }
        return a.key < b.key
    }

    /// Whether a moment may go to `child`: the family's (no children), or one of the child's.
    static func isForChild(_ m: CardMoment, _ child: Child) -> Bool {
        if m.children.isEmpty { return true }
        guard let id = child.id else { return false }
        return m.children.contains(id)
    }

    /// Whether a moment is upcoming at `now`.
    public static func isUpcoming(_ m: CardMoment, now: Int64) -> Bool { m.startSeconds > now }

    /// The identity of a moment for "never two cards for the same moment" (`LooseMatch.fold`).
    static func phraseKey(_ phrase: String) -> String { LooseMatch.fold(phrase) }
}
