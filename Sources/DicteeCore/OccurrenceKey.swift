import Foundation

/// One occurrence of an event: its reference and its start (RFC 5545 section 3.8.4.4: an
/// occurrence of a recurring event is identified by its UID and its RECURRENCE-ID, i.e. its
/// original start). Unique per occurrence in the state; dictations and cards refer to it.
///
/// Written `ev-0123456789ab|t:1764441000` (an instant, seconds since the epoch) or
/// `ev-0123456789ab|d:2026-11-28` (an all-day date) in the database: `description` and
/// `init?(_:)` are that storage form's only writer and reader.
public struct OccurrenceKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The event (a short hash of its UID).
    public var event: EventReference
    /// The occurrence's start.
    public var start: EventTime

    public init(event: EventReference, start: EventTime) {
        self.event = event
        self.start = start
    }

    /// The start alone as stored: `t:SECONDS` or `d:YYYY-MM-DD`.
    public var startText: String { Self.startText(start) }

    /// A start as stored: `t:SECONDS` or `d:YYYY-MM-DD`.
    public static func startText(_ start: EventTime) -> String {
        switch start {
        case .date(let d): "d:\(d)"
        case .instant(let s): "t:\(s)"
        }
    }

    /// `ev-…|t:…` or `ev-…|d:…`.
    public var description: String { event.description + "|" + startText }

    /// Reads the stored form back; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let event = EventReference(String(parts[0])),
              let start = Self.start(String(parts[1])) else { return nil }
        self.init(event: event, start: start)
    }

    /// Reads a stored start (`t:SECONDS` or `d:YYYY-MM-DD`); `nil` for anything else.
    public static func start(_ text: String) -> EventTime? {
        if text.hasPrefix("t:"), let seconds = Int64(text.dropFirst(2)) { return .instant(seconds) }
        if text.hasPrefix("d:") {
            let parts = text.dropFirst(2).split(separator: "-", omittingEmptySubsequences: false).compactMap { Int($0) }
            if parts.count == 3 { return .date(CalendarDate(year: parts[0], month: parts[1], day: parts[2])) }
        }
        return nil
    }

    /// Ordered as their stored forms (a stable tie-break for equal starts).
    public static func < (a: OccurrenceKey, b: OccurrenceKey) -> Bool { a.description < b.description }
}
