import DicteeCore
import French
import Foundation

/// When the moment of a dictation is, seen from the day the text is written: what the text may
/// say of its day ("samedi", "avant-hier", "samedi dernier"), which tense tells it, and what the validator's
/// `moment_date` rule checks. All days are calendar days in the family's zone.
///
/// A text written on Tuesday 1 December about a judo lesson of Saturday 28 November says
/// "samedi dernier" and the passé composé; one about a concert of Saturday 5 December says
/// "samedi" and the futur; one written on Saturday 5 December about Wednesday 2, "mercredi". The child knows what day it was: the text must agree.
public struct MomentDate: Sendable, Hashable {
    /// The occurrence's first day (its start in the family's zone).
    public var start: CalendarDate
    /// The occurrence's last day (the same as `start` for a moment within one day; for an
    /// all-day or several-day moment, the last day it covers).
    public var end: CalendarDate
    /// The day the dictation is written (and, for a nightly text, dealt the same day).
    public var written: CalendarDate
    /// Whether the moment has begun when the text is written (`past`: told after it, a moment of
    /// several days going on included) or not (`upcoming`).
    public var time: MomentTime

    /// - Parameters:
    ///   - start: the first day of the occurrence.
    ///   - end: its last day (`start` or later; an earlier one is taken as `start`).
    ///   - written: the day the text is written.
    ///   - time: whether the moment has begun by then.
    public init(start: CalendarDate, end: CalendarDate, written: CalendarDate, time: MomentTime) {
        self.start = start
        self.end = max(start, end)
        self.written = written
        self.time = time
    }

    /// Days from the writing day to the first day: −3 for last Saturday seen on a Tuesday, 0 for
    /// the same day, 4 for the coming Saturday.
    public var offset: Int { start.daysSinceEpoch - written.daysSinceEpoch }

    /// Whether the moment covers several days and the writing day is one of them after the first.
    public var isGoingOn: Bool { start < written && written <= end }

    /// The days the text may name by their weekday: the first day, and every day of a moment of
    /// several days (at most a week of them).
    public var days: [CalendarDate] {
        let count = min(end.daysSinceEpoch - start.daysSinceEpoch, 6)
        return (0...max(0, count)).map { start.adding(days: $0) }
    }

    /// The weekday of `date` in French, lower case: "samedi".
    public static func weekday(of date: CalendarDate) -> String {
        FrenchWords.weekdays[mondayIndex(of: date)]
    }

    /// The day of the week of `date`, 0 for Monday to 6 for Sunday (1970-01-01 was a Thursday).
    static func mondayIndex(of date: CalendarDate) -> Int {
        ((date.daysSinceEpoch + 3) % 7 + 7) % 7
    }

    /// The month of `date` in French, lower case: "novembre".
    public static func month(of date: CalendarDate) -> String {
        FrenchWords.monthNames[(date.month - 1 + 12) % 12]
    }

    /// The moment's weekday: "samedi" (the `{jour}` mark of the library).
    public var weekday: String { Self.weekday(of: start) }

    /// How the text names the moment's day (the `{quand}` mark of the library), lower case, as
    /// a child would say it on the writing day:
    /// - the writing day: "aujourd'hui"; the day before: "hier"; the day after: "demain"; two
    ///   days before: "avant-hier"; two days after: "après-demain";
    /// - 3 to 6 days ahead: the weekday alone, "samedi" ("jeudi prochain" said on a Sunday
    ///   reads as a week further, as teachers noted); 3 to 6 days back: the weekday alone earlier
    ///   the same week (Monday to Sunday: "mardi" said on Saturday, told in the past), "jeudi
    ///   dernier" in the week before (a bare "jeudi" said on Wednesday is heard as tomorrow);
    /// - 7 days before: "samedi dernier" (said on a Saturday, last week's); 7 days ahead:
    ///   "samedi prochain" (next week's);
    /// - 8 days or more away: "samedi 14 novembre" (the 1st is "samedi 1er novembre").
    ///
    /// The phrase changes from one day to the next near the moment: a waiting text that names its
    /// day is retired when it would now be said otherwise (`Desk`), so a child never reads
    /// "demain" about today.
    public var dayPhrase: String {
        switch offset {
        case 0: return "aujourd'hui"
        case -1: return "hier"
        case 1: return "demain"
        case -2: return "avant-hier"
        case 2: return "après-demain"
        case 3...6: return weekday
        // Earlier this week (Monday to Sunday), the weekday alone: "mardi" said on Saturday;
        // in the week before, "jeudi dernier" (a "jeudi" said on Wednesday is heard as tomorrow).
        case -6 ... -3: return Self.mondayIndex(of: written) + offset >= 0 ? weekday : weekday + " dernier"
        case -7: return weekday + " dernier"
        case 7: return weekday + " prochain"
        default: return datedPhrase
        }
    }

    /// The moment's first day by its date: "samedi 14 novembre" (the 1st is "samedi 1er
    /// novembre"), true seen from any day.
    public var datedPhrase: String {
        weekday + " " + (start.day == 1 ? "1er" : String(start.day)) + " " + Self.month(of: start)
    }

    /// How a story told in the passé simple names the day: `dayPhrase`, except that the days
    /// said from the writing day ("aujourd'hui", "hier", "demain", "avant-hier", "après-demain")
    /// become the date, since the
    /// passé simple is not anchored to the moment one speaks ("Samedi 28 novembre, il partit",
    /// not "Hier, il partit").
    public var narrativeDayPhrase: String {
        (-2...2).contains(offset) ? datedPhrase : dayPhrase
    }

    /// Whether `text` says `dayPhrase`, in whole words and any case ("Hier, Léa…" names "hier";
    /// "son panier" does not).
    public func isNamed(in text: String) -> Bool {
        let spaced = String(text.lowercased().map { $0 == "’" ? "'" : ($0.isLetter || $0.isNumber || $0 == "'" || $0 == "-" ? $0 : " ") })
        return (" " + spaced.split(separator: " ").joined(separator: " ") + " ").contains(" " + dayPhrase + " ")
    }

    /// The seasons of the moment's first day (a school reading: winter from 21 December to 20
    /// March and so on; a day within three weeks of a boundary has both seasons: early December
    /// is already "l'hiver" to a child), lower case: "hiver".
    public var seasons: Set<String> {
        func season(_ d: CalendarDate) -> String {
            switch (d.month, d.day) {
            case (12, 21...), (1, _), (2, _), (3, ...19): "hiver"
            case (3, _), (4, _), (5, _), (6, ...20): "printemps"
            case (6, _), (7, _), (8, _), (9, ...21): "été"
            default: "automne"
            }
        }
        return Set([-21, 0, 21].map { season(start.adding(days: $0)) })
    }
}
