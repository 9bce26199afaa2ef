// The only file that calls SQLite (Debian libsqlite3-dev, 3.40 on Debian 12). The rest of Store
// speaks SQL through `Database`, `SQLValue` and `Row`.
//
// Ownership rules of SQLite's C API (https://sqlite.org/c3ref/intro.html):
// - A connection from `sqlite3_open_v2` is closed with `sqlite3_close_v2`, even when the open
//   failed (the handle may still be allocated). `close_v2` waits for unfinalized statements, so the
//   statement cache is finalized first in `deinit`.
// - A statement from `sqlite3_prepare_v2` is freed with `sqlite3_finalize`; the cached ones live as
//   long as the connection and are `sqlite3_reset` (and their bindings cleared) after each use.
// - Text and blobs are bound with `SQLITE_TRANSIENT` (the shim's `dictee_sqlite_transient()`):
//   SQLite copies the bytes before the bind call returns, so Swift buffers need not outlive it.
// - Pointers from `sqlite3_column_text/_blob` and `sqlite3_errmsg` are valid until the next step,
//   reset or call on the connection: they are copied into Swift values at once.
// - `sqlite3_errmsg` belongs to the connection; never free it.
// No C pointer leaves this file.

internal import CSQLite
import DicteeCore
import Foundation

// MARK: - Values

/// A value bound to a `?` placeholder or read from a result column: one of SQLite's five storage
/// classes (https://sqlite.org/datatype3.html).
///
/// Literals work directly: `[42, "Anaïs", 1.5, true, nil]`. Swift values go through `SQLValue(x)`,
/// which also maps an optional to `.null` when it is `nil`. Booleans are stored as the integers 0
/// and 1; a `Double` NaN is stored by SQLite as NULL.
enum SQLValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// A signed 64-bit integer (also Booleans, as 0 and 1).
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text (any Unicode, NUL characters included).
    case text(String)
    /// Bytes, possibly none (an empty blob is not NULL).
    case blob(Data)

    /// Wraps a Swift value (`Int`, `Int64`, `Double`, `String`, `Data`, `Bool`, an optional of one
    /// of them, or an `SQLValue`).
    init(_ value: some SQLValueConvertible) { self = value.sqlValue }

    /// The storage class name, as SQLite's `typeof()` spells it: `null`, `integer`, `real`, `text`,
    /// `blob`. Used in messages instead of the value itself.
    var storageClass: String {
        switch self {
        case .null: return "null"
        case .integer: return "integer"
        case .real: return "real"
        case .text: return "text"
        case .blob: return "blob"
        }
    }
}

extension SQLValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    init(nilLiteral: ()) { self = .null }
    init(integerLiteral value: Int64) { self = .integer(value) }
    init(floatLiteral value: Double) { self = .real(value) }
    init(stringLiteral value: String) { self = .text(value) }
    init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

/// A Swift type that has a natural `SQLValue`.
protocol SQLValueConvertible {
    /// The value to bind.
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLValueConvertible { var sqlValue: SQLValue { self } }
extension Int: SQLValueConvertible { var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLValueConvertible { var sqlValue: SQLValue { .integer(self) } }
extension Double: SQLValueConvertible { var sqlValue: SQLValue { .real(self) } }
extension String: SQLValueConvertible { var sqlValue: SQLValue { .text(self) } }
extension Data: SQLValueConvertible { var sqlValue: SQLValue { .blob(self) } }
extension Bool: SQLValueConvertible { var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

// MARK: - Rows

/// How a column is named when reading a `Row`: by its name (`String`, compared without regard to
/// ASCII case, as SQLite does) or by its 0-based position (`Int`).
protocol ColumnKey: CustomStringConvertible {
    /// The position of this column in `row`, or `nil` when there is none.
    func columnIndex(in row: Row) -> Int?
}

extension String: ColumnKey {
    func columnIndex(in row: Row) -> Int? { row.layout.indexByName[lowercased()] }
}

extension Int: ColumnKey {
    func columnIndex(in row: Row) -> Int? { row.values.indices.contains(self) ? self : nil }
}

/// One result row, copied out of SQLite: values plus the column names they share with the other
/// rows of the same query.
///
/// The typed getters (`int`, `int64`, `double`, `string`, `data`, `bool`) throw
/// `StoreError.columnType` on NULL or on another storage class; their `optional…` twins return
/// `nil` for NULL. Both throw `StoreError.missingColumn` for an unknown column. `double` accepts an
/// integer too; `bool` accepts only the integers 0 and 1.
struct Row: Sendable {
    /// Names and name lookup, shared by all rows of one query.
    final class Layout: Sendable {
        /// Column names in order.
        let names: [String]
        /// Lower-cased name to position; the first column wins when two share a name.
        let indexByName: [String: Int]
        /// The database file and the statement, for error messages.
        let path: String
        let sql: String

