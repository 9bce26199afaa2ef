import DicteeCore
import Foundation

/// A child with how many dictations it had and has waiting, for `dictee child list`.
public struct ChildSummary: Hashable, Sendable {
    public var child: Child
    /// Dictations picked by the child (status `served` or `graded`).
    public var served: Int
    /// Validated dictations waiting behind a card or in reserve (status `ready`).
    public var ready: Int
}

/// What removing a child erased (`StateStore.removeChild`).
public struct ChildRemoval: Hashable, Sendable {
    /// The child's dictations (any status), with their trap sites, exposures and attempts.
    public var dictations: Int
    /// Stored moments that named the child or belonged to it alone (the next ingest reads the
    /// calendars again: a title still naming the child comes back as the filter decides then).
    public var moments: Int
    /// Labels given for the child alone, or whose words name it: they wait for the parent again.
    public var labels: Int
    /// Rows of other children's history (served or graded dictations) that still hold the name:
    /// they are the siblings' own records and are kept. 0 in the usual case.
    public var keptInOthersHistory: Int
    /// Whether the write-ahead log could be emptied after `VACUUM` (`false`: another connection
    /// held it; the next checkpoint empties it).
    public var walTruncated: Bool
}

extension StateStore {
    // MARK: Children's records (issue 16): list with counts, grade and gender, rename, remove.
    // One home for these writes; the command line only parses and renders.

    /// Every child, by first name, with the number of dictations served (or graded) and ready.
    public func childSummaries() throws(StateError) -> [ChildSummary] {
        let all = try children()
        return try run {
            var counts: [Int64: (served: Int, ready: Int)] = [:]
            for row in try db.query("""
                SELECT child_id, SUM(status IN ('served', 'graded')) AS served, SUM(status = 'ready') AS ready
                FROM dictations GROUP BY child_id
                """) {
                counts[try row.int64("child_id")] = (try row.int("served"), try row.int("ready"))
            }
            return all.map { c in
                let n = counts[c.id ?? -1] ?? (0, 0)
                return ChildSummary(child: c, served: n.served, ready: n.ready)
            }
        }
    }

    /// Changes a child's grade and/or gender. The texts waiting for the child (ready, behind a
    /// card or in reserve) were planned for the old grade and agree with the old gender: they are
    /// retired, so that the next `nightly`, `cards` or `pick` plans new ones. Served and graded
    /// dictations stay as they were. One transaction; nothing changes when both are the same.
    /// - Parameters:
    ///   - id: the child's id.
    ///   - grade: the new grade, `nil` to keep it.
    ///   - gender: the new gender, `nil` to keep it.
    /// - Returns: the number of ready dictations retired.
    /// - Throws: `.unknownChild` when no child has `id`; `.store`.
    @discardableResult
    public func updateChild(id: Int64, grade: Grade? = nil, gender: Gender? = nil) throws(StateError) -> Int {
        guard let current = try children().first(where: { $0.id == id }) else { throw .unknownChild }
        let newGrade = grade ?? current.grade, newGender = gender ?? current.gender
        guard newGrade != current.grade || newGender != current.gender else { return 0 }
        return try run {
            try db.transaction {
                try db.execute("UPDATE children SET grade = ?, gender = ? WHERE id = ?",
                               [.text(newGrade.rawValue), .text(newGender.rawValue), .integer(id)])
                try db.execute("UPDATE dictations SET status = 'retired', card = NULL WHERE child_id = ? AND status = 'ready'",
                               [.integer(id)])
                return db.changes
            }
        }
    }

