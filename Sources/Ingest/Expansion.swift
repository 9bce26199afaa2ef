import DicteeCore

/// Caps that keep expansion bounded whatever the file says (Docs/style.md, Calendar code: expand inside the window only,
/// with an iteration cap). A family activity has a handful of occurrences in three weeks.
enum ExpansionLimits {
    /// Most occurrences one series may have inside the window.
    static let occurrencesPerSeries = 1000
    /// Most iterator steps one series may take to walk through the window.
    static let iterationsPerSeries = 100_000
    /// Most occurrences one file may have inside the window. A family has hundreds; a file with
    /// more is not a family calendar (6,000 hourly series would make millions), and reading it
    /// stops there with an error rather than filling the memory.
    static let occurrencesPerFile = 50_000
    /// Most iterator steps the series of one file may take together (1,000,000: about 3 s of
    /// libical's SECONDLY steps). A family's hundreds of series take tens of steps each; a file of
    /// 1,000 `FREQ=SECONDLY` series since 1970 took 87,000 steps each, 329 s in all
    /// (`Scripts/bench-limits`, case `secondly-1970-x1000`), and now stops here with an error.
    static let iterationsPerFile = 1_000_000
}

/// One instance of a series (or the single instance of a one-off event) before slot removal.
struct Instance {
    var start: ResolvedTime
    /// An RDATE period's own end, if any.
    var period: EndSpec?
}

/// What expanding one event inside a window gives.
struct Expansion {
    /// The instances whose start lies in the window.
    var instances: [Instance] = []
    /// The earliest start at or after the window's upper bound among DTSTART, the RDATEs and the
    /// RRULE instances the walk met before it stopped; `nil` when there is none (a one-off inside
    /// or before the window, a series that ended). Never later than the first instance after the
    /// window: EXDATEs and overrides are not applied, and the walk stops past the first one.
    var nextStart: Int64?

    fileprivate mutating func noteAfter(_ instant: Int64, _ window: Range<Int64>) {
        guard instant >= window.upperBound else { return }
        nextStart = min(nextStart ?? instant, instant)
    }
}

extension EventRecord {
    /// The instances of this event whose start lies in `window` (instants, half-open): the RRULE
    /// occurrences (UNTIL inclusive, COUNT counted from DTSTART by libical), then the RDATEs, each
    /// instant once. EXDATEs and overrides are removed later, when every VEVENT of the UID is known.
    ///
    /// - Throws: `EventProblem` `runaway-recurrence` when a rule would produce more than
    ///   `ExpansionLimits.occurrencesPerSeries` occurrences in the window or need more than
    ///   `ExpansionLimits.iterationsPerSeries` steps; `broken-rrule` when libical refuses the rule.
    /// `skipAhead: false` walks every rule from DTSTART (tests compare both paths).
    func instances(in window: Range<Int64>, skipAhead: Bool = true) throws(EventProblem)
        -> [Instance]
    {
        try expansion(in: window, skipAhead: skipAhead).instances
    }

    /// `instances(in:skipAhead:)`, and the earliest start met after the window (`Expansion`).
    func expansion(in window: Range<Int64>, skipAhead: Bool = true) throws(EventProblem) -> Expansion {
        var steps = 0
        return try expansion(in: window, skipAhead: skipAhead, steps: &steps)
    }

    /// `expansion(in:skipAhead:)`, adding to `steps` the iterator steps it took, also when it
    /// throws (the file's budget, `ExpansionLimits.iterationsPerFile`, counts them all).
    func expansion(in window: Range<Int64>, skipAhead: Bool = true, steps: inout Int) throws(EventProblem)
        -> Expansion
    {
        var result = Expansion()
        guard isSeries else {
            if window.contains(start.instant) { result.instances = [Instance(start: start, period: nil)] }
            result.noteAfter(start.instant, window)
            return result
        }
        var seen = Set<Int64>()
        // DTSTART is the first instance of the recurrence set (RFC 5545 3.8.5.3), also for a
        // series made of RDATEs only.
        if window.contains(start.instant) {
            seen.insert(start.instant)
            result.instances.append(Instance(start: start, period: nil))
        }
        result.noteAfter(start.instant, window)
        for rule in rules {
            try expand(rule, in: window, skipAhead: skipAhead, into: &result, seen: &seen, steps: &steps)
        }
        for rdate in rdates {
            result.noteAfter(rdate.start.instant, window)
            if window.contains(rdate.start.instant), seen.insert(rdate.start.instant).inserted {
                result.instances.append(Instance(start: rdate.start, period: rdate.end))
            }
        }
        if result.instances.count > ExpansionLimits.occurrencesPerSeries {
            throw runaway("more than \(ExpansionLimits.occurrencesPerSeries) occurrences")
        }
        return result
    }

    private func runaway(_ what: String) -> EventProblem {
        EventProblem(
            code: "runaway-recurrence",
            message: "recurrence rule gives \(what) in the read window; the series is skipped",
            property: "RRULE", value: nil)
    }

