import Dictation
import DicteeCore
import Foundation
import French
import Generation
import Ingest
import PrivacyFilter
import Store

/// The loop around the writing, shared by the cards, pick, show, grade and skills commands and by
/// the nightly run: the child's skill states replayed from the stored exposures, the planner's
/// input, the deal of three cards backed by validated dictations, the pick and the grading.
///
/// Every step is one transaction of the store; nothing here prints.
public enum Desk {
    /// A stored child by first name (any case; accents may be left out when only one child matches: "lea" is Léa).
    /// - Throws: `HouseholdError.unknownChild` (the name is not repeated), `.state`.
    public static func child(named name: String, _ store: StateStore) throws(HouseholdError) -> Child {
        let children: [Child]
        do { children = try store.children() } catch { throw .state(error) }
        if let child = children.first(where: { $0.firstName.lowercased() == name.lowercased() }) { return child }
        // Typed without its accents ("lea", "Ines"), as the filter reads titles: when only one
        // child matches.
        let loose = children.filter { LooseMatch.fold($0.firstName) == LooseMatch.fold(name) }
        if loose.count == 1 { return loose[0] }
        // No name in the message, not even the nearest one (Docs/style.md): the list is one
        // command away.
        throw .unknownChild(hasChildren: !children.isEmpty)
    }

    /// A stored dictation with its child.
    /// - Throws: `HouseholdError.state(.dictation(.unknownDictation))` for an unknown id.
    public static func dictation(_ id: Int64, _ store: StateStore) throws(HouseholdError) -> (dictation: DictationRecord, child: Child) {
        let found: DictationRecord?
        let children: [Child]
        do {
            found = try store.dictation(id: id)
            children = try store.children()
        } catch {
            throw .state(error)
        }
        guard let d = found, let c = children.first(where: { $0.id == d.childID }) else {
            throw .state(.dictation(.unknownDictation(id)))
        }
        return (d, c)
    }

    /// The zone stored dates are shown in: the one given explicitly (`--tz`), else the zone of the
    /// last ingest, else `nil` (the caller's default: `TZ`, the system's).
    public static func zoneOfStoredDates(_ store: StateStore, explicit: CalendarZone?) -> CalendarZone? {
        if let explicit { return explicit }
        guard let stored = try? store.ingestZone() else { return nil }
        return try? CalendarZone(identifier: stored)
    }

    /// The child's fifteen skills, replayed from every graded exposure (no stored state drifts).
    public static func progress(_ store: StateStore, childID: Int64) throws(HouseholdError) -> [SkillProgress] {
        let history: [SkillExposure]
        do {
            history = try store.exposures(childID: childID)
        } catch {
            throw .state(error)
        }
        return SkillID.allCases.map { SkillProgress.replay($0, history) }
    }

    /// What the planner needs from a graded dictation: its aim, density, sites and errors.
    static func outcome(of d: DictationRecord) -> PlanOutcome {
        PlanOutcome(targetWords: d.aimWords, density: d.density, sites: d.sites.count,
                    errors: d.sites.filter { $0.missed == true }.count)
    }

    /// Every stored moment as a card candidate, its start placed in `zone`.
    static func cardMoments(_ store: StateStore, zone: CalendarZone) throws(StateError) -> [CardMoment] {
        try store.moments().map { m in
            let moment = MomentPhrase(phrase: m.phrase, grammar: m.grammar, friendName: m.firstName, kind: m.kind)
            return CardMoment(key: m.occurrenceKey, moment: moment, start: m.start, startSeconds: zone.seconds(of: m.start),
                              end: m.end, endSeconds: zone.seconds(of: m.end), isRecurring: m.isRecurring, children: m.children)
        }
    }

    /// A dictation the child had, for `CardChoice.order`: its occurrence and when it was served
    /// (else graded, else written), whole seconds.
    static func had(_ d: DictationRecord) -> CardChoice.Had {
        let at = d.servedAt ?? d.gradedAt ?? d.createdAt
        return CardChoice.Had(key: d.occurrenceKey, atSeconds: Int64(at.timeIntervalSince1970.rounded(.down)))
    }

    /// Where a child stands for the next texts: the last graded dictation (the plan's basis),
    /// the candidate moments in card order, the ready texts, the skills.
    public struct Situation: Sendable {
        /// The child, and its id in the state.
        public var child: Child
        public var childID: Int64
        /// The last graded dictation: what the next plan builds on (`nil` before the first grade).
        public var basis: DictationRecord?
        /// The moments a card may offer, best first (`CardChoice.order`).
        public var candidates: [CardMoment]
        /// Validated texts waiting behind a card or in reserve (status `ready`).
        public var ready: [DictationRecord]
        /// Texts the child already had (served or graded), oldest first.
        public var used: [DictationRecord]
        /// The fifteen skills, replayed from the graded exposures.
        public var progress: [SkillProgress]

