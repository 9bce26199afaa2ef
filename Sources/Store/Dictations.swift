import DicteeCore
import Foundation

/// Where a stored dictation is in its life: written and validated (`ready`, possibly behind a
/// card), picked by the child (`served`), graded by the parent (`graded`), or set aside
/// (`retired`: planned before a grading changed the plan, or its moment left the calendar).
public enum DictationStatus: String, Sendable, Hashable, CaseIterable {
    case ready, served, graded, retired
}

/// A dictation as the state keeps it: the validated text, what it is about, how it was planned,
/// its trap sites, and where it is in its life. One type to write (`addDictation`, where `id`,
/// `status`, `card` and the dates after `createdAt` are ignored) and to read back.
public struct DictationRecord: Sendable, Hashable {
    /// The state's id (0 before it is stored).
    public var id: Int64 = 0
    public var childID: Int64
    /// The occurrence the text is about (an occurrence stored as a moment).
    public var occurrence: OccurrenceKey
    /// The canonical phrase of the moment ("la sortie piscine", "l'anniversaire de Tom").
    public var moment: String
    public var title: String
    public var text: String
    /// `library:<text id>` for a handwritten text, else the model's id.
    public var origin: String
    /// The planner's targets, aimed word count (words) and density (trap sites per sentence).
    public var targets: [SkillID]
    public var aimWords: Double
    public var density: Double
    /// The child's last graded dictation when the plan was made (0: none). A later grading makes
    /// the dictation stale.
    public var plannedAfter: Int64
    public var status: DictationStatus = .ready
    /// Its place (1...3) in the child's current cards, if dealt.
    public var card: Int?
    /// When it was written, served (picked) and graded.
    public var createdAt: Date
    public var servedAt: Date?
    public var gradedAt: Date?
    /// Trap sites in text order: site `k` (0-based) is the parent's number `k + 1`; `missed` is
    /// set once graded (ignored when adding).
    public var sites: [TrapSite]
    /// The model's attempts (empty for a library text served without a model). Written with the
    /// dictation; read back with `attempts(dictationID:)`.
    public var attempts: [AttemptRecord] = []
    /// Which removal unlocked a refusal (`sans_moment`...), if any.
    public var diagnosis: String?

    public init(childID: Int64, eventReference: EventReference, start: EventTime, moment: String, title: String,
                text: String, origin: String, targets: [SkillID], aimWords: Double, density: Double,
                plannedAfter: Int64, sites: [TrapSite], createdAt: Date) {
        self.childID = childID
        self.occurrence = OccurrenceKey(event: eventReference, start: start)
        self.moment = moment
        self.title = title
        self.text = text
        self.origin = origin
        self.targets = targets
        self.aimWords = aimWords
        self.density = density
        self.plannedAfter = plannedAfter
        self.sites = sites
        self.createdAt = createdAt
    }

    /// The event the text is about.
    public var eventReference: EventReference { occurrence.event }
    /// The occurrence's start.
    public var start: EventTime { occurrence.start }
    /// The occurrence key (event and start) the text is about.
    public var occurrenceKey: OccurrenceKey { occurrence }
    /// The parent's numbers (1...) of the sites of `skill`.
    public func siteNumbers(of skill: SkillID) -> [Int] {
        sites.indices.filter { sites[$0].skill == skill }.map { $0 + 1 }
    }
}

extension AttemptRecord {
    /// The failed step ids as stored (`attempts.failed_steps`) and shown in the run log: the
    /// validator's step ids (`vocabulaire`, `longueur`...), or what failed before the validator:
    /// `format`, `trop_long` (a runaway), `delai_depasse` (no answer in time), `refus`, `contexte`,
    /// `serveur`. Empty when accepted.
    public var storedSteps: [String] {
        switch failure {
        case nil: []
        case .validation(let steps): steps.map(\.step.rawValue)
        case .format: ["format"]
        case .runaway: ["trop_long"]
        case .timeout: ["delai_depasse"]
        case .refusal: ["refus"]
        case .context: ["contexte"]
        case .server: ["serveur"]
        }
    }