    private func expand(
        _ rule: RecurrenceRule, in window: Range<Int64>, skipAhead: Bool,
        into result: inout Expansion,
        seen: inout Set<Int64>, steps total: inout Int
    ) throws(EventProblem) {
        // libical's iterator steps one FREQ unit at a time inside next(): a SECONDLY rule limited
        // by day or month parts, or a MINUTELY rule limited by month parts, can spin for centuries
        // of seconds before it answers. No family calendar needs them.
        // libical's iterator steps one FREQ unit at a time inside next(): a sub-daily rule limited
        // by day, month or year parts can spin for centuries before it answers, and BYWEEKNO
        // without BYDAY crashes libical 3.0. No family calendar needs them.
        if rule.frequency < .daily && rule.usesByDayOrCoarser {
            // Measured: libical 3.0 spins inside next() on these (HOURLY;BYMONTHDAY=-15: 11 s).
            throw runaway("a sub-daily frequency filtered by day, month or year parts (not supported)")
        }
        if rule.frequency < .daily && rule.interval > 1 && rule.usesAnyByPart {
            // Measured: libical 3.0 loses the INTERVAL's phase on these
            // (MINUTELY;INTERVAL=87;BYHOUR=8 gives 19:10 where RFC 5545 gives 19:16).
            throw runaway("a sub-daily INTERVAL with BY parts (not supported: libical 3.0 expands it wrongly)")
        }
        if rule.usesOrdinalDay && rule.frequency != .monthly && rule.frequency != .yearly {
            throw EventProblem(
                code: "broken-rrule",
                message: "BYDAY with an ordinal (1MO, -1TH) needs FREQ=MONTHLY or YEARLY (RFC 5545 3.3.10)",
                property: "RRULE", value: nil)
        }
        if rule.usesWeekNumberWithoutDay {
            throw EventProblem(
                code: "broken-rrule",
                message: "BYWEEKNO without BYDAY is not supported (libical 3.0 cannot expand it)",
                property: "RRULE", value: nil)
        }
        // A rule that ended before the window, or a series starting after it, gives nothing there
        // (DTSTART and RDATEs are added by the caller): no need to build libical's iterator.
        if let until = rule.until {
            let untilInstant = until.isUTC ? until.local.secondsIfUTC : start.zone.instant(of: until.local)
            if untilInstant + 2 * 86_400 < window.lowerBound { return }
        }
        if start.instant >= window.upperBound + 86_400 { return }
        // A COUNT that surely ran out before the window: nothing to walk (not when the tests walk
        // every rule from DTSTART, to compare).
        if skipAhead, rule.count <= ExpansionLimits.iterationsPerSeries,
           let days = rule.countSpanDays(from: start.local.date),
           start.instant + Int64(days + 1) * 86_400 + 2 * 86_400 < window.lowerBound
        {
            return
        }
        // Without COUNT, sub-daily rules restart from a later DTSTART on the same phase (DTSTART
        // plus a whole number of INTERVALs): libical's set_start loses the phase of an INTERVAL.
        var first = start.local
        if rule.count == 0 && skipAhead && rule.frequency < .daily {
            let unit: Int64 = rule.frequency == .hourly ? 3600 : rule.frequency == .minutely ? 60 : 1
            let step = unit * Int64(max(rule.interval, 1))
            let target = start.zone.local(at: window.lowerBound).secondsIfUTC - 86_400
            let origin = start.local.secondsIfUTC
            if target > origin {
                first = LocalDateTime(utcSeconds: origin + (target - origin) / step * step)
            }
        }
        guard let iterator = RecurrenceIterator(
            rule: rule.withoutUntil, start: first, isDate: start.isDate)
        else {
            throw EventProblem(
                code: "broken-rrule", message: "recurrence rule is not valid (RFC 5545 3.3.10)",
                property: "RRULE", value: nil)
        }
        // Without COUNT, jump close to the window instead of walking from DTSTART (a SECONDLY rule
        // since 1970 must not walk 1.8 billion steps). The margin covers one FREQ period so that
        // libical starts on a period boundary before the window; results are filtered by instant.
        if rule.count == 0 && skipAhead && rule.frequency >= .daily {
            let marginDays: Int
            switch rule.frequency {
            case .secondly, .minutely, .hourly: marginDays = 1
            case .daily, .weekly, .none: marginDays = 7 * max(1, min(rule.interval, 520)) + 7
            case .monthly: marginDays = 31 * max(1, min(rule.interval, 120)) + 31
            case .yearly: marginDays = 366 * max(1, min(rule.interval, 10)) + 7
            }
            let target = start.zone.local(at: window.lowerBound).adding(days: -marginDays)
            if target > start.local {
                _ = iterator.skip(to: target)
            }
        }
        let until = rule.until
        var steps = 0
        defer { total += steps }
        while let local = iterator.next() {
            steps += 1
            if steps > ExpansionLimits.iterationsPerSeries {
                throw runaway("more than \(ExpansionLimits.iterationsPerSeries) iteration steps")
            }
            if let until, !isOnOrBefore(local, until: until) { break }
            let instant = start.zone.instant(of: local)
            result.noteAfter(instant, window)
            // Wall-clock order and instant order differ by at most a DST shift: stop one day after.
            if instant >= window.upperBound + 86_400 { break }
            guard window.contains(instant) else { continue }
            if seen.insert(instant).inserted {
                var instanceStart = start
                instanceStart.local = local
                instanceStart.instant = instant
                result.instances.append(Instance(start: instanceStart, period: nil))
                if result.instances.count > ExpansionLimits.occurrencesPerSeries {
                    throw runaway("more than \(ExpansionLimits.occurrencesPerSeries) occurrences")
                }
            }
        }
    }

    /// UNTIL is inclusive (RFC 5545 3.3.10): a DATE bounds the local date, a UTC DATE-TIME the
    /// instant, a floating DATE-TIME (not allowed, but written by some tools) the wall clock.
    private func isOnOrBefore(_ local: LocalDateTime, until: PropertyTime) -> Bool {
        if until.isDate || start.isDate { return local.date <= until.local.date }
        if until.isUTC { return start.zone.instant(of: local) <= until.local.secondsIfUTC }
        return local <= until.local
    }
}