        /// Candidates without a ready text, in card order.
        public var missing: [CardMoment] {
            let keys = Set(ready.map(\.occurrenceKey))
            return candidates.filter { !keys.contains($0.key) }
        }

        /// Library texts the child had in the last 8 weeks (`Library.repeatGapDays`) with when
        /// (seconds since 1970), and those waiting in the deal or in reserve (the latest of all),
        /// for `Library.serving(for:checker:used:)`.
        public func usedTexts(now: Int64) -> [String: Int64] {
            var out: [String: Int64] = [:]
            let since = now - Int64(Library.repeatGapDays) * 86_400
            for d in used {
                let at = Desk.had(d).atSeconds
                if at >= since, let id = Desk.libraryTextID(d) { out[id] = max(out[id] ?? at, at) }
            }
            for d in ready { if let id = Desk.libraryTextID(d) { out[id] = Int64.max } }
            return out
        }
    }

    /// When a card's moment is, seen from `now`: its first and last days in `zone` (an all-day
    /// end is exclusive, a timed end at midnight belongs to the day before), the writing day, and
    /// whether it has begun (`CardChoice.isUpcoming`).
    public static func momentDate(_ c: CardMoment, now: Int64, zone: CalendarZone) -> MomentDate {
        MomentDate(start: zone.date(at: c.startSeconds), end: zone.date(at: max(c.startSeconds, c.endSeconds - 1)),
                   written: zone.date(at: now), time: CardChoice.isUpcoming(c, now: now) ? .upcoming : .past)
    }

    /// Whether a waiting text was written for another day than `now` would write it: the moment
    /// began since (a text in the futur about a moment now past), or the text names its day as
    /// it was said then and it is said otherwise now ("demain" has become "aujourd'hui",
    /// "samedi" "avant-hier"). A text that names no day, or names it by its date ("samedi 12
    /// décembre", true on any day), stays.
    static func isStale(_ d: DictationRecord, _ c: CardMoment, now: Int64, zone: CalendarZone) -> Bool {
        let created = Int64(d.createdAt.timeIntervalSince1970.rounded(.down))
        let then = momentDate(c, now: created, zone: zone), today = momentDate(c, now: now, zone: zone)
        if then.time != today.time { return true }
        guard then.dayPhrase != today.dayPhrase, then.dayPhrase != then.datedPhrase else { return false }
        return then.isNamed(in: d.text)
    }

