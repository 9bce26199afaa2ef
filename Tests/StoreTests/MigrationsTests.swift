import DicteeCore
import Foundation
import Testing

@testable import Store

/// A small schema in three steps; step 2 needs step 1's table, step 3 rebuilds a table (the
/// foreign-keys-off procedure).
private let steps = [
    Migration(
        version: 1,
        sql: """
            CREATE TABLE child (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL);
            CREATE TABLE moment (id INTEGER PRIMARY KEY,
                                 child_id INTEGER NOT NULL REFERENCES child(id),
                                 phrase TEXT NOT NULL);
            """),
    Migration(version: 2, sql: "ALTER TABLE child ADD COLUMN grade TEXT NOT NULL DEFAULT 'CE1';"),
    Migration(
        version: 3,
        sql: """
            CREATE TABLE child_new (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL,
                                    grade TEXT NOT NULL DEFAULT 'CE1' CHECK (grade IN ('CE1', 'CE2', 'CM1', 'CM2')));
            INSERT INTO child_new SELECT id, first_name, grade FROM child;
            DROP TABLE child;
            ALTER TABLE child_new RENAME TO child;
            """),
]

/// Every table and index definition, then every row of `child` and `moment`, as text.
private func snapshot(_ db: Database) throws -> [String] {
    let schema = try db.query("SELECT type, name, sql FROM sqlite_schema ORDER BY type, name").map {
        "\(try $0.string("type")) \(try $0.string("name")): \(try $0.optionalString("sql") ?? "")"
    }
    let tables = Set(try db.query("SELECT name FROM sqlite_schema WHERE type = 'table'").map {
        try $0.string("name")
    })
    var rows: [String] = []
    for table in ["child", "moment"] where tables.contains(table) {
        rows += try db.query("SELECT * FROM \(table) ORDER BY id").map { "\($0.values)" }
    }
    return schema + rows + ["user_version \(try db.schemaVersion())"]
}

