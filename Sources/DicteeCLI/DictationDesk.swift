import Dictation
import DicteeCore
import Foundation
import French
import Generation
import Ingest
import Store

/// The loop around the writing, shared by `cards`, `pick`, `show`, `grade` and `skills`: the
/// child's skill states replayed from the stored exposures, the planner's input, the deal of three
/// cards backed by validated dictations, and how a stored dictation is shown.
enum DictationDesk {
    /// A stored child by first name (any case), or the error printed (64).
    static func child(named name: String?, _ store: StateStore, _ context: CommandContext) -> Result<Child, ExitCode> {
        guard let name, !name.isEmpty else {
            context.output.error("--child NAME is needed")
            return .failure(.usage)
        }
        do {
            let children = try store.children()
            if let child = children.first(where: { $0.firstName.lowercased() == name.lowercased() }) { return .success(child) }
            // No name in the message (STYLE.md): the list is one command away.
            context.output.error("no child with this first name")
            context.output.hint(children.isEmpty ? "dictee child add Léa --gender f --grade CE1" : "see 'dictee child list'")
            return .failure(.usage)
        } catch {
            return .failure(StateOptions.report(error, context))
        }
    }

    /// What the child commands (cards, pick, skills) start from: the state (which must exist), the
    /// child of `--child`, the zone of stored dates (`--tz`, else the last ingest's), and "now"
    /// (`--now`, else the clock).
    static func openChild(_ arguments: ParsedArguments, _ context: CommandContext)
        -> Result<(store: StateStore, child: Child, zone: CalendarZone, now: Int64), ExitCode>
    {
        StateOptions.open(context, create: false).flatMap { store in
            child(named: arguments.values["child"], store, context).flatMap { child in
                zone(arguments, store, context).flatMap { zone in
                    do {
                        return .success((store, child, zone, try TimeOptions.now(arguments, context, zone: zone)))
                    } catch {
                        context.output.error("\(error)")
                        return .failure(.usage)
                    }
                }
            }
        }
    }

    /// What the dictation commands (show, grade) start from: the state, dictation `ID` (the one
    /// positional argument) with its child, and the zone of stored dates.
    static func openDictation(_ arguments: ParsedArguments, _ context: CommandContext, command: String)
        -> Result<(store: StateStore, dictation: StoredDictation, child: Child, zone: CalendarZone), ExitCode>
    {
        guard arguments.positionals.count == 1, let id = Int64(arguments.positionals[0]), id > 0 else {
            context.output.error("\(command) needs one dictation id (a number, as 'dictee pick' prints it)")
            context.output.hint("dictee \(command) 12")
            return .failure(.usage)
        }
        return StateOptions.open(context, create: false).flatMap { store in
            do {
                guard let d = try store.dictation(id: id), let c = try store.children().first(where: { $0.id == d.childID }) else {
                    return .failure(StateOptions.report(.dictation(.unknownDictation(id)), context))
                }
                return zone(arguments, store, context).map { (store, d, c, $0) }
            } catch let error as StateError {
                return .failure(StateOptions.report(error, context))
            } catch {
                return .failure(.internalError)
            }
        }
    }

    /// The child's fifteen skills, replayed from every graded exposure (no stored state drifts).
    static func progress(_ store: StateStore, childID: Int64) throws(StateError) -> [SkillProgress] {
        let history = try store.exposures(childID: childID).map {
            SkillExposure(skill: $0.skill, gradedAt: $0.gradedAt, sites: $0.sites, errors: $0.errors)
        }
        return SkillID.allCases.map { SkillProgress.replay($0, history) }
    }

    /// What the planner needs from a graded dictation: its aim, density, sites and errors.
    static func outcome(of d: StoredDictation) -> PlanOutcome {
        PlanOutcome(targetWords: d.aimWords, density: d.density, sites: d.sites.count,
                    errors: d.sites.filter { $0.missed == true }.count)
    }

    /// Every stored moment as a card candidate, its start placed in `zone`.
    static func cardMoments(_ store: StateStore, zone: CalendarZone) throws(StateError) -> [CardMoment] {
        try store.moments().map { m in
            let seconds: Int64
            switch m.start {
            case .instant(let s): seconds = s
            case .date(let d): seconds = zone.instant(year: d.year, month: d.month, day: d.day)
            }
            let moment = MomentPhrase(phrase: m.phrase, grammar: m.grammar, friendName: m.firstName)
            return CardMoment(key: m.occurrenceKey, moment: moment, start: m.start, startSeconds: seconds)
        }
    }

    /// Where a child stands for the next texts: the last graded dictation (the plan's basis),
    /// the candidate moments in card order, the ready texts, the skills.
    struct Situation {
        var child: Child
        var childID: Int64
        var basis: StoredDictation?
        var candidates: [CardMoment]
        var ready: [StoredDictation]
        var used: [StoredDictation]
        var progress: [SkillProgress]

