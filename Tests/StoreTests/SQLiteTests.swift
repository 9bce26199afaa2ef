import Dispatch
import Foundation
import Testing

@testable import Store

/// Calls `body` with the path of a database file that does not exist yet, in a fresh temporary
/// directory (its parent `state/` does not exist either); the directory is removed afterwards.
func withTemporaryDatabasePath<T>(_ body: (String) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("dictee-store-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory.appendingPathComponent("state/dictee.sqlite").path)
}

/// A database in a temporary file, with one table `t(id INTEGER PRIMARY KEY, v ANY)`.
func withScratchDatabase<T>(_ body: (Database) throws -> T) throws -> T {
    try withTemporaryDatabasePath { path in
        let db = try Database(path: path)
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v ANY)")
        return try body(db)
    }
}

private struct Boom: Error, Equatable {}

@Suite("SQLite connection")
struct SQLiteTests {
    // MARK: Opening

    @Test("opening creates the parent directories and sets WAL, foreign keys, NORMAL sync, busy timeout")
    func openingSetsUpTheConnection() throws {
        try withTemporaryDatabasePath { path in
            let db = try Database(path: path)
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(try db.query("PRAGMA journal_mode").first?.string(0) == "wal")
            #expect(try db.query("PRAGMA foreign_keys").first?.int(0) == 1)
            #expect(try db.query("PRAGMA synchronous").first?.int(0) == 1)  // 1 = NORMAL
            #expect(try db.query("PRAGMA busy_timeout").first?.int(0) == 5000)

            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let parent = (path as NSString).deletingLastPathComponent
            let parentAttributes = try FileManager.default.attributesOfItem(atPath: parent)
            #expect((parentAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        }
    }

    @Test("foreign keys are enforced")
    func foreignKeysAreEnforced() throws {
        try withScratchDatabase { db in
            try db.execute(
                "CREATE TABLE child (id INTEGER PRIMARY KEY, t_id INTEGER NOT NULL REFERENCES t(id))")
            let error = #expect(throws: StoreError.self) {
                try db.execute("INSERT INTO child (t_id) VALUES (?)", [42])
            }
            guard case .sqlite(_, let code, let message, _)? = error else {
                Issue.record("expected a sqlite error, got \(String(describing: error))")
                return
            }
            #expect(code == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
            #expect(message.contains("FOREIGN KEY"))
        }
    }

