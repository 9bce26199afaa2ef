// Numbered schema migrations, recorded in SQLite's `PRAGMA user_version` (an integer in the
// database header, 0 for a new file; https://sqlite.org/pragma.html#pragma_user_version).
//
// Each migration runs in its own transaction together with the update of `user_version`, so a crash
// or an error leaves the database at the previous version, never half-way. Migrations are never
// edited once released: a change of schema is a new migration at the end of the list.

/// One step of the schema: the SQL script that brings the database from `version - 1` to `version`.
///
/// The script runs inside a transaction with foreign-key enforcement off (SQLite's procedure for
/// rebuilding a table, https://sqlite.org/lang_altertable.html#otheralter); `PRAGMA
/// foreign_key_check` must find no violation before the commit. It must not hold BEGIN, COMMIT or
/// `?` placeholders.
struct Migration: Hashable, Sendable {
    /// 1 for the first migration, then 2, 3... without gaps.
    let version: Int
    /// The script (several statements separated by `;`).
    let sql: String

    init(version: Int, sql: String) {
        self.version = version
        self.sql = sql
    }
}

extension Database {
    /// The schema version recorded in the file (`PRAGMA user_version`), 0 for a new database.
    /// - Throws: `StoreError.sqlite`, `StoreError.locked`.
    func schemaVersion() throws -> Int {
        try query("PRAGMA user_version").first?.int(0) ?? 0
    }
}

/// Brings `db` up to the newest migration of `migrations`, applying the missing ones in order, each
/// in its own transaction. Running it again on an up-to-date database changes nothing. Safe against
/// another process migrating the same file at the same time: each step re-reads the version once it
/// holds the write lock.
/// - Parameters:
///   - db: an open database, outside any transaction.
///   - migrations: the whole list, versions 1, 2, 3... in order.
/// - Returns: the versions applied now (empty when the database was up to date).
/// - Throws: `StoreError.invalidMigrations` (gap, duplicate, order, or inside a transaction;
///   checked before anything is applied), `StoreError.newerSchema` (the file was written by a
///   newer dictee: nothing is touched), `StoreError.migration` (a step failed and was rolled back;
///   earlier steps stay applied), `StoreError.locked`.
@discardableResult
func migrate(_ db: Database, _ migrations: [Migration]) throws -> [Int] {
    try validate(migrations, path: db.path)
    if db.isInTransaction {
        throw StoreError.invalidMigrations(
            path: db.path, message: "migrate must run outside a transaction")
    }
    let known = migrations.last?.version ?? 0
    let current = try db.schemaVersion()
    if current > known {
        throw StoreError.newerSchema(path: db.path, found: current, known: known)
    }
    let missing = migrations.filter { $0.version > current }
    if missing.isEmpty { return [] }

    // Inside a transaction, `PRAGMA foreign_keys` is a no-op: switch it off around the steps.
    try db.execute("PRAGMA foreign_keys=OFF")
    defer { try? db.execute("PRAGMA foreign_keys=ON") }

    var applied: [Int] = []
    for migration in missing {
        let didApply = try db.transaction { () throws -> Bool in
            // Another process may have migrated while we waited for the write lock.
            let version = try db.schemaVersion()
            if version >= migration.version { return false }
            do {
                try db.execute(migration.sql)
                let violations = try db.query("PRAGMA foreign_key_check")
                if let first = violations.first {
                    let table = (try? first.string("table")) ?? "?"
                    throw StoreError.migration(
                        path: db.path, version: migration.version,
                        message: "\(violations.count) row(s) break a foreign key "
                            + "(first in table '\(table)')")
                }
                try db.execute("PRAGMA user_version=\(migration.version)")
            } catch let error as StoreError {
                switch error {
                case .locked, .migration: throw error
                default:
                    throw StoreError.migration(
                        path: db.path, version: migration.version, message: error.message)
                }
            }
            return true
        }
        if didApply { applied.append(migration.version) }
    }
    return applied
}

/// Checks that `migrations` are numbered 1, 2, 3... in order.
private func validate(_ migrations: [Migration], path: String) throws {
    func refuse(_ message: String) -> StoreError {
        .invalidMigrations(path: path, message: message)
    }
    var seen: Set<Int> = []
    for migration in migrations where !seen.insert(migration.version).inserted {
        throw refuse("version \(migration.version) appears twice")
    }
    let sorted = migrations.map(\.version).sorted()
    if let first = sorted.first, first < 1 {
        throw refuse("versions start at 1, found \(first)")
    }
    for (offset, version) in sorted.enumerated() where version != offset + 1 {
        throw refuse("version \(offset + 1) is missing (the list goes on with \(version))")
    }
    for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
        throw refuse(
            "version \(migration.version) is listed in position \(offset + 1); "
                + "keep the list in order")
    }
}
