import DicteeCore
import Foundation

/// What the filter decided for one occurrence, as the store accepts it: a `Moment` (made only by
/// `PrivacyFilter`), or the event reference, dates and rule id of a disqualified or unlabeled one.
/// No calendar text can be passed in.
public enum OccurrenceDecision: Sendable {
    case moment(Moment)
    /// `rule` is a disqualifier id (`D07`).
    case disqualified(rule: String, event: EventReference, start: EventTime, end: EventTime, isRecurring: Bool)
    case unlabeled(event: EventReference, start: EventTime, end: EventTime, isRecurring: Bool)
}

/// A moment as stored (read back from the database).
public struct StoredMoment: Hashable, Sendable {
    public var eventReference: EventReference
    public var start: EventTime
    public var end: EventTime
    public var isRecurring: Bool
    public var phrase: String
    /// The canonical phrase without the name ("l'anniversaire").
    public var basePhrase: String
    /// Gender, number and head noun of the phrase.
    public var grammar: PhraseGrammar
    public var firstName: String?
    public var rule: String
    /// The children the moment belongs to (ids), sorted; empty: the whole family's.
    public var children: [Int64] = []
    /// The library kind of a parent's label; `nil` for a whitelist form.
    public var kind: String? = nil

    /// The occurrence, as dictations refer to it.
    public var occurrenceKey: OccurrenceKey { OccurrenceKey(event: eventReference, start: start) }
}

/// A parent's label as stored with the suggestion: the words, what was derived from them when
/// they were checked (Lexique), and the children it was given for.
public struct StoredLabel: Hashable, Sendable {
    /// The label as stored (normalised): "le dîner chez Mamie".
    public var text: String
    /// Gender, number and head noun; `nil` for a label stored before they were derived.
    public var grammar: PhraseGrammar?
    /// The library kind (`sortie`, `general`...); `nil` for a label stored before kinds.
    public var kind: String?
    /// The children it is for (ids, sorted); empty: the whole family's.
    public var children: [Int64]

    public init(text: String, grammar: PhraseGrammar? = nil, kind: String? = nil, children: [Int64] = []) {
        self.text = text
        self.grammar = grammar
        self.kind = kind
        self.children = children.sorted()
    }
}

/// Where a suggestion stands in the parent's queue.
public enum SuggestionStatus: String, Hashable, Sendable, CaseIterable {
    /// Waiting for a label or a rejection.
    case pending
    /// Labeled: its occurrences are moments (rule `label`).
    case labeled
    /// Rejected: never suggested again, also after ingesting again.
    case rejected
}

/// An event that needed the parent: every stored occurrence of one unlabeled series or one-off
/// event, and what the parent decided.
public struct Suggestion: Hashable, Sendable {
    /// Short id for `dictee suggestions label ID TEXT`.
    public var id: Int64
    public var eventReference: EventReference
    public var status: SuggestionStatus
    /// The parent's label, for a labeled suggestion.
    public var label: StoredLabel?
    public var isRecurring: Bool
    /// The occurrences, by start.
    public var occurrences: [(start: EventTime, end: EventTime)]
    /// The calendar file it was last read from (for `review --show-titles`).
    public var sourcePath: String?

