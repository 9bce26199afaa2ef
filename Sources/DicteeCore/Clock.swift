import Foundation

/// Where "now" comes from. Injected everywhere time matters so that tests pin it
/// (Docs/architecture.md rule 4).
public protocol Clock: Sendable {
    /// The current instant.
    var now: Date { get }
}

/// The system clock.
public struct SystemClock: Clock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public var now: Date { Date() }
}

/// A clock stopped at one instant: for tests and for `--now`.
public struct FixedClock: Clock {
    /// The instant this clock always returns.
    public let now: Date
    /// Creates a clock stopped at `now`.
    public init(_ now: Date) { self.now = now }
}
