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

    public init(key: OccurrenceKey, moment: MomentPhrase, start: EventTime, startSeconds: Int64) {
        self.key = key
        self.moment = moment
        self.start = start
        self.startSeconds = startSeconds
    }
}

/// Which moments the cards offer, in which order (Docs/domain.md §8; README "dictee cards"): the recent past first
/// (the most recent first), then the upcoming ones (the soonest first); never two cards for the
/// same moment.
public enum CardChoice {
    /// Cards offered at once.
    public static let count = 3
    /// How far back a moment is "recent", in days (a proposal: a child remembers the last month).
    public static let recentDays: Int64 = 30

    /// The candidate moments for a child's cards, best first.
    ///
    /// - A moment that started at or before `now` is past; it is kept when it started within
    ///   `recentDays` days. Past moments come first, the most recent first; then upcoming ones,
    ///   the soonest first (ties by key).
    /// - Never two candidates with the same phrase (case and apostrophes aside): the weekly "le
    ///   cours de judo" appears once, at its best place.
    /// - Left out: occurrences in `excluded` (already served to the child), and a moment whose
    ///   friend slot holds the child's own first name ("l'anniversaire de Léa" for Léa: no text is
    ///   written for it yet).
    /// - Parameters:
    ///   - moments: every stored moment.
    ///   - child: the child the cards are for.
    ///   - now: seconds since the epoch.
    ///   - excluded: occurrence keys not to offer again.
    /// - Returns: the ordered candidates (any number; the caller takes the first that can be served).
    public static func order(_ moments: [CardMoment], child: Child, now: Int64, excluded: Set<OccurrenceKey> = []) -> [CardMoment] {
        let own = child.firstName.lowercased()
        let eligible = moments.filter { m in
            !excluded.contains(m.key)
                && m.moment.friendName?.lowercased() != own
                && !namesChild(m.moment.phrase, own)
                && (m.startSeconds > now || now - m.startSeconds <= recentDays * 86_400)
        }
        let past = eligible.filter { $0.startSeconds <= now }.sorted { ($1.startSeconds, $0.key) < ($0.startSeconds, $1.key) }
        let upcoming = eligible.filter { $0.startSeconds > now }.sorted { ($0.startSeconds, $0.key) < ($1.startSeconds, $1.key) }
        var seen = Set<String>()
        return (past + upcoming).filter { seen.insert(phraseKey($0.moment.phrase)).inserted }
    }

    /// Whether a phrase names the child (a parent's label such as "l'anniversaire de Léa" has no
    /// friend slot): the first name as a whole word, any case, also after an elision.
    static func namesChild(_ phrase: String, _ lowercasedName: String) -> Bool {
        phrase.lowercased().replacingOccurrences(of: "’", with: "'")
            .split(whereSeparator: { !$0.isLetter && $0 != "-" })
            .contains { $0 == lowercasedName || $0.hasSuffix("'" + lowercasedName) }
    }

    /// Whether a moment is upcoming at `now`.
    public static func isUpcoming(_ m: CardMoment, now: Int64) -> Bool { m.startSeconds > now }

    /// The identity of a moment for "never two cards for the same moment".
    static func phraseKey(_ phrase: String) -> String {
        phrase.replacingOccurrences(of: "’", with: "'").lowercased().trimmingCharacters(in: .whitespaces)
    }
}