    /// The failed rules as stored (`attempts.failed_rules`): `step/rule` for each rule of each
    /// failed validator step (`orthographe_grammaire/elision_consonne`); empty otherwise. A comma
    /// inside a rule id (none of dictee's, maybe one of Grammalecte's) becomes `_`.
    var storedRules: [String] {
        guard case .validation(let steps) = failure else { return [] }
        return steps.flatMap { s in s.rules.map { s.step.rawValue + "/" + $0.replacingOccurrences(of: ",", with: "_") } }
    }

    /// The failure read back from its stored step and rule ids; `nil` when `steps` is empty.
    /// An unknown step id (a newer dictee's) is dropped; rules without a known step too.
    static func failure(storedSteps steps: [String], rules: [String]) -> AttemptFailure? {
        guard let first = steps.first else { return nil }
        switch first {
        case "format": return .format
        case "trop_long": return .runaway
        case "delai_depasse": return .timeout
        case "refus": return .refusal
        case "contexte": return .context
        case "serveur": return .server
        default:
            var failed = steps.compactMap(ValidationStep.init(rawValue:)).map { FailedStep(step: $0) }
            for stored in rules {
                guard let slash = stored.firstIndex(of: "/"), let step = ValidationStep(rawValue: String(stored[..<slash])),
                      let k = failed.firstIndex(where: { $0.step == step }) else { continue }
                failed[k].rules.append(String(stored[stored.index(after: slash)...]))
            }
            return .validation(failed)
        }
    }
}

/// What `dictee stats` reports: about the model, never about a child.
public struct GenerationStats: Sendable, Hashable {
    /// Dictations the model was asked for (at least one attempt).
    public var asked: Int
    /// Of those, accepted from the model (not the library).
    public var accepted: Int
    /// Accepted at the first attempt.
    public var acceptedFirst: Int
    /// Attempts of the accepted texts, in all.
    public var attemptsOfAccepted: Int
    /// Served from the library after the model failed.
    public var fallbacks: Int
    /// Tokens of every attempt (accepted or not), prompt and completion.
    public var promptTokens: Int
    public var completionTokens: Int
    /// Of `promptTokens`, those the model kept from an earlier request (its KV cache) and did
    /// not evaluate again; 0 for a model that cannot say (an HTTP server) and before schema
    /// version 9.
    public var cachedTokens: Int = 0
    /// Dictations served from the library without asking a model.
    public var libraryOnly: Int
    /// Failed step ids over all failed attempts, most frequent first (ties by id).
    public var failedSteps: [StepCount]
    /// Failed validator rule ids (``Finding``'s `rule`: `elision_consonne`, `longueur_mots`,
    /// `hunspell`, `grammalecte:<id>`...) over all failed attempts, most frequent first (ties by
    /// id). Attempts stored before schema version 5 have none.
    public var failedRules: [RuleCount] = []

    /// How often a step failed.
    public struct StepCount: Sendable, Hashable {
        /// A stored step id (``AttemptRecord/storedSteps``).
        public var step: String
        /// Attempts that failed it.
        public var count: Int
    }

    /// How often a validator rule failed.
    public struct RuleCount: Sendable, Hashable {
        /// The rule id, without its step.
        public var rule: String
        /// Attempts that failed it.
        public var count: Int

        /// - Parameters:
        ///   - rule: the rule id.
        ///   - count: attempts that failed it.
        public init(rule: String, count: Int) {
            self.rule = rule
            self.count = count
        }
    }
}

/// Refusals of the dictation steps (cards, pick, grade), with what to do next.
public enum DictationError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownDictation(Int64)
    case noCard(Int, dealt: Int)
    case notServed(Int64)
    case alreadyGraded(Int64, on: String)
    case retired(Int64)
    case siteOutOfRange(Int, count: Int)

    public var description: String {
        switch self {
        case .unknownDictation(let id): return tr("no dictation %ld", Int(id))
        case .noCard(let n, let dealt):
            return dealt == 0 ? tr("no card to pick from; run 'dictee cards --child NAME' first")
                : tr("no card %ld: the cards are numbered 1 to %ld", n, dealt)
        case .notServed(let id): return tr("dictation %ld was not picked yet; pick its card with 'dictee pick', then grade it", Int(id))
        case .alreadyGraded(let id, let date): return tr("dictation %ld was already graded on %@; a grade is final", Int(id), date)
        case .retired(let id): return tr("dictation %ld was set aside (its plan or its moment changed) and cannot be graded", Int(id))
        case .siteOutOfRange(let n, let count):
            return count == 0 ? tr("this dictation has no trap site; grade it with --missed none")
                : tr("no trap site %ld: the sites are numbered 1 to %ld", n, count)
        }
    }
}