    /// Reads the child's situation, retiring stale ready texts (planned before the last grading,
    /// or about a moment that left the calendar) on the way.
    public static func situation(of child: Child, _ store: StateStore, now: Int64, zone: CalendarZone) throws(HouseholdError) -> Situation {
        guard let childID = child.id else { throw .state(.unknownChild) }
        let progress = try progress(store, childID: childID)
        do {
            let basis = try store.lastGraded(childID: childID)
            let moments = try cardMoments(store, zone: zone)
            let ready = try store.dictations(childID: childID, statuses: [.ready])
            let byKey = Dictionary(moments.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
            try store.retireDictations(ready.filter { d in
                guard d.plannedAfter == (basis?.id ?? 0), let c = byKey[d.occurrenceKey] else { return true }
                return isStale(d, c, now: now, zone: zone)
            }.map(\.id))
            let used = try store.dictations(childID: childID, statuses: [.served, .graded])
            return Situation(
                child: child, childID: childID, basis: basis,
                candidates: CardChoice.order(moments, child: child, now: now, history: used.map(had)),
                ready: try store.dictations(childID: childID, statuses: [.ready]), used: used, progress: progress)
        } catch {
            throw .state(error)
        }
    }

    /// Plans, writes (model or library, through `session`) and stores one validated text about
    /// `candidate`, in one transaction.
    /// - Parameter usedTexts: library texts the child had lately or has waiting, with when
    ///   (`Situation.usedTexts(now:)`); the one served is added as the latest.
    /// - Returns: the stored id and the result, or `nil` when nothing could be written (no
    ///   library text fits the moment, or none passed).
    public static func write(_ candidate: CardMoment, for s: Situation, _ store: StateStore, session: GenerationSession, now: Int64,
                             zone: CalendarZone, usedTexts: inout [String: Int64], createdAt: Date) throws(HouseholdError) -> (id: Int64, result: GenerationResult)? {
        var plan = Planner.plan(child: s.child, moment: candidate.moment, progress: s.progress, last: s.basis.map(outcome))
        plan.date = momentDate(candidate, now: now, zone: zone)
        guard let result = session.write(plan, used: usedTexts) else { return nil }
        if result.fromLibrary, let id = result.origin.split(separator: ":").last { usedTexts[String(id)] = Int64.max }
        // What the parent grades: at most 3 skills (the planner's bound), the planner's targets
        // the text exercises first, then the skills the text was written for.
        let all = session.checker.sites(of: result.draft, plan: result.plan)
        let sites = SiteSelection.graded(all, targets: plan.targets + result.plan.targets, text: result.draft.text, density: plan.density)
        var new = DictationRecord(
            childID: s.childID, eventReference: candidate.key.event, start: candidate.key.start, moment: candidate.moment.phrase,
            title: result.draft.title ?? candidate.moment.capitalized, text: result.draft.text, origin: result.origin,
            targets: plan.targets, aimWords: plan.aimedWords, density: plan.density, plannedAfter: s.basis?.id ?? 0,
            sites: sites,
            createdAt: createdAt)
        new.attempts = result.attempts
        new.diagnosis = result.diagnosis
        do { return (try store.addDictation(new), result) } catch { throw .state(error) }
    }

    /// The child's cards: the current deal when it still holds (every card ready, planned after
    /// the last grading, its moment still stored and still offered), else a new deal of up to
    /// three moments (`CardChoice.order`), each backed by a validated dictation: a ready one
    /// from the cache (written by `dictee nightly`, or earlier), or a library text served for the
    /// planner's plan and stored first.
    /// - Parameters:
    ///   - makeSession: builds the library session, only when a text must be written.
    /// - Returns: the cards, by number (possibly fewer than three, or none).
    /// - Throws: `HouseholdError.grammarCheckFailing` when texts fit the moments but none passed
    ///   the validator; `.state`; what `makeSession` throws.
    public static func cards(for child: Child, _ store: StateStore, now: Int64, zone: CalendarZone, createdAt: Date,
                             makeSession: () throws(HouseholdError) -> GenerationSession) throws(HouseholdError) -> [DictationRecord] {
        let s = try situation(of: child, store, now: now, zone: zone)
        do {
            let current = try store.cards(childID: s.childID)
            let offered = Set(s.candidates.map(\.key))
            if current.count == CardChoice.count, current.allSatisfy({ offered.contains($0.occurrenceKey) }) {
                return current
            }
        } catch {
            throw .state(error)
        }
        // A new deal.
        var session: GenerationSession?
        var chosen: [Int64] = []
        var refused = 0
        var recent = s.usedTexts(now: now)
        for candidate in s.candidates where chosen.count < CardChoice.count {
            if let cached = s.ready.first(where: { $0.occurrenceKey == candidate.key }) {
                chosen.append(cached.id)
                continue
            }
            let writer: GenerationSession
            if let session { writer = session } else { writer = try makeSession() }
            session = writer
            if let (id, _) = try write(candidate, for: s, store, session: writer, now: now, zone: zone, usedTexts: &recent, createdAt: createdAt) {
                chosen.append(id)
            } else if !writer.library.texts(for: child.grade, fitting: candidate.moment).isEmpty {
                // Texts fit this moment, yet none passed: the validator itself is failing.
                refused += 1
            }
        }
        if chosen.isEmpty, refused > 0 { throw .grammarCheckFailing(moments: refused) }
        do {
            try store.deal(childID: s.childID, chosen)
            return try store.cards(childID: s.childID)
        } catch {
            throw .state(error)
        }
    }

    /// A session without a model: the validator (with Grammalecte) and the handwritten library.
    /// - Parameter warn: told when Grammalecte is missing.
    public static func librarySession(environment: [String: String], warn: (String) -> Void = { _ in }) throws(HouseholdError) -> GenerationSession {
        let validator = try Validators.make(environment: environment, warn: warn)
        guard let library = try? Library.bundled() else { throw .brokenLibrary }
        return GenerationSession(model: nil, checker: validator, library: library)
    }

    /// What happened when a card was picked.
    public enum PickOutcome: Sendable {
        /// The dictation behind the card is served.
        case served(DictationRecord)
        /// The card's moment left the calendar since the deal (deleted, moved, or now
        /// disqualified): the card is set aside and the child chooses again.
        case momentLeft
        /// The card's text was written for another day: its moment's day is now told otherwise
        /// ("samedi" has become "avant-hier") or the moment has begun since: the card is
        /// set aside and the cards are dealt again.
        case dayChanged
    }

    /// The child picks card `number` at `date`.
    /// - Parameter zone: the family's zone, to tell whether the card's text still tells its
    ///   moment's day right (`nil`: not checked).
    /// - Throws: `HouseholdError.state` (`.dictation(.noCard)` for a card not dealt).
    public static func pick(_ child: Child, card number: Int, _ store: StateStore, at date: Date,
                            zone: CalendarZone? = nil) throws(HouseholdError) -> PickOutcome {
        guard let childID = child.id else { throw .state(.unknownChild) }
        do {
            if let card = try store.cards(childID: childID).first(where: { $0.card == number }) {
                guard (try store.momentKeys()).contains(card.occurrenceKey) else {
                    try store.retireDictations([card.id])
                    return .momentLeft
                }
                if let zone, let moment = try cardMoments(store, zone: zone).first(where: { $0.key == card.occurrenceKey }),
                   isStale(card, moment, now: Int64(date.timeIntervalSince1970.rounded(.down)), zone: zone) {
                    try store.retireDictations([card.id])
                    return .dayChanged
                }
            }
            return .served(try store.pick(childID: childID, card: number, at: date))
        } catch {
            throw .state(error)
        }
    }

    /// How a grading moved the child's skills: the states before and after, for the skills of
    /// the dictation's trap sites.
    public struct GradeOutcome: Sendable {
        /// The fifteen skills before the grade, and after it.
        public var before: [SkillProgress]
        public var after: [SkillProgress]
    }

    /// The status a grade needs (`served`): refused early, before the parent types anything.
    /// - Throws: `HouseholdError.state(.dictation(.notServed / .retired / .alreadyGraded))`.
    public static func checkGradable(_ d: DictationRecord, zone: CalendarZone) throws(HouseholdError) {
        switch d.status {
        case .ready: throw .state(.dictation(.notServed(d.id)))
        case .retired: throw .state(.dictation(.retired(d.id)))
        case .graded:
            let day = d.gradedAt.map { zone.date(of: $0).description } ?? "?"
            throw .state(.dictation(.alreadyGraded(d.id, on: day)))
        case .served: break
        }
    }

    /// Grades dictation `d`: the sites the child missed (numbers), at `date`; one transaction.
    public static func grade(_ d: DictationRecord, child: Child, missed: Set<Int>, _ store: StateStore, at date: Date) throws(HouseholdError) -> GradeOutcome {
        guard let childID = child.id else { throw .state(.unknownChild) }
        let before = try progress(store, childID: childID)
        do { _ = try store.grade(dictation: d.id, missed: missed, at: date) } catch { throw .state(error) }
        return GradeOutcome(before: before, after: try progress(store, childID: childID))
    }

    /// The library text id of a dictation served from the library (`library:ce1-sport-01`).
    public static func libraryTextID(_ d: DictationRecord) -> String? {
        d.origin.hasPrefix("library:") ? String(d.origin.dropFirst("library:".count)) : nil
    }

    /// A date as French prose, e.g. "samedi 28 novembre 2026", whatever the interface's language:
    /// the sheet is the child's French page (``Language/longDay(_:withYear:)``, CLDR fr).
    public static func frenchDate(_ date: CalendarDate, withYear: Bool = true) -> String {
        Language.french.longDay(date, withYear: withYear)
    }

    /// The dictation as the parent and the child see it.
    /// - Parameter motsDonnes: the words to give (``motsDonnes(_:child:_:validator:)``); `nil`
    ///   leaves them out (the grading view).
    public static func sheet(_ d: DictationRecord, child: Child, zone: CalendarZone, motsDonnes: [String]? = nil) -> DictationSheet {
        DictationSheet(
            id: d.id, title: d.title, text: d.text,
            sites: d.sites,
            child: child, moment: d.moment, date: frenchDate(zone.date(of: d.start)),
            day: frenchDate(zone.date(of: d.start), withYear: false), motsDonnes: motsDonnes)
    }

    /// A skill state in French, for parents.
    public static func label(_ state: SkillState) -> String {
        switch state {
        case .nonVu: "non vu"
        case .enCours: "en cours"
        case .fragile: "fragile"
        case .maitrise: "maîtrisé"
        }
    }
}
