import Dictation
import DicteeCore
import Foundation
import Generation
import Ingest
import Store

extension Desk {
    /// The next `count` dictations of the child, dealt and served exactly as `count` picks of the
    /// first card would be (`dictee cards` then `dictee pick --child NAME 1`, repeated): each
    /// round deals the cards (``cards(for:_:now:zone:createdAt:makeSession:)``: the deal that
    /// still holds, else a new one, a missing text written by the library) and serves card 1
    /// (``pick(_:card:_:at:zone:)``), so the next round's deal leaves that occurrence out. A card
    /// set aside on the way (its moment left the calendar, or its text was written for another
    /// day) is dealt again, as `dictee pick` asks the child to choose again.
    ///
    /// Printing a week of sheets serves them: they are the child's next dictations, each waits
    /// for its grade (`dictee grade ID`), and the next deals do not offer them again.
    ///
    /// - Parameters:
    ///   - child: the child (with its state id).
    ///   - count: how many dictations, at least 1.
    ///   - store: the state; one transaction per deal and per pick.
    ///   - now: "now", whole seconds since 1970: the deal's moments are placed from it, the texts
    ///     written then, and the dictations served then.
    ///   - zone: the family's zone.
    ///   - makeSession: builds the library session, only when a text must be written.
    /// - Returns: the served dictations in the order they were dealt; fewer than `count` (possibly
    ///   none) when no more moment can be offered.
    /// - Throws: what ``cards(for:_:now:zone:createdAt:makeSession:)`` and
    ///   ``pick(_:card:_:at:zone:)`` throw; the dictations served before stay served.
    public static func nextReady(for child: Child, count: Int, _ store: StateStore, now: Int64, zone: CalendarZone,
                                 makeSession: () throws(HouseholdError) -> GenerationSession) throws(HouseholdError) -> [DictationRecord] {
        let date = Date(timeIntervalSince1970: TimeInterval(now))
        var served: [DictationRecord] = []
        // Each set-aside card is retired, so the rounds end; the bound is a second guard.
        var rounds = 0
        while served.count < count, rounds < 4 * count + CardChoice.count {
            rounds += 1
            let cards = try cards(for: child, store, now: now, zone: zone, createdAt: date, makeSession: makeSession)
            guard let first = cards.first?.card else { break }
            switch try pick(child, card: first, store, at: date, zone: zone) {
            case .served(let d): served.append(d)
            case .momentLeft, .dayChanged: continue
            }
        }
        return served
    }

    /// A stored dictation as printed: its sheet with the mots donnés
    /// (``motsDonnes(_:child:_:validator:)``) and its day in `zone`. The one rendering `dictee show`
    /// and `dictee sheets` both print.
    /// - Parameters:
    ///   - d: the dictation.
    ///   - child: its child.
    ///   - store: the state (the moment's friend name).
    ///   - zone: the zone of its date.
    ///   - validator: the validator (its lexicon and Hunspell).
    /// - Returns: the sheet.
    /// - Warning: the sheet holds the child's first name; print it, never log it.
    public static func printable(_ d: DictationRecord, child: Child, _ store: StateStore, zone: CalendarZone, validator: Validator) -> DictationSheet {
        sheet(d, child: child, zone: zone, motsDonnes: motsDonnes(d, child: child, store, validator: validator))
    }
}
