import DicteeCore
import Foundation
import Ingest
import Web

/// Checks a calendar source before it is added to the configuration (`dictee source add`,
/// `dictee caldav discover`): a subscription answers with a calendar, a CalDAV address leads to
/// calendars of events. Nothing is stored; what is downloaded stays in memory.
public enum SourceSetup {
    /// Why a path cannot serve as a calendar source, or `nil` when it is a readable regular file or
    /// a readable folder (vdir).
    public static func unreadablePath(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? tr("no such file or folder") : systemReason(errno)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return access(path, R_OK) == 0 ? nil : tr("not readable (permissions?)")
        case S_IFDIR: return access(path, R_OK | X_OK) == 0 ? nil : tr("a folder that cannot be read (permissions?)")
        default: return tr("not a regular file or folder")
        }
    }

    /// Checks a local source once, after `unreadablePath`: a folder (vdir) is kept as it is, since
    /// vdirsyncer may fill it later; a file is read as `ingest` reads it (`CalendarReader`, so
    /// what `ingest` accepts is accepted here: a VCALENDAR anywhere in the file, or bare VEVENTs).
    /// libical may print its own notes on stderr meanwhile: the caller silences it.
    /// - Parameter path: a readable regular file or folder (`unreadablePath` returned `nil`).
    /// - Returns: how many VEVENT components the file holds (a count, never their text), or `nil`
    ///   for a folder.
    /// - Throws: the reader's `IngestError` (`.notACalendar`, `.unreadableFile`), which names the
    ///   file; nothing is kept.
    public static func checkLocal(_ path: String) throws(IngestError) -> Int? {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return nil }
        // The zone only places floating times; any zone tzdata has will do for a count.
        let zone = try CalendarZone(identifier: "UTC")
        let result = CalendarReader(zone: zone, window: ReadWindow.around(now: Date(), zone: zone)).read(paths: [path])
        if let error = result.fileErrors.first { throw error }
        return result.eventCount
    }

    /// Fetches a subscription once.
    /// - Returns: how many VEVENT components it holds (a count, never their text).
    /// - Throws: `HouseholdError.fetch` (unreachable, refused, not a calendar).
    public static func checkSubscription(_ remote: CalendarSource.Remote, fetcher: Fetcher) throws(HouseholdError) -> Int {
        let url = try remote.address()
        do {
            switch try Subscription.fetch(url, validators: nil, fetcher: fetcher.with(remote)) {
            case .notModified: return 0
            case .calendar(let bytes, _): return countEvents(bytes)
            }
        } catch {
            throw .fetch(error)
        }
    }

    /// The calendars a CalDAV address leads to (RFC 6764 discovery, then the calendar home), with
    /// the password found as `CalDAVPassword.find` says.
    /// - Throws: `HouseholdError.fetch` (77 refused credentials, 69 unreachable, 65 unreadable),
    ///   `.password` when the password file cannot be read.
    public static func discover(_ remote: CalendarSource.Remote, fetcher: Fetcher,
                                environment: [String: String]) throws(HouseholdError) -> [CalDAVCalendar] {
        let url = try remote.address()
        let password = try CalDAVPassword.require(for: remote, environment: environment)
        let credentials = remote.user.map { HTTPRequest.Credentials(user: $0, password: password) }
        do {
            return try CalDAVClient(fetcher: fetcher.with(remote), credentials: credentials).discover(url)
        } catch {
            throw .fetch(error)
        }
    }

    /// The calendars of `calendars` that hold events (a VTODO-only collection is left out).
    public static func eventCalendars(_ calendars: [CalDAVCalendar]) -> [CalDAVCalendar] {
        calendars.filter(holdsEvents)
    }

    /// Whether a calendar may hold events: it supports VEVENT, or does not say what it supports.
    public static func holdsEvents(_ calendar: CalDAVCalendar) -> Bool {
        calendar.components.isEmpty || calendar.components.contains("VEVENT")
    }

    /// The calendar files of a vdir folder (vdirsyncer's and khal's layout): the `.ics` files
    /// directly inside, hidden ones left out, sorted by name, as full paths; `nil` when the folder
    /// cannot be listed (permissions), which is not the same as an empty folder.
    public static func calendarFiles(inFolder path: String) -> [String]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        return names
            .filter { $0.lowercased().hasSuffix(".ics") && !$0.hasPrefix(".") }
            .sorted()
            .map { (path as NSString).appendingPathComponent($0) }
    }

    /// `BEGIN:VEVENT` lines in an RFC 5545 text (unfolded lines start at a line break).
    static func countEvents(_ bytes: [UInt8]) -> Int {
        let marker = Array("BEGIN:VEVENT".utf8)
        var count = 0
        var k = 0
        var lineStart = true
        while k < bytes.count {
            if lineStart, bytes.count - k >= marker.count, bytes[k..<(k + marker.count)].elementsEqual(marker) { count += 1 }
            lineStart = bytes[k] == 0x0A
            k += 1
        }
        return count
    }
}