    /// Renames a child. Texts already served keep the name they were written with (they are the
    /// child's history); ready texts (of any child) that hold the old name are retired, so that
    /// new ones are planned with the new name. One transaction.
    /// - Parameters:
    ///   - id: the child's id.
    ///   - newName: the new first name, already checked by the caller (`PrivacyFilter.acceptsName`).
    /// - Returns: the number of ready dictations retired.
    /// - Throws: `.unknownChild`; `.childExists` when another child has the new name (in any
    ///   case, with or without accents: `LooseMatch.fold`); `.store`.
    @discardableResult
    public func renameChild(id: Int64, to newName: String) throws(StateError) -> Int {
        let all = try children()
        guard let current = all.first(where: { $0.id == id }) else { throw .unknownChild }
        if all.contains(where: { $0.id != id && LooseMatch.fold($0.firstName) == LooseMatch.fold(newName) }) { throw .childExists }
        guard current.firstName != newName else { return 0 }
        return try run {
            try db.transaction {
                try db.execute("UPDATE children SET first_name = ? WHERE id = ?", [.text(newName), .integer(id)])
                let naming = try db.query("SELECT id, child_id, moment, title, body FROM dictations WHERE status = 'ready'").filter { row in
                    if try row.int64("child_id") == id { return true }
                    return try [row.string("moment"), row.string("title"), row.string("body")]
                        .contains { Self.mentions($0, current.firstName) }
                }
                for row in naming {
                    try db.execute("UPDATE dictations SET status = 'retired', card = NULL WHERE id = ?", [.integer(try row.int64("id"))])
                }
                return naming.count
            }
        }
    }

    /// How many calendar events the privacy filter read as about child `id` by its first name
    /// `name`: the child's own moments from a whitelist form (the title named the child, or its
    /// grade: the state keeps no title to tell), and the moments whose phrase names it
    /// ("l'anniversaire de Léa"). A parent's label keeps its children (`--for`). After a rename,
    /// a title that still says the old name is read from the next ingest as someone else's.
    /// - Returns: the number of distinct events (VEVENT references), not occurrences.
    public func eventsReadByName(childID id: Int64, name: String) throws(StateError) -> Int {
        try run {
            var events: Set<String> = []
            for row in try db.query("SELECT event_ref, rule, first_name, children FROM occurrences WHERE decision = 'moment'") {
                let rule = try row.optionalString("rule"), children = Self.ids(try row.string("children"))
                let phraseName = try row.optionalString("first_name") ?? ""
                let own = rule != "label" && children.contains(id)
                if own || Self.mentions(phraseName, name) { events.insert(try row.string("event_ref")) }
            }
            return events.count
        }
    }

