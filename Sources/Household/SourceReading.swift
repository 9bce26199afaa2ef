import DicteeCore
import Foundation
import Ingest
import Store
import Web

/// A calendar source that could not be read this run: its identity (path or URL) and why. Nothing
/// stored from it changes (its moments stay as they were).
public struct SourceFailure: Sendable, Equatable, CustomStringConvertible {
    /// The source as the configuration names it (path, or URL without user information).
    public var source: String
    /// Why (`.fetch` for the network, `.password` for a password file).
    public var error: HouseholdError

    /// "source https://…: the server refused the user name or password".
    public var description: String { error.description }
}

/// What one source gave an ingest: the occurrences read, and for a remote source what to store
/// about its objects. Calendar text stays in memory (`IngestResult`), like a file's content.
struct SourceRead {
    /// The source's identity (the `sources` row its decisions go to).
    var identity: String
    /// What the reader produced; `nil` when nothing was read (unchanged, or a failure).
    var result: IngestResult?
    /// Read entirely: stored occurrences of it that were not produced again are forgotten.
    var complete = false
    /// Events whose in-window occurrences not produced again are forgotten (changed or deleted
    /// remote objects).
    var forgetting = Set<EventReference>()
    /// What to store about the remote objects (`nil` for a path).
    var update: RemoteUpdate?
    /// Why nothing was read, if it failed.
    var failure: SourceFailure?
}

/// Reads each kind of source into `SourceRead`s: vdir folders and remote sources (subscriptions
/// with conditional GET, CalDAV collections with sync-collection and calendar-multiget). Files are
/// read by `IngestRun` itself, all in one `CalendarReader` session, as before.
struct SourceReading {
    let reader: CalendarReader
    let now: Int64
    let fetcher: Fetcher
    let environment: [String: String]
    let quietly: @Sendable (() -> Void) -> Void

    /// Runs libical through `quietly` (its own debugging output stays off the terminal).
    private func quiet(_ body: () -> IngestResult) -> IngestResult {
        var result: IngestResult?
        withoutActuallyEscaping(body) { body in
            let box = UncheckedBox(body)
            quietly { result = box.value() }
        }
        return result ?? body()
    }

    // MARK: vdir folders

    /// A vdir folder (vdirsyncer, khal): every `.ics` file directly inside, read as one source. An
    /// unreadable or broken file is an error of its own; the folder then counts as read in part.
    func folder(_ path: String) -> SourceRead {
        var read = SourceRead(identity: LocalPath.absolute(path))
        var documents: [(name: String, bytes: [UInt8])] = []
        var unreadable: [IngestError] = []
        guard let files = SourceSetup.calendarFiles(inFolder: path) else {
            // Not an empty folder: its moments must stay as they were.
            var result = reader.read(paths: [])
            result.fileErrors.append(.unreadableFile(path: path, reason: tr("the folder cannot be listed (permissions?)")))
            read.result = result
            return read
        }
        for file in files {
            var info = stat()
            guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if Int(info.st_size) > CalendarReader.maximumFileSize {
                unreadable.append(.unreadableFile(path: file, reason: tr("more than %ld MB", CalendarReader.maximumFileSize / 1_000_000)))
                continue
            }
            guard let data = FileManager.default.contents(atPath: file) else {
                unreadable.append(.unreadableFile(path: file, reason: tr("permission denied or i/o error")))
                continue
            }
            documents.append((file, [UInt8](data)))
        }
        var result = documents.isEmpty ? reader.read(paths: []) : quiet { reader.read(documents: documents) }
        result.fileErrors += unreadable
        if !unreadable.isEmpty { result.incompleteFiles.insert(path) }
        read.result = result
        read.complete = unreadable.isEmpty && result.incompleteFiles.isEmpty
            && result.fileErrors.isEmpty
        return read
    }

    // MARK: Subscriptions

    /// A subscription URL: a conditional GET with the stored validators, unless one of its
    /// occurrences enters the window by now (then the whole calendar is read again).
    func subscription(_ remote: CalendarSource.Remote, state: RemoteState) -> SourceRead {
        var read = SourceRead(identity: remote.url)
        let url: URL
        do { url = try remote.address() } catch {
            read.failure = SourceFailure(source: remote.url, error: error)
            return read
        }
        let stored = state.objects[""]
        let due = stored.map { $0.recheckAt.map { $0 <= now } ?? false } ?? true
        let validators = due ? nil : stored.map { Subscription.Validators(etag: $0.etag, lastModified: $0.lastModified) }
        let answer: Subscription.Result
        do {
            answer = try Subscription.fetch(url, validators: validators, fetcher: fetcher.with(remote))
        } catch {
            read.failure = SourceFailure(source: remote.url, error: .fetch(error))
            return read
        }
        switch answer {
        case .notModified:
            return read
        case .calendar(let bytes, let validators):
            let name = Subscription.display(url)
            let result = quiet { reader.read(bytes: bytes, name: name) }
            read.result = result
            read.complete = result.fileErrors.isEmpty && result.incompleteFiles.isEmpty
            let events = Set(result.occurrences.map(\.eventReference))
            read.forgetting = Set(stored?.events ?? []).subtracting(events)
            read.update = RemoteUpdate(
                source: remote.url, syncToken: nil,
                objects: ["": RemoteObject(etag: validators.etag, lastModified: validators.lastModified,
                                           events: events.sorted(by: { $0.description < $1.description }),
                                           recheckAt: result.nextEntry[name])],
                removed: [])
            return read
        }
    }