        init(names: [String], path: String, sql: String) {
            self.names = names
            var index: [String: Int] = [:]
            for (i, name) in names.enumerated() where index[name.lowercased()] == nil {
                index[name.lowercased()] = i
            }
            indexByName = index
            self.path = path
            self.sql = sql
        }
    }

    let layout: Layout
    /// The values, in column order.
    let values: [SQLValue]

    /// The column names, in order, as SQLite reports them (the `AS` alias when there is one).
    var columns: [String] { layout.names }

    /// The value at `key`, of whatever storage class.
    /// - Throws: `StoreError.missingColumn`.
    func value(_ key: some ColumnKey) throws -> SQLValue {
        guard let i = key.columnIndex(in: self) else {
            let name = key is Int ? "#\(key)" : key.description
            throw StoreError.missingColumn(path: layout.path, column: name, sql: layout.sql)
        }
        return values[i]
    }

    /// The value at `key`, or `nil` for NULL; throws when it is of another class than `expected`.
    private func read<T>(
        _ key: some ColumnKey, _ expected: String, _ convert: (SQLValue) -> T?
    ) throws -> T? {
        let value = try value(key)
        if value == .null { return nil }
        if let converted = convert(value) { return converted }
        throw StoreError.columnType(
            path: layout.path, column: key.description, expected: expected,
            found: value.storageClass, sql: layout.sql)
    }

    /// The value at `key`; throws on NULL as on any other class than `expected`.
    private func require<T>(
        _ key: some ColumnKey, _ expected: String, _ convert: (SQLValue) -> T?
    ) throws -> T {
        if let value = try read(key, expected, convert) { return value }
        throw StoreError.columnType(
            path: layout.path, column: key.description, expected: expected, found: "null",
            sql: layout.sql)
    }

    private static func asInt64(_ v: SQLValue) -> Int64? {
        if case .integer(let i) = v { return i } else { return nil }
    }
    private static func asInt(_ v: SQLValue) -> Int? { asInt64(v).flatMap { Int(exactly: $0) } }
    private static func asDouble(_ v: SQLValue) -> Double? {
        switch v {
        case .real(let d): return d
        case .integer(let i): return Double(i)
        default: return nil
        }
    }
    private static func asString(_ v: SQLValue) -> String? {
        if case .text(let s) = v { return s } else { return nil }
    }
    private static func asData(_ v: SQLValue) -> Data? {
        if case .blob(let d) = v { return d } else { return nil }
    }
    private static func asBool(_ v: SQLValue) -> Bool? {
        switch v {
        case .integer(0): return false
        case .integer(1): return true
        default: return nil
        }
    }

    // Every getter below throws `StoreError.missingColumn` for an unknown column and
    // `StoreError.columnType` for a value of another class; the non-optional ones also for NULL.

