// Helpers shared by the test targets (each depends on DicteeTestSupport and imports it).
import Foundation

/// The repository root, found from this file's path (`Tests/Support/TestSupport.swift`, three
/// levels below it): fixtures, golden files, `Data/`, scripts.
public let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A small deterministic generator for property tests: SplitMix64 (Steele, Lea, Flood 2014,
/// "Fast splittable pseudorandom number generators"). The same seed gives the same cases.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The generator's whole state, 64 bits; the first output mixes `seed` plus the golden gamma.
    public var state: UInt64

    /// - Parameter seed: any 64-bit value; the sequence depends on nothing else.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The sanitizer options of the test run (`ASAN_OPTIONS`, `LSAN_OPTIONS`, `TSAN_OPTIONS`,
/// `UBSAN_OPTIONS`, as `Scripts/test-sanitized` sets them), to merge into the environment of a
/// built binary a test starts, so that the sanitized `dictee` reports into the same files and
/// fails the same way as the runner; empty in an ordinary run.
public func sanitizerEnvironment() -> [String: String] {
    ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
}
