import Foundation

/// A short reference to a calendar event, safe for logs, errors, the database and the audit file:
/// the first 12 hexadecimal digits (48 bits) of the FNV-1a 64-bit hash of the event's UID, mixed
/// by the SplitMix64 finalizer, prefixed by `ev-`. 48 bits keep collisions negligible for a family calendar (about 1 in 200 for a
/// 50,000-event file), while staying short enough to read.
///
/// Docs/style.md, Errors and diagnostics: never put calendar text or a child's name in an error or a log line; refer to an event
/// by a short hash of its UID. A UID is not secret, but some exporters build it from the title.
public struct EventReference: Hashable, Sendable, CustomStringConvertible {
    /// `ev-` followed by 12 lowercase hexadecimal digits.
    public let description: String

    /// The reference for a UID (the empty UID has one too).
    public init(uid: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in uid.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        // FNV-1a alone spreads a last-character change over one hex digit; the SplitMix64
        // finalizer makes every input bit move about half of the output bits.
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 31
        let hex = String(hash >> 16, radix: 16)
        description = "ev-" + hex.leftPadded(to: 12)
    }

    /// Reads `ev-` + 12 hexadecimal digits back (from the database or the audit file).
    public init?(_ text: String) {
        guard text.count == 15, text.hasPrefix("ev-"),
            text.dropFirst(3).allSatisfy({ "0123456789abcdef".contains($0) })
        else { return nil }
        description = text
    }
}
