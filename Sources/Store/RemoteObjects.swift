import DicteeCore
import Foundation

/// What dictee keeps about one calendar object of a remote source (a CalDAV href, or a
/// subscription's one document): enough to fetch only what changed, never calendar data.
public struct RemoteObject: Sendable, Equatable {
    /// The ETag of the version read (RFC 7232), as the server wrote it, quotes included.
    public var etag: String?
    /// A subscription's `Last-Modified` (an HTTP date), for `If-Modified-Since`.
    public var lastModified: String?
    /// The events read from it (what a deletion on the server withdraws).
    public var events: [EventReference]
    /// Seconds since the epoch from which it must be read again although unchanged: one of its
    /// occurrences enters the moving read window then. `nil`: never, unless it changes.
    public var recheckAt: Int64?

    /// One object's state.
    public init(etag: String?, lastModified: String? = nil, events: [EventReference], recheckAt: Int64?) {
        self.etag = etag
        self.lastModified = lastModified
        self.events = events
        self.recheckAt = recheckAt
    }
}

/// A remote source's state: its sync token and its objects by href.
public struct RemoteState: Sendable, Equatable {
    /// The RFC 6578 sync token of the last sync, `nil` before the first or after a refused one.
    public var syncToken: String?
    /// Objects by href ('' for a subscription).
    public var objects: [String: RemoteObject]

    /// A source's state.
    public init(syncToken: String? = nil, objects: [String: RemoteObject] = [:]) {
        self.syncToken = syncToken
        self.objects = objects
    }
}

/// What one ingest changes in a remote source's state (`StateStore.record(…, remote:)`).
public struct RemoteUpdate: Sendable {
    /// The source's identity (its URL, as `sources.path`).
    public var source: String
    /// The new sync token (`nil` clears it).
    public var syncToken: String?
    /// Objects read this time, replacing what was stored for their hrefs.
    public var objects: [String: RemoteObject]
    /// hrefs gone from the server.
    public var removed: [String]

    /// An update of `source`.
    public init(source: String, syncToken: String?, objects: [String: RemoteObject], removed: [String]) {
        self.source = source
        self.syncToken = syncToken
        self.objects = objects
        self.removed = removed
    }
}

extension StateStore {
    /// The stored state of the remote source `source` (its URL); empty before its first ingest.
    /// - Throws: `StateError.store`.
    public func remoteState(source: String) throws(StateError) -> RemoteState {
        try run {
            guard let row = try db.query("SELECT id, sync_token FROM sources WHERE path = ?", [.text(source)]).first else {
                return RemoteState()
            }
            let id = try row.int64("id")
            var state = RemoteState(syncToken: try row.optionalString("sync_token"))
            for object in try db.query(
                "SELECT href, etag, last_modified, event_refs, recheck_at FROM remote_objects WHERE source_id = ?", [.integer(id)])
            {
                let events = try object.string("event_refs").split(separator: ",").compactMap { EventReference(String($0)) }
                state.objects[try object.string("href")] = RemoteObject(
                    etag: try object.optionalString("etag"), lastModified: try object.optionalString("last_modified"),
                    events: events, recheckAt: try object.optionalInt64("recheck_at"))
            }
            return state
        }
    }

    /// Writes `update` (inside `record`'s transaction).
    func store(_ update: RemoteUpdate) throws {
        try db.execute("INSERT OR IGNORE INTO sources (path) VALUES (?)", [.text(update.source)])
        let id = try db.query("SELECT id FROM sources WHERE path = ?", [.text(update.source)])[0].int64("id")
        try db.execute("UPDATE sources SET sync_token = ? WHERE id = ?", [update.syncToken.map(SQLValue.text) ?? .null, .integer(id)])
        for href in update.removed {
            try db.execute("DELETE FROM remote_objects WHERE source_id = ? AND href = ?", [.integer(id), .text(href)])
        }
        for (href, object) in update.objects.sorted(by: { $0.key < $1.key }) {
            try db.execute("""
                INSERT INTO remote_objects (source_id, href, etag, last_modified, event_refs, recheck_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (source_id, href) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                    event_refs = excluded.event_refs, recheck_at = excluded.recheck_at
                """, [.integer(id), .text(href), object.etag.map(SQLValue.text) ?? .null,
                      object.lastModified.map(SQLValue.text) ?? .null,
                      .text(object.events.map(\.description).sorted().joined(separator: ",")),
                      object.recheckAt.map(SQLValue.integer) ?? .null])
        }
    }
}

extension StateStore {
    /// Forgets a calendar source removed from the configuration: every occurrence read from it
    /// (its moments, the suggestions waiting for them and the dictations not yet served about
    /// them go with them; dictations already served keep their text), and for a remote source its
    /// sync token and objects. One transaction.
    /// - Parameter identity: the source as stored (`sources.path`: a path, or a URL).
    /// - Returns: how many occurrences were forgotten (0 when the source was never read).
    /// - Throws: `StateError.store`.
    @discardableResult
    public func forgetSource(_ identity: String) throws(StateError) -> Int {
        try run {
            try db.transaction {
                guard let id = try db.query("SELECT id FROM sources WHERE path = ?", [.text(identity)]).first?.int64("id") else {
                    return 0
                }
                try db.execute("DELETE FROM occurrences WHERE source_id = ?", [.integer(id)])
                let removed = db.changes
                try db.execute("DELETE FROM remote_objects WHERE source_id = ?", [.integer(id)])
                try db.execute("DELETE FROM sources WHERE id = ?", [.integer(id)])
                return removed
            }
        }
    }
}