    @Test("a directory that cannot be created and a file that is not a database fail to open")
    func openFailures() throws {
        try withTemporaryDatabasePath { path in
            let directory = (path as NSString).deletingLastPathComponent
            let root = (directory as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            // `state` is a plain file, so `state/dictee.sqlite` cannot be created.
            _ = FileManager.default.createFile(atPath: directory, contents: Data("x".utf8))
            let error = #expect(throws: StoreError.self) { try Database(path: path) }
            // A folder that cannot be made is "cannot write" (exit 74), not a broken database.
            guard case .unwritable(let errorPath, let message)? = error else {
                Issue.record("expected .unwritable, got \(String(describing: error))")
                return
            }
            #expect(errorPath == path)
            #expect(message.contains("parent directory"))
            #expect(error?.description.hasPrefix(path + ": ") == true)

            let notADatabase = root + "/notes.sqlite"
            _ = FileManager.default.createFile(
                atPath: notADatabase, contents: Data(repeating: 0x41, count: 4096))
            let second = #expect(throws: StoreError.self) { try Database(path: notADatabase) }
            guard case .open(_, let secondMessage)? = second else {
                Issue.record("expected .open, got \(String(describing: second))")
                return
            }
            #expect(secondMessage.contains("not a database"))
        }
    }

    @Test("closing the last connection (deinit) checkpoints and removes the WAL file")
    func deinitCloses() throws {
        try withTemporaryDatabasePath { path in
            do {
                let db = try Database(path: path)
                try db.execute("CREATE TABLE t (v TEXT)")
                try db.execute("INSERT INTO t VALUES (?)", ["x"])
                _ = try db.query("SELECT v FROM t WHERE v = ?", ["x"])  // a cached statement
                #expect(FileManager.default.fileExists(atPath: path + "-wal"))
            }
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            let reopened = try Database(path: path)
            #expect(try reopened.query("SELECT count(*) AS n FROM t").first?.int("n") == 1)
        }
    }

    // MARK: Binding and reading

    @Test(
        "every value round-trips with its storage class",
        arguments: [
            (SQLValue.null, "null"),
            (.integer(0), "integer"),
            (.integer(Int64.max), "integer"),
            (.integer(Int64.min), "integer"),
            (.real(3.25), "real"),
            (.real(-1e300), "real"),
            (.text(""), "text"),
            (.text("élève à l'école"), "text"),
            (.text("🦊 👨‍👩‍👧 émoji"), "text"),
            (.text("avant\u{0}après"), "text"),
            (.blob(Data()), "blob"),
            (.blob(Data((0...255).map { UInt8($0) })), "blob"),
            (SQLValue(true), "integer"),
        ])
    func roundTrip(value: SQLValue, storageClass: String) throws {
        try withScratchDatabase { db in
            try db.execute("INSERT INTO t (v) VALUES (?)", [value])
            let row = try #require(
                try db.query("SELECT v, typeof(v) AS type FROM t WHERE id = ?", [
                    SQLValue(db.lastInsertRowID)
                ]).first)
            #expect(try row.value("v") == value)
            #expect(try row.value(0) == value)
            #expect(try row.string("type") == storageClass)
            #expect(value.storageClass == storageClass)
        }
    }

    @Test("typed getters read every Swift type, by name or by index")
    func typedGetters() throws {
        try withScratchDatabase { db in
            try db.execute(
                "CREATE TABLE typed (i INTEGER, big INTEGER, d REAL, s TEXT, b BLOB, flag INTEGER, absent TEXT)"
            )
            let bytes = Data([0, 1, 2, 0xff])
            try db.execute(
                "INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?)",
                [SQLValue(42), SQLValue(Int64(1) << 40), SQLValue(2.5), SQLValue("Zoé 🎂"),
                 SQLValue(bytes), SQLValue(true), SQLValue(String?.none)])
            let row = try #require(try db.query("SELECT * FROM typed").first)
            #expect(row.columns == ["i", "big", "d", "s", "b", "flag", "absent"])
            #expect(try row.int("i") == 42)
            #expect(try row.int(0) == 42)
            #expect(try row.int("I") == 42)  // SQLite column names ignore case
            #expect(try row.int64("big") == 1 << 40)
            #expect(try row.double("d") == 2.5)
            #expect(try row.double("i") == 42)  // an integer reads as a Double too
            #expect(try row.string("s") == "Zoé 🎂")
            #expect(try row.string(3) == "Zoé 🎂")
            #expect(try row.data("b") == bytes)
            #expect(try row.bool("flag"))
            #expect(try row.optionalString("absent") == nil)
            #expect(try row.optionalInt("absent") == nil)
            #expect(try row.optionalInt64("absent") == nil)
            #expect(try row.optionalDouble("absent") == nil)
            #expect(try row.optionalData("absent") == nil)
            #expect(try row.optionalBool("absent") == nil)
            #expect(try row.optionalString("s") == "Zoé 🎂")
            #expect(try row.optionalInt("i") == 42)
            #expect(try row.value("absent") == .null)
        }
    }

    @Test("literals and optionals convert to SQLValue")
    func literals() {
        let values: [SQLValue] = [nil, 7, 1.5, "é", false]
        #expect(values == [.null, .integer(7), .real(1.5), .text("é"), .integer(0)])
        let missing: Int? = nil
        let present: String? = "x"
        #expect(SQLValue(missing) == .null)
        #expect(SQLValue(present) == .text("x"))
        #expect(SQLValue(Int64(-3)) == .integer(-3))
        #expect(SQLValue(Data([1])) == .blob(Data([1])))
    }