    /// An integer column.
    func int(_ key: some ColumnKey) throws -> Int { try require(key, "integer", Self.asInt) }
    /// An integer column, `nil` for NULL.
    func optionalInt(_ key: some ColumnKey) throws -> Int? { try read(key, "integer", Self.asInt) }
    /// A 64-bit integer column (row ids).
    func int64(_ key: some ColumnKey) throws -> Int64 { try require(key, "integer", Self.asInt64) }
    /// A 64-bit integer column, `nil` for NULL.
    func optionalInt64(_ key: some ColumnKey) throws -> Int64? {
        try read(key, "integer", Self.asInt64)
    }
    /// A real column (an integer is read as a `Double` too).
    func double(_ key: some ColumnKey) throws -> Double { try require(key, "real", Self.asDouble) }
    /// A real column, `nil` for NULL.
    func optionalDouble(_ key: some ColumnKey) throws -> Double? {
        try read(key, "real", Self.asDouble)
    }
    /// A text column.
    func string(_ key: some ColumnKey) throws -> String { try require(key, "text", Self.asString) }
    /// A text column, `nil` for NULL.
    func optionalString(_ key: some ColumnKey) throws -> String? {
        try read(key, "text", Self.asString)
    }
    /// A blob column.
    func data(_ key: some ColumnKey) throws -> Data { try require(key, "blob", Self.asData) }
    /// A blob column, `nil` for NULL.
    func optionalData(_ key: some ColumnKey) throws -> Data? { try read(key, "blob", Self.asData) }
    /// A Boolean stored as the integer 0 or 1 (any other value throws).
    func bool(_ key: some ColumnKey) throws -> Bool { try require(key, "0 or 1", Self.asBool) }
    /// A Boolean stored as 0 or 1, `nil` for NULL.
    func optionalBool(_ key: some ColumnKey) throws -> Bool? {
        try read(key, "0 or 1", Self.asBool)
    }
}

// MARK: - Database

/// One connection to a SQLite database file, set up for dictee: WAL journal (readers never wait
/// for the writer), foreign keys enforced, `synchronous=NORMAL` (a power cut may lose the last
/// commits but never corrupts the file), a busy timeout (5 s by default) before a write gives up with
/// `StoreError.locked`.
///
/// Not thread-safe and not `Sendable`: use one `Database` per thread or task; several may be open
/// on the same file, in one process or several.
///
/// Internal on purpose: only Store's own typed queries write to the database, so that nothing but a
/// `Moment` (never raw calendar text) can reach it (Docs/architecture.md, rule 2).
final class Database {
    /// The database file, as given to `init`.
    let path: String
    private let handle: OpaquePointer
    /// Prepared statements by SQL text, reused by `query` and `execute(_:_:)`.
    private var cache: [String: OpaquePointer] = [:]
    private static let cacheLimit = 64
    /// Gives each SAVEPOINT of a nested transaction a fresh name.
    private var savepointCounter = 0

    /// Opens (or creates) the database file at `path`.
    ///
    /// Missing parent directories are created (mode 0700) and a new database file gets mode 0600:
    /// it holds a family's data. Then: busy timeout, `PRAGMA journal_mode=WAL`,
    /// `PRAGMA foreign_keys=ON`, `PRAGMA synchronous=NORMAL`.
    /// - Parameters:
    ///   - path: a file path (not a URI and not `:memory:`; WAL needs a file).
    ///   - busyTimeout: how long a statement waits for another connection's lock before failing.
    /// - Throws: `StoreError.open` (directory, permission, not a database, no WAL),
    ///   `StoreError.locked` (another connection held an exclusive lock past the timeout).
    init(path: String, busyTimeout: Duration = .seconds(5)) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError.unwritable(
                path: path, message: tr("cannot create the parent directory (%@)", Self.reason(error)))
        }
        if let problem = LocalPath.notARegularFile(path) {
            // SQLite would open /dev/null and write its journal beside it.
            throw StoreError.open(path: path, message: problem)
        }
        let existed = fileManager.fileExists(atPath: path)
        if !existed {
            // Created 0600 before SQLite opens it (SQLite gives its -wal and -shm files the same
            // mode): the family's state is never readable by another account, not even for a moment.
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd >= 0 { close(fd) }
        }

        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let status = sqlite3_open_v2(path, &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            let message = Self.localized(connection.map { String(cString: sqlite3_errmsg($0)) }
                ?? String(cString: sqlite3_errstr(status)))
            sqlite3_close_v2(connection)
            if Self.meansUnwritable(status) { throw StoreError.unwritable(path: path, message: message) }
            throw StoreError.open(path: path, message: message)
        }
        handle = connection
        // From here on, `deinit` closes the connection when an error is thrown.
        sqlite3_extended_result_codes(handle, 1)
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: max(0, milliseconds)))

