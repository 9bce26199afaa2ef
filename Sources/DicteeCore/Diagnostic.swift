import Foundation

/// One problem found while processing a batch (a calendar, a queue, a run). A batch never stops at
/// the first bad item: each bad item becomes a diagnostic and the run goes on (Docs/style.md, Errors and diagnostics).
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Hashable, Sendable {
        /// The item was lost (e.g. an event that could not be read).
        case error
        /// The item was kept, possibly repaired.
        case warning
    }

    /// How bad it is.
    public var severity: Severity
    /// File and line when known.
    public var location: SourceLocation?
    /// The event's UID when the diagnostic is about one event (shown by `dictee events` only; other
    /// commands show ``eventReference``).
    public var uid: String?
    /// A stable, machine-readable code such as `invalid-date` or `unknown-tzid`.
    public var code: String
    /// A lower-case message naming what is wrong. Never contains calendar text.
    public var message: String

    /// Creates a diagnostic.
    public init(
        severity: Severity, location: SourceLocation?, uid: String?, code: String, message: String
    ) {
        self.severity = severity
        self.location = location
        self.uid = uid
        self.code = code
        self.message = message
    }

    /// The event reference (short UID hash) when the diagnostic concerns an event.
    public var eventReference: EventReference? { uid.map(EventReference.init(uid:)) }

    /// `file:line: error: message (ev-xxxxxxxx)`.
    public var description: String {
        var text = ""
        if let location { text += "\(location): " }
        text += "\(severity.rawValue): \(message)"
        if let eventReference { text += " (\(eventReference))" }
        return text
    }
}