    // MARK: CalDAV

    /// A CalDAV collection: what changed since the stored sync token (or a full listing), plus the
    /// objects due again for the moving window, fetched with calendar-multiget. A failure at any
    /// step stores nothing: the next run starts from the same token.
    func caldav(_ remote: CalendarSource.Remote, identity: String, state: RemoteState) -> SourceRead {
        var read = SourceRead(identity: identity)
        let url: URL
        do { url = try remote.address() } catch {
            read.failure = SourceFailure(source: remote.url, error: error)
            return read
        }
        let password: String
        do {
            password = try CalDAVPassword.require(for: remote, environment: environment)
        } catch {
            read.failure = SourceFailure(source: remote.url, error: error)
            return read
        }
        let credentials = remote.user.map { HTTPRequest.Credentials(user: $0, password: password) }
        let client = CalDAVClient(fetcher: fetcher.with(remote), credentials: credentials)
        let known = state.objects.compactMapValues(\.etag)
        do {
            let changes = try client.changes(in: url, syncToken: state.syncToken, known: known)
            // A full listing (first run, refused token) reports as deleted what `known` has and the
            // server no longer lists.
            var deleted = Set(changes.deleted)
            let due = state.objects.filter { href, object in
                !deleted.contains(href) && (object.recheckAt.map { $0 <= now } ?? false)
            }.keys
            let wanted = Set(changes.changed.filter { href, etag in known[href] != etag || state.objects[href] == nil }.keys)
                .union(due).subtracting(deleted)
            let answers = wanted.isEmpty ? [] : try client.fetch(wanted.sorted(), in: url)
            // Deleted since the listing (404 to the multiget): gone, not an error.
            deleted.formUnion(answers.filter(\.isDeleted).map(\.href))
            let objects = answers.filter { !$0.isDeleted }
            var documents: [(name: String, bytes: [UInt8])] = []
            var hrefOf: [String: String] = [:]
            for object in objects {
                let name = Self.name(of: object.href, in: url)
                hrefOf[name] = object.href
                documents.append((name, object.data))
            }
            let result = documents.isEmpty ? reader.read(paths: []) : quiet { reader.read(documents: documents) }
            read.result = result
            // An object not answered, or whose data is not a calendar, was not read: its stored
            // state stays, and so does the sync token, so that the next run asks for it again.
            let unreadable = Set(result.fileErrors.compactMap(\.path)).union(result.incompleteFiles).compactMap { hrefOf[$0] }
            let notRead = wanted.subtracting(answers.map(\.href)).union(unreadable)
            var eventsOf: [String: Set<EventReference>] = [:]
            for occurrence in result.occurrences {
                if let href = hrefOf[occurrence.source.file] { eventsOf[href, default: []].insert(occurrence.eventReference) }
            }
            var updated: [String: RemoteObject] = [:]
            for object in objects where !notRead.contains(object.href) {
                let name = Self.name(of: object.href, in: url)
                let events = eventsOf[object.href] ?? []
                updated[object.href] = RemoteObject(
                    etag: object.etag ?? changes.changed[object.href], events: events.sorted(by: { $0.description < $1.description }),
                    recheckAt: result.nextEntry[name])
                read.forgetting.formUnion(Set(state.objects[object.href]?.events ?? []).subtracting(events))
            }
            for href in deleted {
                read.forgetting.formUnion(state.objects[href]?.events ?? [])
            }
            let token = notRead.isEmpty ? changes.syncToken : state.syncToken
            read.update = RemoteUpdate(source: identity, syncToken: token, objects: updated,
                                       removed: deleted.filter { state.objects[$0] != nil }.sorted())
        } catch {
            read.failure = SourceFailure(source: remote.url, error: .fetch(error))
        }
        return read
    }

    /// What diagnostics call a calendar object: the collection's scheme and host with the href's path.
    static func name(of href: String, in collection: URL) -> String {
        guard let url = URL(string: href, relativeTo: collection)?.absoluteURL else { return Fetcher.display(collection) + href }
        return Fetcher.display(url)
    }
}

extension Fetcher {
    /// This fetcher with a remote source's own options (its CA file, plain http allowed or not).
    func with(_ remote: CalendarSource.Remote) -> Fetcher {
        var copy = self
        if let caFile = remote.caFile { copy.caFile = caFile }
        copy.allowsInsecureHTTP = copy.allowsInsecureHTTP || remote.insecureHTTP
        // The password goes to the configured site only, whatever a server says.
        copy.credentialScope = copy.credentialScope ?? URL(string: remote.url)
        copy.deadline = copy.deadline ?? Date().addingTimeInterval(Self.sourceDeadline)
        return copy
    }

    /// How long the fetch of one source may take in all, in seconds (30 minutes: a first sync of
    /// 5,000 events from a slow server takes about 5).
    static let sourceDeadline: Double = 30 * 60
}

/// Carries a non-escaping closure through `quietly`, which runs it before returning.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
