import Foundation

/// Where something came from in an input file: the path as given and a 1-based physical line.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file path exactly as the user gave it.
    public var file: String
    /// 1-based physical line number in the file, or `nil` when it is not known.
    public var line: Int?

    /// Creates a location.
    public init(file: String, line: Int?) {
        self.file = file
        self.line = line
    }

    /// `file:line`, or just `file`.
    public var description: String {
        if let line { return "\(file):\(line)" }
        return file
    }
}

/// One occurrence of a calendar event inside the read window, as `Ingest` produces it.
///
/// - Warning: `summary`, `location` and `eventDescription` are the family's raw calendar text. They
///   live in memory only, inside `Ingest` and `PrivacyFilter` (Docs/architecture.md, privacy
///   boundary). Never write them to the database, a log, the audit file or a prompt; refer to an
///   event by ``eventReference`` instead.
public struct Occurrence: Hashable, Sendable {
    /// The event's `UID` (RFC 5545 section 3.8.4.7); empty when the event had none.
    public var uid: String
    /// `SUMMARY`, unescaped; empty when missing or empty.
    public var summary: String
    /// `LOCATION`, unescaped; empty when missing.
    public var location: String
    /// `DESCRIPTION`, unescaped; empty when missing.
    public var eventDescription: String
    /// Start: a date for all-day occurrences, else an instant.
    public var start: EventTime
    /// End, exclusive: a date for all-day occurrences (at least the day after `start`), else an
    /// instant not before `start`.
    public var end: EventTime
    /// True for occurrences of a series (`RRULE` or `RDATE`), of its overrides (`RECURRENCE-ID`),
    /// and of orphan overrides; false for one-off events.
    public var isRecurring: Bool
    /// The `VEVENT` this occurrence comes from (the override's own `VEVENT` for an override).
    public var source: SourceLocation

    /// Creates an occurrence. Only `Ingest` has a reason to.
    public init(
        uid: String, summary: String, location: String = "", eventDescription: String = "",
        start: EventTime, end: EventTime, isRecurring: Bool, source: SourceLocation
    ) {
        self.uid = uid
        self.summary = summary
        self.location = location
        self.eventDescription = eventDescription
        self.start = start
        self.end = end
        self.isRecurring = isRecurring
        self.source = source
    }

    /// Whether this is an all-day occurrence (its start is a calendar date).
    public var isAllDay: Bool { start.date != nil }

    /// A short, stable reference to the event that never reveals its text: see ``EventReference``.
    /// An event without a UID is told apart by its file and line instead (stable while the file
    /// does not change), so that two such events never share a reference.
    public var eventReference: EventReference {
        uid.isEmpty
            ? EventReference(uid: "\u{0}no-uid:\(source.file):\(source.line ?? 0)")
            : EventReference(uid: uid)
    }
}
