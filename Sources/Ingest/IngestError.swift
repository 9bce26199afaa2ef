import DicteeCore

/// Errors of the Ingest module. Messages are lower case and name the file, line and event reference;
/// they never quote calendar text (Docs/style.md, Errors and diagnostics).
public enum IngestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A time zone given by the user (`--tz`, configuration) is not an IANA name tzdata knows.
    case unknownZone(String)
    /// The file could not be read at all (missing, a directory, no permission).
    case unreadableFile(path: String, reason: String)
    /// The file was read but holds no VCALENDAR and no VEVENT.
    case notACalendar(path: String)

    /// The file concerned, if any.
    public var path: String? {
        switch self {
        case .unknownZone: return nil
        case .unreadableFile(let path, _), .notACalendar(let path): return path
        }
    }

    /// The message without the file name (for JSON, where the file has its own field).
    public var message: String {
        switch self {
        case .unknownZone(let name):
            return tr("unknown time zone '%@'; use an IANA name such as Europe/Paris", name)
        case .unreadableFile(_, let reason):
            return tr("cannot read the file: %@", reason)
        case .notACalendar:
            return tr("not an iCalendar file (no readable VCALENDAR or VEVENT)")
        }
    }

    /// `path: message`.
    public var description: String {
        path.map { "\($0): \(message)" } ?? message
    }
}

/// Why one VEVENT could not be read; becomes an error `Diagnostic` with the event's file and line.
struct EventProblem: Error {
    /// Stable code: `invalid-date`, `unreadable-value`, `broken-rrule`, `unknown-tzid`,
    /// `missing-dtstart`, `runaway-recurrence`.
    var code: String
    /// Lower-case message; names properties and values of dates, never text values.
    var message: String
    /// The property whose line the error points at (`nil`: the BEGIN:VEVENT line).
    var property: String?
    /// The raw value to tell apart several properties of the same name, when known.
    var value: String?
}
