import Foundation

/// A short reference to a calendar event, safe for logs, errors and the audit file: the first
/// 8 hexadecimal digits of the FNV-1a 64-bit hash of the event's UID, prefixed by `ev-`.
///
/// STYLE.md: never put calendar text or a child's name in an error or a log line; refer to an event
/// by a short hash of its UID. A UID is not secret, but some exporters build it from the title.
public struct EventReference: Hashable, Sendable, CustomStringConvertible {
    /// `ev-` followed by 8 lowercase hexadecimal digits.
    public let description: String

    /// The reference for a UID (the empty UID has one too).
    public init(uid: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in uid.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash >> 32, radix: 16)
        description = "ev-" + hex.leftPadded(to: 8)
    }
}