@Suite("Migrations")
struct MigrationsTests {
    @Test("a new database gets every migration, in order")
    func appliesInOrder() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            #expect(try db.schemaVersion() == 0)
            #expect(try migrate(db, steps) == [1, 2, 3])
            #expect(try db.schemaVersion() == 3)
            try db.execute("INSERT INTO child (first_name, grade) VALUES (?, ?)", ["Zoé", "CM1"])
            #expect(throws: StoreError.self) {  // step 3's CHECK is there
                try db.execute("INSERT INTO child (first_name, grade) VALUES (?, ?)", ["Léo", "6e"])
            }
            // Foreign keys are enforced again after the migration.
            #expect(try db.query("PRAGMA foreign_keys").first?.int(0) == 1)
            #expect(throws: StoreError.self) {
                try db.execute("INSERT INTO moment (child_id, phrase) VALUES (?, ?)", [99, "x"])
            }
        }
    }

    @Test("running the migrations again changes nothing, from the same or another connection")
    func idempotent() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            try migrate(db, steps)
            try db.execute("INSERT INTO child (first_name) VALUES (?)", ["Anaïs"])
            try db.execute("INSERT INTO moment (child_id, phrase) VALUES (1, ?)", ["la piscine"])
            let before = try snapshot(db)
            #expect(try migrate(db, steps) == [])
            #expect(try snapshot(db) == before)
            let other = try Database(path: path)
            #expect(try migrate(other, steps) == [])
            #expect(try snapshot(other) == before)
        }
    }

    @Test("an older database gets only the missing migrations, and keeps its rows")
    func appliesOnlyTheMissingOnes() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            #expect(try migrate(db, Array(steps.prefix(1))) == [1])
            try db.execute("INSERT INTO child (first_name) VALUES (?)", ["Noé"])
            try db.execute("INSERT INTO moment (child_id, phrase) VALUES (1, ?)", ["le judo"])
            #expect(try migrate(db, steps) == [2, 3])
            let row = try #require(try db.query("SELECT first_name, grade FROM child").first)
            #expect(try row.string("first_name") == "Noé")
            #expect(try row.string("grade") == "CE1")
            // The moment still points at its child through the rebuilt table.
            let joined = try db.query(
                "SELECT phrase FROM moment JOIN child ON child.id = moment.child_id")
            #expect(try joined.map { try $0.string("phrase") } == ["le judo"])
        }
    }

    @Test("a database written by a newer dictee is refused and left untouched")
    func refusesNewerDatabase() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            try db.execute("PRAGMA user_version = 7")
            let before = try snapshot(db)
            let error = #expect(throws: StoreError.self) { try migrate(db, steps) }
            #expect(error == .newerSchema(path: path, found: 7, known: 3))
            #expect(error?.description.hasPrefix(path + ": ") == true)
            #expect(error?.description.contains("was written by a newer dictee") == true)
            #expect(try snapshot(db) == before)
        }
    }

    @Test("a failing migration is rolled back whole and the previous version stays")
    func failingMigrationLeavesPreviousVersion() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            try migrate(db, Array(steps.prefix(2)))
            try db.execute("INSERT INTO child (first_name) VALUES (?)", ["Lou"])
            let before = try snapshot(db)

            let broken = Migration(
                version: 3,
                sql: """
                    CREATE TABLE skill (id INTEGER PRIMARY KEY);
                    ALTER TABLE child ADD COLUMN birthday TEXT;
                    INSERT INTO nowhere VALUES (1);
                    """)
            let error = #expect(throws: StoreError.self) {
                try migrate(db, Array(steps.prefix(2)) + [broken])
            }
            guard case .migration(let errorPath, let version, let message)? = error else {
                Issue.record("expected .migration, got \(String(describing: error))")
                return
            }
            #expect(errorPath == path)
            #expect(version == 3)
            #expect(message.contains("no such table: nowhere"))
            #expect(
                error?.description.hasPrefix(
                    path + ": migration 3 failed and was rolled back, the database stays at schema version 2")
                    == true)
            #expect(try snapshot(db) == before)  // no `skill` table, no `birthday` column
            #expect(!db.isInTransaction)
            #expect(try db.query("PRAGMA foreign_keys").first?.int(0) == 1)

            // Fixed, the migration then applies.
            #expect(try migrate(db, steps) == [3])
        }
    }

    @Test("a migration that leaves a broken foreign key is rolled back")
    func foreignKeyCheck() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            try migrate(db, steps)
            try db.execute("INSERT INTO child (first_name) VALUES (?)", ["Mia"])
            try db.execute("INSERT INTO moment (child_id, phrase) VALUES (1, ?)", ["la kermesse"])
            let orphaning = Migration(version: 4, sql: "DELETE FROM child;")
            let error = #expect(throws: StoreError.self) { try migrate(db, steps + [orphaning]) }
            guard case .migration(_, 4, let message)? = error else {
                Issue.record("expected .migration(4), got \(String(describing: error))")
                return
            }
            #expect(message == "1 row(s) break a foreign key (first in table 'moment')")
            #expect(try db.schemaVersion() == 3)
            #expect(try db.query("SELECT count(*) AS n FROM child").first?.int("n") == 1)
        }
    }

    @Test(
        "a wrong migration list is refused before anything is applied",
        arguments: [
            ([1, 1, 2], "version 1 appears twice"),
            ([1, 3], "version 2 is missing (the list goes on with 3)"),
            ([2, 3], "version 1 is missing (the list goes on with 2)"),
            ([0, 1], "versions start at 1, found 0"),
            ([2, 1], "version 2 is listed in position 1; keep the list in order"),
        ])
    func refusesWrongLists(versions: [Int], message: String) throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            let list = versions.map { Migration(version: $0, sql: "CREATE TABLE t\($0) (a);") }
            let error = #expect(throws: StoreError.self) { try migrate(db, list) }
            #expect(error == .invalidMigrations(path: path, message: message))
            #expect(try db.schemaVersion() == 0)
            #expect(try db.query("SELECT count(*) AS n FROM sqlite_schema").first?.int("n") == 0)
        }
    }

    @Test("an empty list leaves a new database at version 0")
    func emptyList() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            #expect(try migrate(db, []) == [])
            #expect(try db.schemaVersion() == 0)
        }
    }

    @Test("migrate refuses to run inside a transaction")
    func refusesInsideTransaction() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            try db.transaction {
                #expect(throws: StoreError.self) { try migrate(db, steps) }
            }
            #expect(try db.schemaVersion() == 0)
        }
    }

    @Test("schema 4 to 5: stored attempts keep their failed steps and gain an empty list of failed rules")
    func attemptsGainFailedRules() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            #expect(try migrate(db, Array(Schema.migrations.prefix(4))) == [1, 2, 3, 4])
            try db.execute("INSERT INTO children (id, first_name, gender, grade) VALUES (1, 'Léa', 'f', 'CE1')")
            try db.execute("""
                INSERT INTO dictations (id, child_id, event_ref, start_key, moment, title, body, origin, targets, aim_words,
                                        density, created_at)
                VALUES (1, 1, 'ev-0123456789ab', 't:1796000000', 'la sortie piscine', 'La sortie piscine', 'Léa nage.',
                        'library:ce1-fete-01', 'homophones_a_a', 30, 1, 1796000000)
                """)
            for (n, steps) in [(1, "longueur,temps"), (2, "refus"), (3, "trop_long")] {
                try db.execute("""
                    INSERT INTO attempts (dictation_id, number, failed_steps, prompt_tokens, completion_tokens, seconds, finish_reason, removed)
                    VALUES (1, ?, ?, 100, 50, 0.5, 'stop', ?)
                    """, [.integer(Int64(n)), .text(steps), .text(n == 2 ? "sans_moment" : "")])
            }
            let store = try StateStore(path: path)
            #expect(try store.attempts(dictationID: 1).map(\.failure) == [
                .validation([FailedStep(step: .longueur), FailedStep(step: .temps)]), .refusal, .runaway,
            ])
            #expect(try store.attempts(dictationID: 1)[1].removed == [.moment])
            let stats = try store.generationStats()
            #expect(stats.failedSteps.map(\.step) == ["longueur", "refus", "temps", "trop_long"])
            #expect(stats.failedRules.isEmpty, "nothing to count for attempts stored before version 5")
            #expect(try Database(path: path).schemaVersion() == Schema.migrations.count)
        }
    }

    @Test("schema 5 to 6: every occurrence and label is kept; moments are the family's, labels without grammar")
    func momentsGainChildren() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            #expect(try migrate(db, Array(Schema.migrations.prefix(5))) == [1, 2, 3, 4, 5])
            try db.execute("INSERT INTO sources (id, path) VALUES (1, '/f.ics')")
            try db.execute("""
                INSERT INTO occurrences (event_ref, start_key, all_day, start_seconds, end_seconds, recurring, decision,
                                         rule, phrase, base_phrase, head_noun, gender, number, first_name, source_id)
                VALUES ('ev-0123456789ab', 't:1796000000', 0, 1796000000, 1796003600, 1, 'moment', 'M018',
                        'le cours de judo', 'le cours de judo', 'cours', 'm', 's', NULL, 1),
                       ('ev-0123456789ac', 't:1796000000', 0, 1796000000, 1796003600, 0, 'moment', 'label',
                        'la sortie au parc', 'la sortie au parc', 'parc', 'm', 's', NULL, 1),
                       ('ev-0123456789ad', 't:1796000000', 0, 1796000000, 1796003600, 0, 'disqualified', 'D15',
                        NULL, NULL, NULL, NULL, NULL, NULL, 1)
                """)
            try db.execute("INSERT INTO suggestions (event_ref, status, label) VALUES ('ev-0123456789ac', 'labeled', 'la sortie au parc')")
            let before = try db.query("SELECT event_ref, start_key, decision, rule, phrase FROM occurrences ORDER BY event_ref")
                .map { $0.values.map { "\($0)" } }
            let store = try StateStore(path: path)
            let after = try Database(path: path).query("SELECT event_ref, start_key, decision, rule, phrase FROM occurrences ORDER BY event_ref")
                .map { $0.values.map { "\($0)" } }
            #expect(after == before)
            #expect(try store.moments().map(\.children) == [[], []])
            #expect(try store.moments().map(\.kind) == [nil, nil])
            #expect(try store.labels().values.map(\.self) == [StoredLabel(text: "la sortie au parc")])
            #expect(try store.allSuggestions().first?.status == .labeled)
            #expect(try Database(path: path).query("PRAGMA integrity_check").first?.string(0) == "ok")
            #expect(try Database(path: path).query("PRAGMA index_list(occurrences)").count >= 1)
        }
    }

    @Test("schema 8 to 9: stored attempts keep their rows and count no prompt tokens kept from an earlier request")
    func attemptsGainCachedTokens() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            #expect(try migrate(db, Array(Schema.migrations.prefix(8))) == [1, 2, 3, 4, 5, 6, 7, 8])
            try db.execute("INSERT INTO children (id, first_name, gender, grade) VALUES (1, 'Léa', 'f', 'CE1')")
            try db.execute("""
                INSERT INTO dictations (id, child_id, event_ref, start_key, moment, title, body, origin, targets, aim_words,
                                        density, created_at)
                VALUES (1, 1, 'ev-0123456789ab', 't:1796000000', 'la sortie piscine', 'La sortie piscine', 'Léa nage.',
                        'tiny.gguf', 'homophones_a_a', 30, 1, 1796000000)
                """)
            for (n, steps) in [(1, "longueur"), (2, "")] {
                try db.execute("""
                    INSERT INTO attempts (dictation_id, number, failed_steps, prompt_tokens, completion_tokens, seconds, finish_reason,
                                          removed, failed_rules)
                    VALUES (1, ?, ?, 100, 50, 0.5, 'stop', '', ?)
                    """, [.integer(Int64(n)), .text(steps), .text(n == 1 ? "longueur/longueur_mots" : "")])
            }
            let before = try db.query("SELECT * FROM attempts ORDER BY number").map(\.values)
            let store = try StateStore(path: path)
            let after = try Database(path: path).query("SELECT * FROM attempts ORDER BY number").map(\.values)
            #expect(after.map { Array($0.dropLast()) } == before, "every column of every attempt is kept")
            #expect(after.map(\.last) == [.integer(0), .integer(0)], "cached_tokens comes last, 0 for attempts stored before")
            let attempts = try store.attempts(dictationID: 1)
            #expect(attempts.map(\.cachedTokens) == [0, 0])
            #expect(attempts.map(\.failure) == [.validation([FailedStep(step: .longueur, rules: ["longueur_mots"])]), nil])
            let stats = try store.generationStats()
            #expect(stats.promptTokens == 200 && stats.completionTokens == 100 && stats.cachedTokens == 0)
            #expect(try Database(path: path).schemaVersion() == Schema.migrations.count)
            #expect(throws: StoreError.self, "the column refuses a negative count") {
                try Database(path: path).execute("UPDATE attempts SET cached_tokens = -1 WHERE number = 1")
            }
        }
    }
}