        /// Candidates without a ready text, in card order.
        var missing: [CardMoment] {
            let keys = Set(ready.map(\.occurrenceKey))
            return candidates.filter { !keys.contains($0.key) }
        }
    }

    /// Reads the child's situation, retiring stale ready texts (planned before the last grading,
    /// or about a moment that left the calendar) on the way.
    static func situation(of child: Child, _ store: StateStore, now: Int64, zone: CalendarZone) throws(StateError) -> Situation {
        guard let childID = child.id else { throw .store(.open(path: store.path, message: "a child without an id")) }
        let basis = try store.lastGraded(childID: childID)
        let moments = try cardMoments(store, zone: zone)
        let stored = Set(moments.map(\.key))
        let ready = try store.dictations(childID: childID, statuses: [.ready])
        try store.retireDictations(ready.filter { $0.plannedAfter != (basis?.id ?? 0) || !stored.contains($0.occurrenceKey) }.map(\.id))
        let used = try store.dictations(childID: childID, statuses: [.served, .graded])
        return Situation(
            child: child, childID: childID, basis: basis,
            candidates: CardChoice.order(moments, child: child, now: now, excluded: Set(used.map(\.occurrenceKey))),
            ready: try store.dictations(childID: childID, statuses: [.ready]), used: used,
            progress: try progress(store, childID: childID))
    }

    /// Library texts the child saw lately (the last ten served), to choose others.
    static func recentTexts(_ s: Situation) -> Set<String> {
        Set(s.used.suffix(10).compactMap(libraryTextID) + s.ready.compactMap(libraryTextID))
    }

    /// Plans, writes (model or library, through `session`) and stores one validated text about
    /// `candidate`, in one transaction.
    /// - Returns: the stored id and the result, or `nil` when nothing could be written (no
    ///   library text fits the moment, or none passed).
    static func write(_ candidate: CardMoment, for s: Situation, _ store: StateStore, session: GenerationSession, now: Int64,
                      recentTexts: inout Set<String>, createdAt: Date) throws(StateError) -> (id: Int64, result: GenerationResult)? {
        let plan = Planner.plan(child: s.child, moment: candidate.moment, progress: s.progress, last: s.basis.map(outcome))
        let time: MomentTime = CardChoice.isUpcoming(candidate, now: now) ? .upcoming : .past
        guard let result = session.write(plan, time: time, recentlyUsed: recentTexts) else { return nil }
        if result.fromLibrary, let id = result.origin.split(separator: ":").last { recentTexts.insert(String(id)) }
        // What the parent grades: at most 3 skills (the planner's bound), the planner's targets
        // the text exercises first, then the skills the text was written for.
        let all = session.validator.sites(of: result.draft, plan: result.plan)
        var graded: [SkillID] = []
        for skill in plan.targets + result.plan.targets where graded.count < Planner.maximumTargets
            && !graded.contains(skill) && all.contains(where: { $0.skill == skill }) {
            graded.append(skill)
        }
        let sites = all.filter { graded.contains($0.skill) }
        var new = NewDictation(
            childID: s.childID, eventReference: EventReference(String(candidate.key.prefix { $0 != "|" }))!,
            start: candidate.start, moment: candidate.moment.phrase,
            title: result.draft.title ?? candidate.moment.capitalized, text: result.draft.text, origin: result.origin,
            targets: plan.targets, aimWords: plan.aimedWords, density: plan.density, plannedAfter: s.basis?.id ?? 0,
            sites: sites.enumerated().map { k, site in
                StoredTrapSite(number: k + 1, skill: site.skill, start: site.start, end: site.end, word: site.word,
                               choice: site.choice, alternatives: site.alternatives)
            },
            createdAt: createdAt)
        new.attempts = result.attempts.map {
            StoredAttempt(number: $0.number, failedSteps: $0.failedSteps, promptTokens: $0.promptTokens,
                          completionTokens: $0.completionTokens, seconds: $0.seconds, finishReason: $0.finishReason,
                          removed: $0.removed.map(\.rawValue))
        }
        new.diagnosis = result.diagnosis
        return (try store.addDictation(new), result)
    }