    @Test("reading NULL, another type or a missing column throws and names the column, not the value")
    func readingErrors() throws {
        try withScratchDatabase { db in
            try db.execute("INSERT INTO t (v) VALUES (?)", ["Anaïs"])
            try db.execute("INSERT INTO t (v) VALUES (NULL)")
            try db.execute("INSERT INTO t (v) VALUES (2)")
            let rows = try db.query("SELECT v FROM t ORDER BY id")

            let wrongType = #expect(throws: StoreError.self) { try rows[0].int("v") }
            #expect(
                wrongType
                    == .columnType(
                        path: db.path, column: "v", expected: "integer", found: "text",
                        sql: "SELECT v FROM t ORDER BY id"))
            #expect(wrongType?.description.contains("Anaïs") == false)
            #expect(wrongType?.description.hasPrefix(db.path + ": column 'v' holds text") == true)

            let null = #expect(throws: StoreError.self) { try rows[1].string("v") }
            #expect(
                null
                    == .columnType(
                        path: db.path, column: "v", expected: "text", found: "null",
                        sql: "SELECT v FROM t ORDER BY id"))

            #expect(throws: StoreError.self) { try rows[2].bool("v") }  // 2 is not a Boolean

            let missing = #expect(throws: StoreError.self) { try rows[0].string("name") }
            #expect(
                missing
                    == .missingColumn(path: db.path, column: "name", sql: "SELECT v FROM t ORDER BY id"))
            let outOfRange = #expect(throws: StoreError.self) { try rows[0].value(3) }
            #expect(
                outOfRange
                    == .missingColumn(path: db.path, column: "#3", sql: "SELECT v FROM t ORDER BY id"))
        }
    }

    // MARK: Statements

    @Test("scripts run several statements; a statement with arguments runs exactly one")
    func scriptsAndStatements() throws {
        try withScratchDatabase { db in
            try db.execute(
                """
                -- a comment
                INSERT INTO t (v) VALUES ('a');
                INSERT INTO t (v) VALUES ('b');  -- trailing comment

                """)
            #expect(try db.query("SELECT count(*) AS n FROM t").first?.int("n") == 2)

            try db.execute("INSERT INTO t (v) VALUES (?);  -- with a trailing comment", ["c"])
            #expect(db.lastInsertRowID == 3)
            #expect(db.changes == 1)

            try db.execute("UPDATE t SET v = ? WHERE id <= ?", ["z", 2])
            #expect(db.changes == 2)

            let several = #expect(throws: StoreError.self) {
                try db.execute("DELETE FROM t WHERE id = ?; DELETE FROM t", [1])
            }
            guard case .misuse(_, let message, _)? = several else {
                Issue.record("expected .misuse, got \(String(describing: several))")
                return
            }
            #expect(message.contains("several statements"))
            #expect(try db.query("SELECT count(*) AS n FROM t").first?.int("n") == 3)

            let count = #expect(throws: StoreError.self) {
                try db.execute("INSERT INTO t (v) VALUES (?)", ["x", "y"])
            }
            #expect(
                count
                    == .misuse(
                        path: db.path, message: "the statement takes 1 argument(s), 2 given",
                        sql: "INSERT INTO t (v) VALUES (?)"))

            // A placeholder in a script would silently bind NULL: refused.
            #expect(throws: StoreError.self) { try db.execute("INSERT INTO t (v) VALUES (?)") }
            #expect(try db.query("SELECT count(*) AS n FROM t").first?.int("n") == 3)

            let syntax = #expect(throws: StoreError.self) {
                try db.execute("CREATE TABLE ok (a); INSERT INTO nowhere VALUES (1)")
            }
            guard case .sqlite(_, _, let syntaxMessage, let sql)? = syntax else {
                Issue.record("expected .sqlite, got \(String(describing: syntax))")
                return
            }
            #expect(syntaxMessage == "no such table: nowhere")
            #expect(sql == "INSERT INTO nowhere VALUES (1)")  // the failing statement only
        }
    }

    @Test("statements are cached and reused, also past the cache limit")
    func statementCache() throws {
        try withScratchDatabase { db in
            try db.transaction {
                for i in 0..<500 {
                    try db.execute("INSERT INTO t (v) VALUES (?)", [SQLValue(i)])
                }
            }
            for i in 0..<100 {  // more distinct statements than the cache holds
                let rows = try db.query("SELECT v + \(i) AS w FROM t WHERE id = ?", [1])
                #expect(try rows.first?.int("w") == i)
            }
            #expect(try db.query("SELECT sum(v) AS s FROM t").first?.int("s") == 499 * 500 / 2)
        }
    }

    @Test("a bound value never appears in an error message; the file does")
    func errorMessagesNameTheFileNotTheValues() throws {
        try withScratchDatabase { db in
            try db.execute("CREATE TABLE children (name TEXT NOT NULL UNIQUE, age INTEGER CHECK (age < 20))")
            let secret = "Éloïse-Dupont-secret"
            try db.execute("INSERT INTO children VALUES (?, ?)", [SQLValue(secret), 8])
            let duplicate = #expect(throws: StoreError.self) {
                try db.execute("INSERT INTO children VALUES (?, ?)", [SQLValue(secret), 9])
            }
            let check = #expect(throws: StoreError.self) {
                try db.execute("INSERT INTO children VALUES (?, ?)", ["Autre-secret", 4242])
            }
            for error in [duplicate, check] {
                let text = try #require(error).description
                #expect(text.hasPrefix(db.path + ": "))
                #expect(!text.contains("secret"))
                #expect(!text.contains("4242"))
                #expect(text.contains("INSERT INTO children VALUES (?, ?)"))
            }
            #expect(duplicate?.description.contains("UNIQUE constraint failed: children.name") == true)
            guard case .sqlite(_, let code, _, _)? = duplicate else {
                Issue.record("expected .sqlite")
                return
            }
            #expect(code == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        }
    }

    // MARK: Transactions

    @Test("a transaction commits and returns the body's value")
    func transactionCommits() throws {
        try withScratchDatabase { db in
            let id = try db.transaction { () throws -> Int64 in
                try db.execute("INSERT INTO t (v) VALUES (?)", ["kept"])
                #expect(db.isInTransaction)
                return db.lastInsertRowID
            }
            #expect(!db.isInTransaction)
            #expect(try db.query("SELECT v FROM t WHERE id = ?", [SQLValue(id)]).first?.string("v") == "kept")
        }
    }

    @Test("a thrown error rolls the transaction back and comes out unchanged")
    func transactionRollsBack() throws {
        try withScratchDatabase { db throws in
            #expect(throws: Boom()) {
                try db.transaction {
                    try db.execute("INSERT INTO t (v) VALUES (?)", ["lost"])
                    throw Boom()
                }
            }
            #expect(!db.isInTransaction)
            #expect(try db.query("SELECT count(*) AS n FROM t").first?.int("n") == 0)

            // A failing statement inside rolls back the earlier ones too.
            #expect(throws: StoreError.self) {
                try db.transaction {
                    try db.execute("INSERT INTO t (v) VALUES (?)", ["lost"])
                    try db.execute("INSERT INTO t (id, v) VALUES (1, 'dup')")
                    try db.execute("INSERT INTO t (id, v) VALUES (1, 'dup')")
                }
            }
            #expect(try db.query("SELECT count(*) AS n FROM t").first?.int("n") == 0)
        }
    }

    @Test("nested transactions are savepoints: an inner failure undoes only the inner work")
    func nestedTransactions() throws {
        try withScratchDatabase { db in
            try db.transaction {
                try db.execute("INSERT INTO t (v) VALUES (?)", ["outer"])
                #expect(throws: Boom()) {
                    try db.transaction {
                        try db.execute("INSERT INTO t (v) VALUES (?)", ["inner, undone"])
                        throw Boom()
                    }
                }
                try db.transaction {
                    try db.execute("INSERT INTO t (v) VALUES (?)", ["inner, kept"])
                }
                #expect(db.isInTransaction)
            }
            let values = try db.query("SELECT v FROM t ORDER BY id").map { try $0.string("v") }
            #expect(values == ["outer", "inner, kept"])

            // An outer failure undoes the released inner savepoint as well.
            #expect(throws: Boom()) {
                try db.transaction {
                    try db.transaction { try db.execute("INSERT INTO t (v) VALUES ('gone')") }
                    throw Boom()
                }
            }
            #expect(try db.query("SELECT count(*) AS n FROM t").first?.int("n") == 2)
        }
    }

    // MARK: Two connections

    @Test("a reader sees the last commit while a writer holds a transaction, without waiting")
    func readerDuringWrite() throws {
        try withTemporaryDatabasePath { path in
            let writer = try Database(path: path)
            try writer.execute("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('committed')")
            let reader = try Database(path: path, busyTimeout: .milliseconds(100))
            try writer.transaction {
                try writer.execute("INSERT INTO t VALUES (?)", ["pending"])
                let started = Date()
                let seen = try reader.query("SELECT v FROM t").map { try $0.string("v") }
                #expect(seen == ["committed"])
                #expect(Date().timeIntervalSince(started) < 0.1)
            }
            #expect(try reader.query("SELECT count(*) AS n FROM t").first?.int("n") == 2)
        }
    }

    @Test("a second writer gives up with .locked after its busy timeout")
    func secondWriterTimesOut() throws {
        try withTemporaryDatabasePath { path in
            let first = try Database(path: path)
            try first.execute("CREATE TABLE t (v TEXT)")
            let second = try Database(path: path, busyTimeout: .milliseconds(200))
            try first.transaction {
                try first.execute("INSERT INTO t VALUES (?)", ["first"])
                let started = Date()
                let error = #expect(throws: StoreError.self) {
                    try second.transaction { try second.execute("INSERT INTO t VALUES ('second')") }
                }
                let waited = Date().timeIntervalSince(started)
                #expect(error == .locked(path: path))
                #expect(error?.description.hasPrefix(path + ": the database is locked") == true)
                #expect(waited >= 0.15 && waited < 3)
                #expect(!second.isInTransaction)
            }
            try second.transaction { try second.execute("INSERT INTO t VALUES ('second')") }
            #expect(try first.query("SELECT count(*) AS n FROM t").first?.int("n") == 2)
        }
    }

    @Test("a second writer waits for the first one to commit, within the busy timeout")
    func secondWriterWaits() throws {
        try withTemporaryDatabasePath { path in
            let setup = try Database(path: path)
            try setup.execute("CREATE TABLE t (v TEXT)")

            let holding = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                defer { done.signal() }
                guard let db = try? Database(path: path) else {
                    holding.signal()
                    return
                }
                try? db.transaction {
                    try db.execute("INSERT INTO t VALUES (?)", ["from the thread"])
                    holding.signal()
                    Thread.sleep(forTimeInterval: 0.3)
                }
            }
            thread.start()
            holding.wait()

            let second = try Database(path: path)  // 5 s timeout
            let started = Date()
            try second.transaction { try second.execute("INSERT INTO t VALUES (?)", ["second"]) }
            let waited = Date().timeIntervalSince(started)
            done.wait()
            #expect(waited > 0.1)
            let values = try second.query("SELECT v FROM t ORDER BY rowid").map { try $0.string("v") }
            #expect(values == ["from the thread", "second"])
        }
    }
}