    /// Erases every row about a child, in one transaction: the child, its dictations (any status)
    /// with every row that refers to them (found from the schema: each table with a
    /// `dictation_id` or `child_id` column), the stored moments that name it or belong to it
    /// alone, its id in the other moments' and labels' children lists, and the labels given for
    /// it alone or whose words name it (they wait for the parent again, like `unlabel`). Other
    /// children's texts not yet served that name it are erased too. Then `VACUUM` and a
    /// truncating WAL checkpoint, with `secure_delete` on, so that no free page of the file or
    /// of its `-wal` keeps the name.
    /// - Parameter id: the child's id.
    /// - Returns: what was erased.
    /// - Throws: `.unknownChild`; `.store` (nothing is erased when the transaction fails).
    /// - Warning: the audit file beside the state keeps the name until the next `nightly` writes
    ///   it again, and the calendars themselves are not touched.
    @discardableResult
    public func removeChild(id: Int64) throws(StateError) -> ChildRemoval {
        guard let child = try children().first(where: { $0.id == id }) else { throw .unknownChild }
        let name = child.firstName
        var removal = try run {
            try db.execute("PRAGMA secure_delete=ON")
            return try db.transaction { () throws -> ChildRemoval in
                var removal = ChildRemoval(dictations: 0, moments: 0, labels: 0, keptInOthersHistory: 0, walTruncated: false)
                // Labels: for this child alone, or naming it, wait for the parent again; others
                // lose the id from their list.
                for row in try db.query("SELECT id, event_ref, label, label_for FROM suggestions WHERE status = 'labeled'") {
                    let ids = Self.ids(try row.string("label_for"))
                    let naming = Self.mentions(try row.optionalString("label") ?? "", name)
                    if naming || ids == [id] {
                        _ = try withdrawLabel(suggestion: try row.int64("id"), event: try row.string("event_ref"))
                        removal.labels += 1
                    } else if ids.contains(id) {
                        try db.execute("UPDATE suggestions SET label_for = ? WHERE id = ?",
                                       [.text(Self.idList(ids.filter { $0 != id })), .integer(try row.int64("id"))])
                    }
                }
                // Moments: naming the child or belonging to it alone are erased; others lose the id.
                for row in try db.query("""
                    SELECT event_ref, start_key, phrase, base_phrase, first_name, children FROM occurrences
                    WHERE decision = 'moment'
                    """) {
                    let ids = Self.ids(try row.string("children"))
                    let key: [SQLValue] = [.text(try row.string("event_ref")), .text(try row.string("start_key"))]
                    let naming = try ["phrase", "base_phrase", "first_name"].contains {
                        Self.mentions(try row.optionalString($0) ?? "", name)
                    }
                    if naming || ids == [id] {
                        try db.execute("DELETE FROM occurrences WHERE event_ref = ? AND start_key = ?", key)
                        removal.moments += 1
                    } else if ids.contains(id) {
                        try db.execute("UPDATE occurrences SET children = ? WHERE event_ref = ? AND start_key = ?",
                                       [.text(Self.idList(ids.filter { $0 != id }))] + key)
                    }
                }
                // Dictations: the child's, and the others' not yet served that name it.
                var doomed = try db.query("SELECT id FROM dictations WHERE child_id = ?", [.integer(id)]).map { try $0.int64("id") }
                removal.dictations = doomed.count
                for row in try db.query("SELECT id, moment, title, body FROM dictations WHERE child_id <> ? AND status IN ('ready', 'retired')",
                                        [.integer(id)]) {
                    if try ["moment", "title", "body"].contains(where: { Self.mentions(try row.string($0), name) }) {
                        doomed.append(try row.int64("id"))
                    }
                }
                let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                    .map { try $0.string("name") }
                var columns: [String: [String]] = [:]
                for table in tables {
                    columns[table] = try db.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).map { try $0.string("name") }
                }
                for table in tables where table != "dictations" && columns[table]!.contains("dictation_id") {
                    for d in doomed { try db.execute("DELETE FROM \(table) WHERE dictation_id = ?", [.integer(d)]) }
                }
                for d in doomed { try db.execute("DELETE FROM dictations WHERE id = ?", [.integer(d)]) }
                for table in tables where table != "children" && columns[table]!.contains("child_id") {
                    try db.execute("DELETE FROM \(table) WHERE child_id = ?", [.integer(id)])
                }
                try db.execute("DELETE FROM children WHERE id = ?", [.integer(id)])
                // What still holds the name: the siblings' served history, counted, not touched.
                for table in tables {
                    let text = columns[table]!.map { "coalesce(CAST(\"\($0)\" AS TEXT), '')" }.joined(separator: " || ' ' || ")
                    for row in try db.query("SELECT \(text) AS t FROM \(table) WHERE instr(lower(\(text)), lower(?)) > 0", [.text(name)]) {
                        if Self.mentions(try row.string("t"), name) { removal.keptInOthersHistory += 1 }
                    }
                }
                return removal
            }
        }
        // Outside the transaction: VACUUM rewrites the file without its free pages, and the
        // checkpoint copies the log back and empties it (busy = 0 when no reader held it).
        removal.walTruncated = try run {
            try db.execute("VACUUM")
            let row = try db.query("PRAGMA wal_checkpoint(TRUNCATE)").first
            return try row?.int(0) == 0
        }
        return removal
    }

    /// Whether `text` holds `name` as a whole word (not inside a longer name: "Léa" is not in
    /// "Léandre"), ignoring case, not accents.
    static func mentions(_ text: String, _ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        var searched = text.startIndex..<text.endIndex
        while let r = text.range(of: name, options: .caseInsensitive, range: searched) {
            let before = r.lowerBound == text.startIndex ? nil : text[text.index(before: r.lowerBound)]
            let after = r.upperBound == text.endIndex ? nil : text[r.upperBound]
            if !(before?.isLetter ?? false), !(after?.isLetter ?? false) { return true }
            searched = r.upperBound..<text.endIndex
        }
        return false
    }
}