    /// The child's cards: the current deal when it still holds (every card ready, planned after
    /// the last grading, its moment still stored and still offered), else a new deal of up to
    /// three moments (`CardChoice.order`), each backed by a validated dictation: a ready one
    /// from the cache (written by `dictee nightly`, or earlier), or a library text served for the
    /// planner's plan and stored first.
    /// - Returns: the cards, by number (possibly fewer than three).
    static func cards(for child: Child, _ store: StateStore, now: Int64, zone: CalendarZone, _ context: CommandContext)
        -> Result<[StoredDictation], ExitCode>
    {
        do {
            let s = try situation(of: child, store, now: now, zone: zone)
            let current = try store.cards(childID: s.childID)
            let offered = Set(s.candidates.map(\.key))
            if current.count == CardChoice.count, current.allSatisfy({ offered.contains($0.occurrenceKey) }) {
                return .success(current)
            }
            // A new deal.
            var session: GenerationSession?
            var chosen: [Int64] = []
            var refused = 0
            var recent = recentTexts(s)
            for candidate in s.candidates where chosen.count < CardChoice.count {
                if let cached = s.ready.first(where: { $0.occurrenceKey == candidate.key }) {
                    chosen.append(cached.id)
                    continue
                }
                if session == nil {
                    switch librarySession(context) {
                    case .success(let made): session = made
                    case .failure(let code): return .failure(code)
                    }
                }
                guard let session else { return .failure(.internalError) }
                if let (id, _) = try write(candidate, for: s, store, session: session, now: now, recentTexts: &recent, createdAt: context.clock.now) {
                    chosen.append(id)
                } else if !session.library.texts(for: child.grade, fitting: candidate.moment.phrase).isEmpty {
                    // Texts fit this moment, yet none passed: the validator itself is failing.
                    refused += 1
                }
            }
            if chosen.isEmpty, refused > 0 {
                context.output.error("no handwritten text passed the validator for \(refused) moment(s) that have texts: the grammar check (Grammalecte) is probably failing")
                context.output.hint("check that '/usr/bin/python3 -c \"import grammalecte\"' runs; reinstall with apt-get install python3-grammalecte")
                return .failure(.unavailable)
            }
            try store.deal(childID: s.childID, chosen)
            return .success(try store.cards(childID: s.childID))
        } catch {
            return .failure(StateOptions.report(error, context))
        }
    }

    /// A session without a model: the validator (with Grammalecte) and the handwritten library.
    static func librarySession(_ context: CommandContext) -> Result<GenerationSession, ExitCode> {
        let validator: Validator
        switch Dictee.makeValidator(context) {
        case .success(let v): validator = v
        case .failure(let code): return .failure(code)
        }
        guard let library = try? Library.bundled() else {
            context.output.error("the handwritten library cannot be read (a broken installation)")
            return .failure(.internalError)
        }
        return .success(GenerationSession(model: nil, validator: validator, library: library))
    }

    /// The library text id of a dictation served from the library (`library:ce1-sport-01`).
    static func libraryTextID(_ d: StoredDictation) -> String? {
        d.origin.hasPrefix("library:") ? String(d.origin.dropFirst("library:".count)) : nil
    }

    /// The local calendar date of an occurrence's start.
    static func localDate(_ start: EventTime, zone: CalendarZone) -> CalendarDate {
        switch start {
        case .date(let d): return d
        case .instant(let s): return zone.date(at: s)
        }
    }

    /// The local date (in `zone`) of a moment in time, e.g. when a dictation was graded.
    static func day(_ date: Date, zone: CalendarZone) -> CalendarDate {
        zone.date(at: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// A date as French prose, e.g. "samedi 28 novembre 2026" (Foundation's formatter, CLDR fr).
    static func frenchDate(_ date: CalendarDate, withYear: Bool = true) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "fr_FR")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = withYear ? "EEEE d MMMM y" : "EEEE d MMMM"
        let noon = TimeInterval(date.daysSinceEpoch) * 86_400 + 43_200
        return formatter.string(from: Date(timeIntervalSince1970: noon))
    }

    /// The dictation as the parent and the child see it.
    static func sheet(_ d: StoredDictation, child: Child, zone: CalendarZone) -> DictationSheet {
        DictationSheet(
            id: d.id, title: d.title, text: d.text,
            sites: d.sites.map {
                TrapSite(skill: $0.skill, start: $0.start, end: $0.end, word: $0.word, choice: $0.choice, alternatives: $0.alternatives)
            },
            child: child, moment: d.moment, date: frenchDate(localDate(d.start, zone: zone)))
    }

    /// The zone to show stored dates in: `--tz`, else the last ingest's, else the defaults.
    static func zone(_ arguments: ParsedArguments, _ store: StateStore, _ context: CommandContext) -> Result<CalendarZone, ExitCode> {
        if arguments.values["tz"] == nil, let stored = try? store.ingestZone(), let zone = try? CalendarZone(identifier: stored) {
            return .success(zone)
        }
        return TimeOptions.resolveZone(arguments, context)
    }

    /// A skill state in French, for parents.
    static func label(_ state: SkillState) -> String {
        switch state {
        case .nonVu: "non vu"
        case .enCours: "en cours"
        case .fragile: "fragile"
        case .maitrise: "maîtrisé"
        }
    }
}
