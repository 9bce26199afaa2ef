import DicteeCore

/// Errors of the Store module. Messages are lower case and name the database file.
///
/// - Warning: no message ever holds a bound value (a child's name, a phrase, a grade): values are
///   passed to SQLite as parameters and only the SQL text, with its `?` placeholders, is quoted.
///   SQLite's own messages name tables, columns and constraints, never the offending value.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The database could not be opened or set up: parent directory not creatable, not a SQLite
    /// file, no permission, WAL not available. `message` says which.
    case open(path: String, message: String)
    /// The database or its folder cannot be written: the folder cannot be created, the file or
    /// folder is read-only, or permission is denied (SQLite's CANTOPEN, READONLY, PERM, IOERR).
    /// The command line maps this to exit status 74, like every file it cannot write.
    case unwritable(path: String, message: String)
    /// SQLite refused a statement. `code` is SQLite's extended result code (`19`-based codes are
    /// constraint violations, see https://sqlite.org/rescode.html); `message` is SQLite's own
    /// message (`sqlite3_errmsg`); `sql` is the statement, with placeholders, never the values.
    case sqlite(path: String, code: Int32, message: String, sql: String)
    /// Another connection (usually another `dictee` run) held the write lock for longer than the
    /// busy timeout. The command line maps this to exit status 75 (temporary failure).
    case locked(path: String)
    /// The statement was used the wrong way: argument count differs from the number of `?`
    /// placeholders, several statements where one was expected, placeholders in a script.
    case misuse(path: String, message: String, sql: String)
    /// A row read by name has no such column (`column` is the name asked for, or `#3` for an
    /// index out of range).
    case missingColumn(path: String, column: String, sql: String)
    /// A column holds a value of another type than the one read: `expected` and `found` are SQLite
    /// storage classes (`null`, `integer`, `real`, `text`, `blob`), or `0 or 1` for a Boolean.
    case columnType(path: String, column: String, expected: String, found: String, sql: String)
    /// A migration failed and was rolled back: the database stays at version `version - 1`.
    case migration(path: String, version: Int, message: String)
    /// The database's schema version (`PRAGMA user_version`) is newer than the newest migration
    /// this build knows: a newer `dictee` wrote it, and this one must not touch it.
    case newerSchema(path: String, found: Int, known: Int)
    /// The migration list itself is wrong (a gap, a duplicate, out of order, not starting at 1):
    /// a programming error, reported before anything is applied.
    case invalidMigrations(path: String, message: String)

    /// The database file concerned.
    public var path: String {
        switch self {
        case .open(let path, _), .unwritable(let path, _), .sqlite(let path, _, _, _), .locked(let path),
            .misuse(let path, _, _), .missingColumn(let path, _, _),
            .columnType(let path, _, _, _, _), .migration(let path, _, _),
            .newerSchema(let path, _, _), .invalidMigrations(let path, _):
            return path
        }
    }

    /// The message without the file name (for JSON output, where the file has its own field).
    public var message: String {
        switch self {
        case .open(_, let message):
            return tr("cannot open the database: %@", message)
        case .unwritable(_, let message):
            return tr("cannot write the database: %@", message)
        case .sqlite(_, let code, let message, let sql):
            return tr("%@ (sqlite code %ld) in: %@", message, Int(code), Self.excerpt(sql))
        case .locked:
            return tr("the database is locked by another process (probably another dictee run); try again when it has finished")
        case .misuse(_, let message, let sql):
            return tr("%@ in: %@", message, Self.excerpt(sql))
        case .missingColumn(_, let column, let sql):
            return tr("no column '%@' in the result of: %@", column, Self.excerpt(sql))
        case .columnType(_, let column, let expected, let found, let sql):
            return tr("column '%@' holds %@, expected %@, in: %@", column, found, expected, Self.excerpt(sql))
        case .migration(_, let version, let message):
            return tr("migration %ld failed and was rolled back, the database stays at schema version %ld: %@", version, version - 1, message)
        case .newerSchema(_, let found, let known):
            return tr("this database was written by a newer dictee (schema version %ld; this dictee knows up to %ld); hint: upgrade dictee", found, known)
        case .invalidMigrations(_, let message):
            return tr("invalid migration list: %@", message)
        }
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }

    /// Why the database cannot be written, when that is what went wrong (at open time, or a
    /// statement refused by SQLite with PERM, READONLY, IOERR, FULL or CANTOPEN); `nil` otherwise.
    /// Never the SQL. The one rule for "cannot write the database" (exit status 74).
    public var writeProblem: String? {
        switch self {
        case .unwritable(_, let message): message
        case .sqlite(_, let code, _, _) where Database.meansUnwritable(code):
            switch code & 0xFF {
            case 13: tr("the disk is full")
            case 8: tr("it is read-only")
            case 3: tr("permission denied")
            case 14: tr("the file cannot be opened")
            default: tr("an input/output error")
            }
        default: nil
        }
    }

    /// The SQL on one line, whitespace runs collapsed, cut at 160 characters.
    static func excerpt(_ sql: String) -> String {
        let oneLine = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let limit = 160
        return oneLine.count <= limit ? oneLine : String(oneLine.prefix(limit)) + "…"
    }
}