    public static func == (a: Suggestion, b: Suggestion) -> Bool {
        a.id == b.id && a.eventReference == b.eventReference
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Errors of the family's state beyond SQLite itself.
public enum StateError: Error, Hashable, Sendable, CustomStringConvertible {
    case store(StoreError)
    case childExists
    case unknownChild
    case unknownSuggestion(Int64)
    case suggestionNotPending(Int64, status: String)
    /// `unlabel` of a suggestion that is not labeled, `unreject` of one that is not rejected.
    case suggestionNot(Int64, expected: SuggestionStatus, status: String)
    case invalidRule
    /// A refusal of the cards, pick or grade steps.
    case dictation(DictationError)

    public var description: String {
        switch self {
        case .store(let e): return e.description
        case .dictation(let e): return e.description
        case .childExists: return tr("a child with this first name already exists")
        case .unknownChild: return tr("no child with this first name; see 'dictee child list'")
        case .unknownSuggestion(let id):
            return tr("no suggestion %ld", Int(id))
        case .suggestionNotPending(let id, let status):
            return tr("suggestion %ld is already %@", Int(id), StateError.statusName(status))
        case .suggestionNot(let id, let expected, let status):
            return tr("suggestion %ld is %@, not %@", Int(id), StateError.statusName(status), StateError.statusName(expected.rawValue))
        case .invalidRule: return tr("internal error: a rule id must be M.., D.. or label")
        }
    }

    /// A suggestion's status as a person reads it: "pending", "labeled", "rejected" ("en attente",
    /// "étiquetée", "rejetée"); an unknown stored value is shown as it is.
    static func statusName(_ status: String) -> String {
        switch SuggestionStatus(rawValue: status) {
        case .pending: tr("pending")
        case .labeled: tr("labeled")
        case .rejected: tr("rejected")
        case nil: status
        }
    }
}

/// The family's state: children, the filtered occurrences, the parent's labels and rejections.
/// SQLite in WAL mode (`Database`), schema in `Schema`; one transaction per ingest, so a crash
/// never leaves half an ingest behind.
///
/// Default location (chosen by the CLI): `$XDG_DATA_HOME/dictee/dictee.sqlite`.
public final class StateStore {
    let db: Database
    /// The database file.
    public var path: String { db.path }

    /// Opens (creating it and its folder when needed) and migrates the database at `path`.
    /// - Throws: `StateError.store` when the file cannot be opened, is not a dictee database, or
    ///   was written by a newer dictee.
    public init(path: String) throws(StateError) {
        do {
            db = try Database(path: path)
            try migrate(db, Schema.migrations)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.open(path: path, message: "\(error)"))
        }
    }

    func run<T>(_ body: () throws -> T) throws(StateError) -> T {
        do {
            return try body()
        } catch let error as StateError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.open(path: path, message: "\(error)"))
        }
    }

    // MARK: Children

    /// Adds a child. - Throws: `.childExists` when the first name is taken, also in another case
    /// or with other accents ("Zoe" beside "Zoé": the family's commands find a child by the
    /// folded name, `LooseMatch.fold`, and the filter reads titles without accents).
    @discardableResult
    public func addChild(_ child: Child) throws(StateError) -> Child {
        if try children().contains(where: { LooseMatch.fold($0.firstName) == LooseMatch.fold(child.firstName) }) { throw .childExists }
        return try run {
            try db.execute(
                "INSERT INTO children (first_name, gender, grade) VALUES (?, ?, ?)",
                [.text(child.firstName), .text(child.gender.rawValue), .text(child.grade.rawValue)])
            var stored = child
            stored.id = db.lastInsertRowID
            return stored
        }
    }

    /// Every child, by first name.
    public func children() throws(StateError) -> [Child] {
        try run {
            try db.query("SELECT id, first_name, gender, grade FROM children ORDER BY first_name").map {
                Child(id: try $0.int64("id"), firstName: try $0.string("first_name"),
                      gender: Gender(rawValue: try $0.string("gender")) ?? .feminine,
                      grade: Grade(rawValue: try $0.string("grade")) ?? .cp)
            }
        }
    }

    // MARK: Ingest

    /// The parent's labels by event (series or one-off event).
    public func labels() throws(StateError) -> [EventReference: StoredLabel] {
        try run {
            var result: [EventReference: StoredLabel] = [:]
            for row in try db.query("""
                SELECT event_ref, label, label_gender, label_number, label_head, label_kind, label_for
                FROM suggestions WHERE status = 'labeled'
                """) {
                if let ref = EventReference(try row.string("event_ref")) {
                    result[ref] = try Self.storedLabel(row)
                }
            }
            return result
        }
    }

    private static func storedLabel(_ row: Row) throws -> StoredLabel? {
        guard let text = try row.optionalString("label") else { return nil }
        var grammar: PhraseGrammar?
        if let g = try row.optionalString("label_gender").flatMap(Gender.init(rawValue:)),
           let n = try row.optionalString("label_number").flatMap(PhraseGrammar.Number.init(rawValue:)),
           let head = try row.optionalString("label_head") {
            grammar = PhraseGrammar(gender: g, number: n, headNoun: head)
        }
        return StoredLabel(text: text, grammar: grammar, kind: try row.optionalString("label_kind"),
                           children: ids(try row.string("label_for")))
    }

    /// Children ids as stored: sorted, comma-separated, `""` for none.
    static func idList(_ ids: [Int64]) -> String {
        Set(ids).sorted().map(String.init).joined(separator: ",")
    }

    /// The ids of an `idList` text (unknown pieces are skipped).
    static func ids(_ text: String) -> [Int64] {
        text.split(separator: ",").compactMap { Int64($0) }.sorted()
    }

    /// Events the parent rejected: never suggested again.
    public func rejectedEvents() throws(StateError) -> Set<EventReference> {
        try run {
            Set(try db.query("SELECT event_ref FROM suggestions WHERE status = 'rejected'")
                .compactMap { EventReference(try $0.string("event_ref")) })
        }
    }

    /// The read window of an ingest, to forget occurrences that disappeared from a file (a moved or
    /// deleted event): instants in seconds, dates as `YYYY-MM-DD` in the user's zone.
    public struct Window: Sendable {
        public var oneOff: Range<Int64>
        public var recurring: Range<Int64>
        public var oneOffDates: Range<String>
        public var recurringDates: Range<String>
        public init(oneOff: Range<Int64>, recurring: Range<Int64>, oneOffDates: Range<String>,
                    recurringDates: Range<String>) {
            self.oneOff = oneOff
            self.recurring = recurring
            self.oneOffDates = oneOffDates
            self.recurringDates = recurringDates
        }
    }

    /// Stores one ingest in one transaction: every occurrence (inserted, or updated when its
    /// decision changed), and a pending suggestion for each new unlabeled event. Storing the same
    /// decisions again changes nothing.
    /// - Returns: how many occurrence rows were added, changed or removed.
    /// - Parameters:
    ///   - decisions: each occurrence's decision with the path of the file it came from.
    ///   - window: when given, stored occurrences of these files inside the window that the ingest
    ///     did not produce again (moved or deleted events) are removed.
    @discardableResult
    ///   - readSources: the files read completely in this ingest (their vanished occurrences are
    ///     forgotten even when none of theirs is left in the window).
    ///   - keeping: events never forgotten this time (still in a file, but unreadable this run).
    ///   - forgetting: events whose stored occurrences inside the window that this ingest did not
    ///     produce are removed, although their source was not read completely (the events of a
    ///     CalDAV object deleted on the server or read again).
    ///   - remote: what the ingest learnt about remote sources (sync token, per-object ETags),
    ///     stored in the same transaction, so that a crash never leaves a token ahead of the moments.
    public func record(
        _ decisions: [(decision: OccurrenceDecision, source: String)], window: Window? = nil,
        readSources: [String] = [], keeping: Set<EventReference> = [],
        forgetting: Set<EventReference> = [], remote: [RemoteUpdate] = []
    ) throws(StateError) -> Int {
        try run {
            try db.transaction {
                var sourceIDs: [String: Int64] = [:]
                var changed = 0
                var produced = Set<String>()
                for source in readSources where sourceIDs[source] == nil {
                    try db.execute("INSERT OR IGNORE INTO sources (path) VALUES (?)", [.text(source)])
                    sourceIDs[source] = try db.query(
                        "SELECT id FROM sources WHERE path = ?", [.text(source)])[0].int64("id")
                }
                for (decision, source) in decisions {
                    if sourceIDs[source] == nil {
                        try db.execute("INSERT OR IGNORE INTO sources (path) VALUES (?)", [.text(source)])
                        sourceIDs[source] = try db.query(
                            "SELECT id FROM sources WHERE path = ?", [.text(source)])[0].int64("id")
                    }
                    changed += try upsert(decision, sourceID: sourceIDs[source])
                    produced.insert(Self.key(decision))
                    if case .unlabeled(let event, _, _, _) = decision {
                        try db.execute(
                            "INSERT OR IGNORE INTO suggestions (event_ref) VALUES (?)", [.text(event.description)])
                    }
                }
                if let window {
                    let read = readSources.compactMap { sourceIDs[$0] }
                    changed += try forgetVanished(
                        sources: read, produced: produced, window: window,
                        keeping: Set(keeping.map(\.description)), forgetting: Set(forgetting.map(\.description)))
                }
                for update in remote { try store(update) }
                return changed
            }
        }
    }

    private func upsert(_ decision: OccurrenceDecision, sourceID: Int64?) throws -> Int {
        var values: [String: SQLValue] = [:]
        let event: EventReference, start: EventTime, end: EventTime, recurring: Bool
        switch decision {
        case .moment(let m):
            (event, start, end, recurring) = (m.eventReference, m.start, m.end, m.isRecurring)
            guard Self.isRule(m.rule) else { throw StateError.invalidRule }
            values["decision"] = .text("moment")
            values["rule"] = .text(m.rule)
            values["phrase"] = .text(m.phrase)
            values["base_phrase"] = .text(m.basePhrase)
            values["head_noun"] = .text(m.grammar.headNoun)
            values["gender"] = .text(m.grammar.gender.rawValue)
            values["number"] = .text(m.grammar.number.rawValue)
            values["first_name"] = m.firstName.map(SQLValue.text) ?? .null
            values["children"] = .text(Self.idList(m.children))
            values["kind"] = m.kind.map(SQLValue.text) ?? .null
        case .disqualified(let rule, let e, let s, let en, let r):
            (event, start, end, recurring) = (e, s, en, r)
            guard Self.isRule(rule) else { throw StateError.invalidRule }
            values["decision"] = .text("disqualified")
            values["rule"] = .text(rule)
        case .unlabeled(let e, let s, let en, let r):
            (event, start, end, recurring) = (e, s, en, r)
            values["decision"] = .text("unlabeled")
        }
        for column in ["rule", "phrase", "base_phrase", "head_noun", "gender", "number", "first_name", "kind"]
        where values[column] == nil {
            values[column] = .null
        }
        if values["children"] == nil { values["children"] = .text("") }
        values["all_day"] = .integer(start.date != nil ? 1 : 0)
        values["start_seconds"] = start.instant.map(SQLValue.integer) ?? .null
        values["end_seconds"] = end.instant.map(SQLValue.integer) ?? .null
        values["start_date"] = start.date.map { .text($0.description) } ?? .null
        values["end_date"] = end.date.map { .text($0.description) } ?? .null
        values["recurring"] = .integer(recurring ? 1 : 0)
        values["source_id"] = sourceID.map(SQLValue.integer) ?? .null
        let columns = ["all_day", "start_seconds", "end_seconds", "start_date", "end_date", "recurring",
                       "decision", "rule", "phrase", "base_phrase", "head_noun", "gender", "number",
                       "first_name", "source_id", "children", "kind"]
        let sql = """
            INSERT INTO occurrences (event_ref, start_key, \(columns.joined(separator: ", ")))
            VALUES (?, ?, \(columns.map { _ in "?" }.joined(separator: ", ")))
            ON CONFLICT (event_ref, start_key) DO UPDATE SET
            \(columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            WHERE \(columns.map { "\($0) IS NOT excluded.\($0)" }.joined(separator: " OR "))
            """
        try db.execute(sql, [.text(event.description), .text(OccurrenceKey.startText(start))] + columns.map { values[$0]! })
        return db.changes
    }

    private static func key(_ d: OccurrenceDecision) -> String {
        switch d {
        case .moment(let m): return OccurrenceKey(event: m.eventReference, start: m.start).description
        case .disqualified(_, let e, let s, _, _), .unlabeled(let e, let s, _, _):
            return OccurrenceKey(event: e, start: s).description
        }
    }

    /// Removes stored occurrences inside the window that this ingest did not produce again, for
    /// the files it read and for the events it saw (an event moved to another time, or found in a
    /// newer export under another file name).
    private func forgetVanished(
        sources: [Int64], produced: Set<String>, window: Window, keeping: Set<String>, forgetting: Set<String> = []
    ) throws -> Int {
        var removed = 0
        let events = Set(produced.map { String($0.prefix(while: { $0 != "|" })) }).union(forgetting)
        let selections: [(String, SQLValue)] = sources.map { ("source_id = ?", .integer($0)) }
            + events.sorted().map { ("event_ref = ?", .text($0)) }
        for (condition, value) in selections {
            let rows = try db.query("""
                SELECT event_ref, start_key FROM occurrences WHERE \(condition) AND (
                    (recurring = 1 AND all_day = 0 AND start_seconds >= ? AND start_seconds < ?) OR
                    (recurring = 0 AND all_day = 0 AND start_seconds >= ? AND start_seconds < ?) OR
                    (recurring = 1 AND all_day = 1 AND start_date >= ? AND start_date < ?) OR
                    (recurring = 0 AND all_day = 1 AND start_date >= ? AND start_date < ?))
                """, [
                    value, .integer(window.recurring.lowerBound), .integer(window.recurring.upperBound),
                    .integer(window.oneOff.lowerBound), .integer(window.oneOff.upperBound),
                    .text(window.recurringDates.lowerBound), .text(window.recurringDates.upperBound),
                    .text(window.oneOffDates.lowerBound), .text(window.oneOffDates.upperBound),
                ])
            for row in rows {
                let ref = try row.string("event_ref"), key = try row.string("start_key")
                if !produced.contains(ref + "|" + key), !keeping.contains(ref) {
                    try db.execute("DELETE FROM occurrences WHERE event_ref = ? AND start_key = ?", [.text(ref), .text(key)])
                    removed += db.changes
                }
            }
        }
        return removed
    }

    static func isRule(_ rule: String) -> Bool {
        if rule == "label" { return true }
        guard let first = rule.first, first == "M" || first == "D" || first == "P", rule.count >= 2, rule.count <= 5 else {
            return false
        }
        return rule.dropFirst().allSatisfy(\.isASCII) && rule.dropFirst().allSatisfy(\.isNumber)
    }

    // MARK: Settings

    /// The time zone (IANA name) of the last ingest, if any.
    public func ingestZone() throws(StateError) -> String? { try setting("tz") }

    /// Remembers the time zone of an ingest (changes nothing when it is the same).
    public func setIngestZone(_ identifier: String) throws(StateError) { try setSetting("tz", identifier) }

    /// The filter's rules the last complete ingest decided with (`setRulesKey`), or `nil`.
    public func rulesKey() throws(StateError) -> String? { try setting("rules") }

    /// Remembers the filter's rules an ingest decided with (the digests of the rule files and
    /// whether the Lexique table was there): a remote calendar not read again since is read
    /// whole when they change (`IngestRun`).
    public func setRulesKey(_ key: String) throws(StateError) { try setSetting("rules", key) }

    /// The value of a `settings` row (`key` one of the table's CHECK: `tz`, `rules`), or `nil`.
    private func setting(_ key: String) throws(StateError) -> String? {
        try run { try db.query("SELECT value FROM settings WHERE key = ?", [.text(key)]).first?.string("value") }
    }

    /// Writes a `settings` row (changes nothing when the value is the same).
    private func setSetting(_ key: String, _ value: String) throws(StateError) {
        try run {
            try db.execute("""
                INSERT INTO settings (key, value) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value
                """, [.text(key), .text(value)])
        }
    }

    // MARK: Suggestions

    /// Pending suggestions (unlabeled events not yet labeled or rejected), by first occurrence.
    public func pendingSuggestions() throws(StateError) -> [Suggestion] {
        try suggestions(where: "s.status = 'pending'", [])
    }

    /// Every suggestion with a stored occurrence, whatever its status (pending, labeled,
    /// rejected), by first occurrence.
    public func allSuggestions() throws(StateError) -> [Suggestion] {
        try suggestions(where: "1", [])
    }

    /// One suggestion whatever its status, or `nil`.
    public func suggestion(id: Int64) throws(StateError) -> Suggestion? {
        try suggestions(where: "s.id = ?", [.integer(id)]).first
    }

    /// The status of suggestion `id` (`pending`, `labeled`, `rejected`), or `nil`.
    public func suggestionStatus(id: Int64) throws(StateError) -> String? {
        try run { try db.query("SELECT status FROM suggestions WHERE id = ?", [.integer(id)]).first?.string("status") }
    }

    private func suggestions(where condition: String, _ arguments: [SQLValue]) throws(StateError) -> [Suggestion] {
        try run {
            let rows = try db.query("""
                SELECT s.id, s.event_ref, s.status, s.label, s.label_gender, s.label_number, s.label_head,
                       s.label_kind, s.label_for, o.all_day, o.start_seconds, o.end_seconds,
                       o.start_date, o.end_date, o.recurring, src.path
                FROM suggestions s
                JOIN occurrences o ON o.event_ref = s.event_ref
                    AND (o.decision = 'unlabeled' OR (s.status = 'labeled' AND o.rule = 'label'))
                LEFT JOIN sources src ON src.id = o.source_id
                WHERE \(condition)
                ORDER BY s.id, o.start_key
                """, arguments)
            var order: [Int64] = []
            var byID: [Int64: Suggestion] = [:]
            for row in rows {
                let id = try row.int64("id")
                let (start, end) = try Self.times(row)
                if byID[id] == nil {
                    order.append(id)
                    byID[id] = Suggestion(
                        id: id, eventReference: EventReference(try row.string("event_ref"))!,
                        status: SuggestionStatus(rawValue: try row.string("status")) ?? .pending,
                        label: try Self.storedLabel(row),
                        isRecurring: try row.bool("recurring"), occurrences: [],
                        sourcePath: try row.optionalString("path"))
                }
                byID[id]!.occurrences.append((start, end))
            }
            return order.map { byID[$0]! }.sorted {
                Self.sortKey($0.occurrences.first?.start) < Self.sortKey($1.occurrences.first?.start)
            }
        }
    }

    private static func sortKey(_ t: EventTime?) -> String {
        switch t {
        case .date(let d): return d.description + "T00"
        case .instant(let s):
            let date = CalendarDate(daysSinceEpoch: Int((s >= 0 ? s : s - 86_399) / 86_400))
            return date.description + "T" + String(s)
        case nil: return "~"
        }
    }

    private static func times(_ row: Row) throws -> (EventTime, EventTime) {
        if try row.bool("all_day") {
            return (.date(try parseDate(row.string("start_date"))), .date(try parseDate(row.string("end_date"))))
        }
        return (.instant(try row.int64("start_seconds")), .instant(try row.int64("end_seconds")))
    }

    private static func parseDate(_ text: String) -> CalendarDate {
        let p = text.split(separator: "-").compactMap { Int($0) }
        return p.count == 3 ? CalendarDate(year: p[0], month: p[1], day: p[2]) : CalendarDate(year: 1970, month: 1, day: 1)
    }

    /// Records the parent's label for suggestion `id` and turns its occurrences into the given
    /// moments (made by `PrivacyFilter.moment(label:...)`), in one transaction.
    public func label(suggestion id: Int64, label: StoredLabel, moments: [Moment]) throws(StateError) {
        try requirePending(id)
        try run {
            try db.transaction {
                try db.execute("""
                    UPDATE suggestions SET status = 'labeled', label = ?, label_gender = ?, label_number = ?,
                        label_head = ?, label_kind = ?, label_for = ?
                    WHERE id = ?
                    """,
                    [.text(label.text), label.grammar.map { .text($0.gender.rawValue) } ?? .null,
                     label.grammar.map { .text($0.number.rawValue) } ?? .null,
                     label.grammar.map { .text($0.headNoun) } ?? .null, label.kind.map(SQLValue.text) ?? .null,
                     .text(Self.idList(label.children)), .integer(id)])
                for moment in moments {
                    // Only occurrences still waiting for the parent take the label: a disqualified
                    // or already named occurrence of the same series keeps its decision.
                    guard let row = try db.query(
                        "SELECT source_id FROM occurrences WHERE event_ref = ? AND start_key = ? AND decision = 'unlabeled'",
                        [.text(moment.eventReference.description), .text(OccurrenceKey.startText(moment.start))]
                    ).first else { continue }
                    _ = try upsert(.moment(moment), sourceID: try row.optionalInt64("source_id"))
                }
            }
        }
    }

    /// Rejects suggestion `id`: its event is never suggested again, also after re-ingesting.
    public func reject(suggestion id: Int64) throws(StateError) {
        try requirePending(id)
        try run {
            try db.execute("UPDATE suggestions SET status = 'rejected' WHERE id = ?", [.integer(id)])
        }
    }

    /// What taking a label back withdrew.
    public struct Withdrawal: Hashable, Sendable {
        /// Occurrences that were moments through the label and wait for the parent again.
        public var moments: Int
        /// Dictations about them that were ready and not served (retired; served and graded
        /// ones stay as the child's history).
        public var dictations: Int
    }

    /// Takes back the label of suggestion `id`: it waits for the parent again, its occurrences
    /// are no longer moments, and dictations about them not yet served are retired; served and
    /// graded dictations stay. One transaction.
    /// - Throws: `.unknownSuggestion`, `.suggestionNot(id, expected: .labeled, …)`.
    @discardableResult
    public func unlabel(suggestion id: Int64) throws(StateError) -> Withdrawal {
        let ref = try require(id, .labeled)
        return try run { try db.transaction { try withdrawLabel(suggestion: id, event: ref) } }
    }

    /// The writes of `unlabel` (inside the caller's transaction): suggestion `id` of event `ref`
    /// waits for the parent again, its labeled occurrences are unlabeled, and the ready
    /// dictations about them are retired. Also used when a child is removed (`Children.swift`).
    func withdrawLabel(suggestion id: Int64, event ref: String) throws -> Withdrawal {
        try db.execute("""
            UPDATE suggestions SET status = 'pending', label = NULL, label_gender = NULL,
                label_number = NULL, label_head = NULL, label_kind = NULL, label_for = ''
            WHERE id = ?
            """, [.integer(id)])
        let keys = try db.query(
            "SELECT start_key FROM occurrences WHERE event_ref = ? AND decision = 'moment' AND rule = 'label'",
            [.text(ref)]).map { try $0.string("start_key") }
        try db.execute("""
            UPDATE occurrences SET decision = 'unlabeled', rule = NULL, phrase = NULL, base_phrase = NULL,
                head_noun = NULL, gender = NULL, number = NULL, first_name = NULL, children = '', kind = NULL
            WHERE event_ref = ? AND decision = 'moment' AND rule = 'label'
            """, [.text(ref)])
        var retired = 0
        for key in keys {
            try db.execute(
                "UPDATE dictations SET status = 'retired', card = NULL WHERE event_ref = ? AND start_key = ? AND status = 'ready'",
                [.text(ref), .text(key)])
            retired += db.changes
        }
        return Withdrawal(moments: keys.count, dictations: retired)
    }

    /// Takes back the rejection of suggestion `id`: it waits for the parent again.
    /// - Throws: `.unknownSuggestion`, `.suggestionNot(id, expected: .rejected, …)`.
    public func unreject(suggestion id: Int64) throws(StateError) {
        _ = try require(id, .rejected)
        try run {
            try db.execute("UPDATE suggestions SET status = 'pending' WHERE id = ? AND status = 'rejected'", [.integer(id)])
        }
    }

    /// The event reference of suggestion `id`, which must have `status`.
    private func require(_ id: Int64, _ status: SuggestionStatus) throws(StateError) -> String {
        let row = try run { try db.query("SELECT event_ref, status FROM suggestions WHERE id = ?", [.integer(id)]).first }
        guard let row else { throw .unknownSuggestion(id) }
        let (ref, current) = try run { (try row.string("event_ref"), try row.string("status")) }
        guard current == status.rawValue else { throw .suggestionNot(id, expected: status, status: current) }
        return ref
    }

    private func requirePending(_ id: Int64) throws(StateError) {
        guard let status = try suggestionStatus(id: id) else { throw .unknownSuggestion(id) }
        guard status == "pending" else { throw .suggestionNotPending(id, status: status) }
    }

    // MARK: Reading moments

    /// Every stored moment, by start.
    public func moments() throws(StateError) -> [StoredMoment] {
        try run {
            try db.query("""
                SELECT event_ref, all_day, start_seconds, end_seconds, start_date, end_date, recurring,
                       phrase, base_phrase, head_noun, gender, number, first_name, rule, children, kind
                FROM occurrences WHERE decision = 'moment' ORDER BY start_key
                """).map { row in
                let (start, end) = try Self.times(row)
                let grammar = PhraseGrammar(
                    gender: Gender(rawValue: try row.optionalString("gender") ?? "f") ?? .feminine,
                    number: PhraseGrammar.Number(rawValue: try row.optionalString("number") ?? "s") ?? .singular,
                    headNoun: try row.optionalString("head_noun") ?? "")
                return StoredMoment(
                    eventReference: EventReference(try row.string("event_ref"))!, start: start, end: end,
                    isRecurring: try row.bool("recurring"), phrase: try row.string("phrase"),
                    basePhrase: try row.optionalString("base_phrase") ?? (try row.string("phrase")), grammar: grammar,
                    firstName: try row.optionalString("first_name"), rule: try row.string("rule"),
                    children: Self.ids(try row.string("children")), kind: try row.optionalString("kind"))
            }
        }
    }

    /// Every row of every table as text, for audits and tests ("no calendar text in the database").
    public func dump() throws(StateError) -> String {
        try run {
            var text = ""
            for table in ["children", "sources", "suggestions", "occurrences", "settings", "dictations", "trap_sites", "exposures", "attempts"] {
                for row in try db.query("SELECT * FROM \(table)") {
                    text += table + ": " + row.values.map { "\($0)" }.joined(separator: " | ") + "\n"
                }
            }
            return text
        }
    }
}