        do {
            let mode = try query("PRAGMA journal_mode=WAL").first?.optionalString(0)
            guard mode == "wal" else {
                throw StoreError.open(
                    path: path,
                    message: "cannot switch to the WAL journal (journal mode '\(mode ?? "none")')")
            }
            try execute("PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL;")
        } catch let error as StoreError {
            switch error {
            case .open, .unwritable, .locked: throw error
            case .sqlite(_, let code, _, _) where Self.meansUnwritable(code):
                throw StoreError.unwritable(path: path, message: Self.sqliteMessage(error))
            default: throw StoreError.open(path: path, message: Self.sqliteMessage(error))
            }
        }
    }

    deinit {
        for statement in cache.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// The rowid of the last successful INSERT on this connection (0 if none yet).
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Statements

    /// Runs a script: one or more statements separated by `;`, without placeholders (migrations,
    /// pragmas). Rows a statement returns are ignored.
    /// - Throws: `StoreError.sqlite` naming the failing statement, `StoreError.locked`,
    ///   `StoreError.misuse` when a statement has a `?` placeholder (use `execute(_:_:)`).
    func execute(_ sql: String) throws {
        try sql.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let status = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
                let text = Self.text(from: current, to: tail)
                guard status == SQLITE_OK else { throw error(status, sql: text) }
                cursor = tail
                guard let statement else { continue }  // only whitespace or a comment
                defer { sqlite3_finalize(statement) }
                if sqlite3_bind_parameter_count(statement) > 0 {
                    throw StoreError.misuse(
                        path: path, message: "a script statement cannot take arguments",
                        sql: text)
                }
                try step(statement, sql: text) { _ in }
            }
        }
    }

    /// Runs one statement (INSERT, UPDATE, DELETE, DDL) with `arguments` bound to its `?`
    /// placeholders by position. Rows it returns are ignored; read `changes` or `lastInsertRowID`.
    /// - Parameters:
    ///   - sql: exactly one statement.
    ///   - arguments: one value per `?`, in order.
    /// - Throws: `StoreError.sqlite`, `StoreError.locked`, `StoreError.misuse` (argument count,
    ///   several statements).
    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try withStatement(sql, arguments) { statement in try step(statement, sql: sql) { _ in } }
    }

    /// Runs one statement with `arguments` bound by position and returns all its rows.
    /// - Parameters:
    ///   - sql: exactly one statement (SELECT, a PRAGMA, or a write with RETURNING).
    ///   - arguments: one value per `?`, in order.
    /// - Returns: the rows, in SQLite's order (say ORDER BY when it matters).
    /// - Throws: `StoreError.sqlite`, `StoreError.locked`, `StoreError.misuse`.
    func query(_ sql: String, _ arguments: [SQLValue] = []) throws -> [Row] {
        try withStatement(sql, arguments) { statement in
            let count = sqlite3_column_count(statement)
            let names = (0..<count).map { i in
                sqlite3_column_name(statement, i).map { String(cString: $0) } ?? "#\(i)"
            }
            let layout = Row.Layout(names: names, path: path, sql: sql)
            var rows: [Row] = []
            try step(statement, sql: sql) { statement in
                let values = (0..<count).map { Self.column(statement, $0) }
                rows.append(Row(layout: layout, values: values))
            }
            return rows
        }
    }

    // MARK: Transactions

    /// Runs `body` in a transaction and returns its result.
    ///
    /// At the top level: `BEGIN IMMEDIATE` (takes the write lock at once, waiting up to the busy
    /// timeout, so a later write cannot fail half-way with `SQLITE_BUSY`), then `COMMIT`, or
    /// `ROLLBACK` when `body` (or the commit) throws. Nested calls use a SAVEPOINT: an inner error
    /// undoes only the inner work, and the outer transaction goes on if the caller catches it.
    /// - Throws: whatever `body` throws (after rolling back), `StoreError.locked` when the write
    ///   lock is not obtained in time, `StoreError.sqlite`.
    @discardableResult
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if !isInTransaction {
            try execute("BEGIN IMMEDIATE")
            do {
                let result = try body()
                try execute("COMMIT")
                return result
            } catch {
                // SQLite may already have rolled back by itself (SQLITE_FULL, SQLITE_IOERR...).
                if isInTransaction { try? execute("ROLLBACK") }
                throw error
            }
        }
        savepointCounter += 1
        let name = "dictee_savepoint_\(savepointCounter)"
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute("RELEASE \(name)")
            return result
        } catch {
            if isInTransaction {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
            }
            throw error
        }
    }

    // MARK: Private

    /// Prepares `sql` (or takes it from the cache), binds `arguments`, runs `body`, then resets the
    /// statement and clears its bindings (so no value lingers in memory longer than needed).
    private func withStatement<T>(
        _ sql: String, _ arguments: [SQLValue], _ body: (OpaquePointer) throws -> T
    ) throws -> T {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == arguments.count else {
            throw StoreError.misuse(
                path: path,
                message: "the statement takes \(expected) argument(s), \(arguments.count) given",
                sql: sql)
        }
        for (offset, argument) in arguments.enumerated() {
            let status = Self.bind(argument, to: statement, at: Int32(offset + 1))
            guard status == SQLITE_OK else { throw error(status, sql: sql) }
        }
        return try body(statement)
    }

    /// A prepared statement for exactly one statement of SQL, from the cache when possible.
    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = cache[sql] { return statement }
        var statement: OpaquePointer?
        var rest = ""
        let status = sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            let status = sqlite3_prepare_v2(handle, start, -1, &statement, &tail)
            if let tail { rest = String(cString: tail) }
            return status
        }
        guard status == SQLITE_OK else { throw error(status, sql: sql) }
        guard let statement else {
            throw StoreError.misuse(path: path, message: "no statement to run", sql: sql)
        }
        if try Self.holdsStatement(rest, handle) {
            sqlite3_finalize(statement)
            throw StoreError.misuse(
                path: path,
                message: "several statements where one was expected (use execute(_:) for scripts)",
                sql: sql)
        }
        if cache.count >= Self.cacheLimit {
            for cached in cache.values { sqlite3_finalize(cached) }
            cache.removeAll()
        }
        cache[sql] = statement
        return statement
    }

    /// Whether `sql` (the tail after a statement) holds another statement, not just whitespace,
    /// semicolons and comments.
    private static func holdsStatement(_ sql: String, _ handle: OpaquePointer) throws -> Bool {
        if sql.allSatisfy({ $0.isWhitespace || $0 == ";" }) { return false }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        sqlite3_finalize(statement)
        return status != SQLITE_OK || statement != nil
    }

    /// Steps `statement` to the end, calling `row` for each result row.
    private func step(
        _ statement: OpaquePointer, sql: String, row: (OpaquePointer) throws -> Void
    ) throws {
        while true {
            let status = sqlite3_step(statement)
            switch status {
            case SQLITE_ROW: try row(statement)
            case SQLITE_DONE: return
            default: throw error(status, sql: sql)
            }
        }
    }

    /// The error for a failed call, with SQLite's message for this connection.
    private func error(_ status: Int32, sql: String) -> StoreError {
        if status & 0xff == SQLITE_BUSY { return .locked(path: path) }
        let message = Self.localized(String(cString: sqlite3_errmsg(handle)))
        let code = sqlite3_extended_errcode(handle)
        return .sqlite(path: path, code: code, message: message, sql: sql)
    }

    private static func bind(_ value: SQLValue, to statement: OpaquePointer, at index: Int32)
        -> Int32
    {
        switch value {
        case .null:
            return sqlite3_bind_null(statement, index)
        case .integer(let i):
            return sqlite3_bind_int64(statement, index, i)
        case .real(let d):
            return sqlite3_bind_double(statement, index, d)
        case .text(let s):
            // withCString always gives a pointer (so "" binds empty text, not NULL); the explicit
            // byte count keeps NUL characters inside the text.
            return s.withCString { text in
                sqlite3_bind_text64(
                    statement, index, text, sqlite3_uint64(s.utf8.count), dictee_sqlite_transient(),
                    UInt8(SQLITE_UTF8))
            }
        case .blob(let data):
            // A nil pointer would bind NULL: an empty blob is a zero-length zeroblob.
            if data.isEmpty { return sqlite3_bind_zeroblob(statement, index, 0) }
            return data.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(
                    statement, index, bytes.baseAddress, sqlite3_uint64(bytes.count),
                    dictee_sqlite_transient())
            }
        }
    }

    private static func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, index))
            let bytes = UnsafeBufferPointer(start: text, count: count)
            return .text(String(decoding: bytes, as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: blob, count: Int(sqlite3_column_bytes(statement, index))))
        default:
            return .null
        }
    }

    /// The SQL text between `start` and `end` (the statement `sqlite3_prepare_v2` just read).
    private static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?)
        -> String
    {
        guard let end, end > start else { return String(cString: start) }
        let bytes = UnsafeRawBufferPointer(start: start, count: end - start)
        return String(decoding: bytes, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `error`'s message without the path (for wrapping into `StoreError.open`).
    /// Whether an (extended) SQLite result code says the file or its folder cannot be written:
    /// SQLITE_PERM (3), SQLITE_READONLY (8), SQLITE_IOERR (10), SQLITE_FULL (13), SQLITE_CANTOPEN (14).
    static func meansUnwritable(_ code: Int32) -> Bool {
        [3, 8, 10, 13, 14].contains(code & 0xFF)
    }

    private static func sqliteMessage(_ error: StoreError) -> String {
        if case .sqlite(_, _, let message, _) = error { return message }
        return error.message
    }

    /// A short reason from a Foundation error: the POSIX one (`permission denied`) when there is.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return systemReason(Int32(underlying.code))
        }
        if nsError.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: nsError.code) {
            case .fileWriteFileExists: return tr("a file with this name already exists")
            case .fileNoSuchFile, .fileReadNoSuchFile: return systemReason(ENOENT)
            case .fileWriteNoPermission, .fileReadNoPermission: return systemReason(EACCES)
            case .fileWriteOutOfSpace: return systemReason(ENOSPC)
            case .fileWriteVolumeReadOnly: return systemReason(EROFS)
            default: break
            }
        }
        return nsError.localizedDescription.lowercased()
    }

    /// SQLite's message in the run's language when it is one of SQLite's generic texts for the
    /// errors a family meets (a path that is no database, a folder that cannot be written, a full
    /// disk, a damaged file, sqlite3_errstr); any other message as SQLite wrote it.
    static func localized(_ message: String) -> String {
        switch message {
        case "unable to open database file": tr("unable to open database file")
        case "file is not a database": tr("file is not a database")
        case "attempt to write a readonly database": tr("attempt to write a readonly database")
        case "database or disk is full": tr("database or disk is full")
        case "database disk image is malformed": tr("database disk image is malformed")
        case "disk I/O error": tr("disk I/O error")
        case "access permission denied": tr("access permission denied")
        default: message
        }
    }
}