extension StateStore {
    // MARK: Writing dictations

    /// Stores a validated dictation (status `ready`) with its trap sites, in one transaction.
    /// - Returns: the new dictation's id, or the id of the ready text already stored for the same
    ///   child and occurrence (written meanwhile by another run: never two).
    /// - Throws: `StateError.store` (e.g. the child does not exist: a foreign key).
    @discardableResult
    public func addDictation(_ d: DictationRecord) throws(StateError) -> Int64 {
        try run {
            try db.transaction {
                // Another run (cards during nightly) may have written a text for this occurrence
                // meanwhile: keep that one, never two ready texts for one occurrence.
                if let existing = try db.query("""
                    SELECT id FROM dictations WHERE child_id = ? AND event_ref = ? AND start_key = ? AND status = 'ready'
                    """, [.integer(d.childID), .text(d.eventReference.description), .text(OccurrenceKey.startText(d.start))]).first {
                    return try existing.int64("id")
                }
                try db.execute("""
                    INSERT INTO dictations (child_id, event_ref, start_key, moment, title, body, origin, targets,
                                            aim_words, density, planned_after, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.integer(d.childID), .text(d.eventReference.description), .text(OccurrenceKey.startText(d.start)),
                          .text(d.moment), .text(d.title), .text(d.text), .text(d.origin),
                          .text(d.targets.map(\.rawValue).joined(separator: ",")), .real(d.aimWords), .real(d.density),
                          .integer(d.plannedAfter), .integer(Self.seconds(d.createdAt))])
                let id = db.lastInsertRowID
                if let diagnosis = d.diagnosis {
                    try db.execute("UPDATE dictations SET diagnosis = ? WHERE id = ?", [.text(diagnosis), .integer(id)])
                }
                for a in d.attempts {
                    try db.execute("""
                        INSERT INTO attempts (dictation_id, number, failed_steps, prompt_tokens, completion_tokens, seconds,
                                              finish_reason, removed, failed_rules, cached_tokens)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, [.integer(id), .integer(Int64(a.number)), .text(a.storedSteps.joined(separator: ",")),
                              .integer(Int64(a.promptTokens)), .integer(Int64(a.completionTokens)), .real(max(0, a.seconds)),
                              .text(a.finishReason), .text(a.removed.map(\.rawValue).joined(separator: ",")),
                              .text(a.storedRules.joined(separator: ",")), .integer(Int64(max(0, a.cachedTokens)))])
                }
                for (k, site) in d.sites.enumerated() {
                    try db.execute("""
                        INSERT INTO trap_sites (dictation_id, number, skill, start_offset, end_offset, word, choice, alternatives)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, [.integer(id), .integer(Int64(k + 1)), .text(site.skill.rawValue),
                              .integer(Int64(site.start)), .integer(Int64(site.end)), .text(site.word),
                              site.choice.map(SQLValue.text) ?? .null, .text(site.alternatives.joined(separator: ","))])
                }
                return id
            }
        }
    }

    /// Sets dictations aside (status `retired`, off the cards). Only `ready` ones change.
    public func retireDictations(_ ids: [Int64]) throws(StateError) {
        guard !ids.isEmpty else { return }
        try run {
            try db.transaction {
                for id in ids {
                    try db.execute("UPDATE dictations SET status = 'retired', card = NULL WHERE id = ? AND status = 'ready'",
                                   [.integer(id)])
                }
            }
        }
    }

    /// Deals the child's cards: the first three of `ids` that are ready dictations of the child
    /// become cards 1, 2, 3 in this order (other ids are skipped); the previous deal is cleared.
    /// One transaction.
    public func deal(childID: Int64, _ ids: [Int64]) throws(StateError) {
        try run {
            try db.transaction {
                try db.execute("UPDATE dictations SET card = NULL WHERE child_id = ? AND card IS NOT NULL", [.integer(childID)])
                // Only the child's ready dictations are dealt, numbered 1, 2, 3 without gaps.
                var number: Int64 = 0
                for id in ids where number < 3 {
                    try db.execute("UPDATE dictations SET card = ? WHERE id = ? AND child_id = ? AND status = 'ready'",
                                   [.integer(number + 1), .integer(id), .integer(childID)])
                    if db.changes > 0 { number += 1 }
                }
            }
        }
    }

    /// The child picks card `number`: its dictation becomes `served` (at `date`) and the deal is
    /// cleared (the other texts stay ready for the next deal). One transaction.
    /// - Returns: the served dictation.
    /// - Throws: `DictationError.noCard` (wrapped in `StateError.dictation`) when there is no such card.
    public func pick(childID: Int64, card number: Int, at date: Date) throws(StateError) -> DictationRecord {
        let id: Int64 = try run {
            try db.transaction {
                let dealt = try db.query("SELECT id, card FROM dictations WHERE child_id = ? AND card IS NOT NULL ORDER BY card",
                                         [.integer(childID)])
                guard let row = try dealt.first(where: { try $0.int("card") == number }) else {
                    throw StateError.dictation(.noCard(number, dealt: dealt.count))
                }
                let id = try row.int64("id")
                try db.execute("UPDATE dictations SET card = NULL WHERE child_id = ?", [.integer(childID)])
                try db.execute("UPDATE dictations SET status = 'served', served_at = ? WHERE id = ?",
                               [.integer(Self.seconds(date)), .integer(id)])
                return id
            }
        }
        guard let served = try dictation(id: id) else { throw .dictation(.unknownDictation(id)) }
        return served
    }

    /// Grades a served dictation: stores, per trap site, whether the child got it wrong, and one
    /// exposure per skill exercised (its sites and errors), in one transaction.
    /// - Parameters:
    ///   - id: the dictation.
    ///   - missed: the numbers of the sites the child got wrong (empty: none).
    ///   - date: when the parent graded it.
    /// - Returns: the exposures stored, in skill order.
    /// - Throws: `StateError.dictation` with `.unknownDictation`, `.notServed`, `.retired`,
    ///   `.alreadyGraded` (a grade is final) or `.siteOutOfRange`; nothing is stored then.
    @discardableResult
    public func grade(dictation id: Int64, missed: Set<Int>, at date: Date) throws(StateError) -> [SkillExposure] {
        try run {
            try db.transaction {
                guard let d = try dictation(id: id) else { throw StateError.dictation(.unknownDictation(id)) }
                switch d.status {
                case .ready: throw StateError.dictation(.notServed(id))
                case .retired: throw StateError.dictation(.retired(id))
                case .graded:
                    let day = d.gradedAt.map { CalendarDate(daysSinceEpoch: Int(Self.seconds($0) / 86_400)).description } ?? "?"
                    throw StateError.dictation(.alreadyGraded(id, on: day))
                case .served: break
                }
                if let bad = missed.sorted().first(where: { $0 < 1 || $0 > d.sites.count }) {
                    throw StateError.dictation(.siteOutOfRange(bad, count: d.sites.count))
                }
                let at = Self.seconds(date)
                for number in 1...max(1, d.sites.count) where number <= d.sites.count {
                    try db.execute("UPDATE trap_sites SET missed = ? WHERE dictation_id = ? AND number = ?",
                                   [.integer(missed.contains(number) ? 1 : 0), .integer(id), .integer(Int64(number))])
                }
                var exposures: [SkillExposure] = []
                for skill in SkillID.allCases {
                    let sites = d.siteNumbers(of: skill)
                    guard !sites.isEmpty else { continue }
                    let errors = sites.filter { missed.contains($0) }.count
                    try db.execute("""
                        INSERT INTO exposures (dictation_id, skill, child_id, graded_at, sites, errors)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """, [.integer(id), .text(skill.rawValue), .integer(d.childID), .integer(at),
                              .integer(Int64(sites.count)), .integer(Int64(errors))])
                    exposures.append(SkillExposure(dictationID: id, skill: skill, gradedAt: Date(timeIntervalSince1970: TimeInterval(at)),
                                                    sites: sites.count, errors: errors))
                }
                try db.execute("UPDATE dictations SET status = 'graded', graded_at = ? WHERE id = ?", [.integer(at), .integer(id)])
                return exposures
            }
        }
    }

    // MARK: Reading dictations

    /// One dictation with its sites, or `nil`.
    public func dictation(id: Int64) throws(StateError) -> DictationRecord? {
        try dictations(where: "d.id = ?", [.integer(id)]).first
    }

    /// The child's dictations with one of `statuses` (all when empty), oldest first.
    public func dictations(childID: Int64, statuses: Set<DictationStatus> = []) throws(StateError) -> [DictationRecord] {
        let all = try dictations(where: "d.child_id = ?", [.integer(childID)])
        return statuses.isEmpty ? all : all.filter { statuses.contains($0.status) }
    }

    /// The child's current cards (ready dictations dealt), by card number.
    public func cards(childID: Int64) throws(StateError) -> [DictationRecord] {
        try dictations(where: "d.child_id = ? AND d.card IS NOT NULL", [.integer(childID)]).sorted { ($0.card ?? 0) < ($1.card ?? 0) }
    }

    /// The child's last graded dictation (latest grading, then highest id), or `nil`.
    public func lastGraded(childID: Int64) throws(StateError) -> DictationRecord? {
        try dictations(childID: childID, statuses: [.graded]).max { ($0.gradedAt ?? .distantPast, $0.id) < ($1.gradedAt ?? .distantPast, $1.id) }
    }

    /// Every graded exposure of the child, oldest first.
    public func exposures(childID: Int64) throws(StateError) -> [SkillExposure] {
        try run {
            try db.query("""
                SELECT dictation_id, skill, graded_at, sites, errors FROM exposures
                WHERE child_id = ? ORDER BY graded_at, dictation_id, skill
                """, [.integer(childID)]).compactMap { row in
                guard let skill = SkillID(rawValue: try row.string("skill")) else { return nil }
                return SkillExposure(dictationID: try row.int64("dictation_id"), skill: skill,
                                      gradedAt: Date(timeIntervalSince1970: TimeInterval(try row.int64("graded_at"))),
                                      sites: try row.int("sites"), errors: try row.int("errors"))
            }
        }
    }

    func dictations(where condition: String, _ arguments: [SQLValue]) throws(StateError) -> [DictationRecord] {
        try run {
            let rows = try db.query("""
                SELECT d.id, d.child_id, d.event_ref, d.start_key, d.moment, d.title, d.body, d.origin, d.targets,
                       d.aim_words, d.density, d.planned_after, d.status, d.card, d.created_at, d.served_at, d.graded_at
                FROM dictations d WHERE \(condition) ORDER BY d.id
                """, arguments)
            var out: [DictationRecord] = []
            for row in rows {
                let id = try row.int64("id")
                guard let event = EventReference(try row.string("event_ref")),
                      let start = OccurrenceKey.start(try row.string("start_key")) else { continue }
                let sites = try db.query("""
                    SELECT number, skill, start_offset, end_offset, word, choice, alternatives, missed
                    FROM trap_sites WHERE dictation_id = ? ORDER BY number
                    """, [.integer(id)]).compactMap { s -> TrapSite? in
                    guard let skill = SkillID(rawValue: try s.string("skill")) else { return nil }
                    let alternatives = try s.string("alternatives")
                    return TrapSite(skill: skill, start: try s.int("start_offset"), end: try s.int("end_offset"),
                                    word: try s.string("word"), choice: try s.optionalString("choice"),
                                    alternatives: alternatives.isEmpty ? [] : alternatives.split(separator: ",").map(String.init),
                                    missed: try s.optionalBool("missed"))
                }
                var record = DictationRecord(
                    childID: try row.int64("child_id"), eventReference: event, start: start,
                    moment: try row.string("moment"), title: try row.string("title"), text: try row.string("body"),
                    origin: try row.string("origin"),
                    targets: try row.string("targets").split(separator: ",").compactMap { SkillID(rawValue: String($0)) },
                    aimWords: try row.double("aim_words"), density: try row.double("density"),
                    plannedAfter: try row.int64("planned_after"), sites: sites,
                    createdAt: Date(timeIntervalSince1970: TimeInterval(try row.int64("created_at"))))
                record.id = id
                record.status = DictationStatus(rawValue: try row.string("status")) ?? .retired
                record.card = try row.optionalInt("card")
                record.servedAt = try row.optionalInt64("served_at").map { Date(timeIntervalSince1970: TimeInterval($0)) }
                record.gradedAt = try row.optionalInt64("graded_at").map { Date(timeIntervalSince1970: TimeInterval($0)) }
                out.append(record)
            }
            return out
        }
    }

    /// The attempts of a dictation, by number.
    /// An unknown removal id (a newer dictee's) is dropped.
    public func attempts(dictationID: Int64) throws(StateError) -> [AttemptRecord] {
        try run {
            try db.query("""
                SELECT number, failed_steps, failed_rules, prompt_tokens, completion_tokens, cached_tokens, seconds, finish_reason,
                       removed
                FROM attempts WHERE dictation_id = ? ORDER BY number
                """, [.integer(dictationID)]).map { row in
                func list(_ column: String) throws -> [String] {
                    let text = try row.string(column)
                    return text.isEmpty ? [] : text.split(separator: ",").map(String.init)
                }
                return AttemptRecord(number: try row.int("number"),
                                     failure: AttemptRecord.failure(storedSteps: try list("failed_steps"), rules: try list("failed_rules")),
                                     promptTokens: try row.int("prompt_tokens"), completionTokens: try row.int("completion_tokens"),
                                     cachedTokens: try row.int("cached_tokens"), seconds: try row.double("seconds"),
                                     finishReason: try row.string("finish_reason"),
                                     removed: try list("removed").compactMap(PromptRemoval.init(rawValue:)))
            }
        }
    }

    /// The model's record over every dictation written (`dictee stats`).
    public func generationStats() throws(StateError) -> GenerationStats {
        try run {
            var stats = GenerationStats(asked: 0, accepted: 0, acceptedFirst: 0, attemptsOfAccepted: 0, fallbacks: 0,
                                        promptTokens: 0, completionTokens: 0, libraryOnly: 0, failedSteps: [])
            var counts: [String: Int] = [:]
            let rows = try db.query("""
                SELECT d.id, d.origin, COUNT(a.number) AS n, COALESCE(SUM(a.prompt_tokens), 0) AS p,
                       COALESCE(SUM(a.completion_tokens), 0) AS c, COALESCE(SUM(a.cached_tokens), 0) AS k
                FROM dictations d LEFT JOIN attempts a ON a.dictation_id = d.id GROUP BY d.id
                """)
            for row in rows {
                let n = try row.int("n"), library = try row.string("origin").hasPrefix("library:")
                if n == 0 {
                    if library { stats.libraryOnly += 1 }
                    continue
                }
                stats.asked += 1
                stats.promptTokens += try row.int("p")
                stats.completionTokens += try row.int("c")
                stats.cachedTokens += try row.int("k")
                if library {
                    stats.fallbacks += 1
                } else {
                    stats.accepted += 1
                    stats.attemptsOfAccepted += n
                    if n == 1 { stats.acceptedFirst += 1 }
                }
            }
            for row in try db.query("SELECT failed_steps FROM attempts WHERE failed_steps != ''") {
                for step in try row.string("failed_steps").split(separator: ",") { counts[String(step), default: 0] += 1 }
            }
            stats.failedSteps = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { GenerationStats.StepCount(step: $0.key, count: $0.value) }
            var rules: [String: Int] = [:]
            for row in try db.query("SELECT failed_rules FROM attempts WHERE failed_rules != ''") {
                for stored in try row.string("failed_rules").split(separator: ",") {
                    // `step/rule`: counted by rule (a rule belongs to one step).
                    let rule = stored.firstIndex(of: "/").map { stored[stored.index(after: $0)...] } ?? stored
                    rules[String(rule), default: 0] += 1
                }
            }
            stats.failedRules = rules.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { GenerationStats.RuleCount(rule: $0.key, count: $0.value) }
            return stats
        }
    }

    /// The occurrences still stored as moments, to set aside dictations whose moment left the
    /// calendar.
    public func momentKeys() throws(StateError) -> Set<OccurrenceKey> {
        try run {
            Set(try db.query("SELECT event_ref, start_key FROM occurrences WHERE decision = 'moment'").compactMap {
                OccurrenceKey(try $0.string("event_ref") + "|" + $0.string("start_key"))
            })
        }
    }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
}
