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

/// The python of the llama-cpp-python virtual environment (Scripts/model/install-server):
/// `$XDG_CACHE_HOME/dictee/llama-cpp-python-0.3.36/bin/python`, `~/.cache` by default.
public var llamaVenvPython: String {
    let env = ProcessInfo.processInfo.environment
    let cache = env["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (env["HOME"] ?? NSHomeDirectory()) + "/.cache"
    return cache + "/dictee/llama-cpp-python-0.3.36/bin/python"
}

/// Why the tiny test model could not be written.
public struct TinyGGUFError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// Writes the tiny random-weight GGUF (Scripts/model/make-tiny-gguf.py with seed 2: valid
/// llama.cpp structure and byte-level tokenizer, garbage text, about 0.4 MB) to `path`, with the
/// PyPI `gguf` package of the llama-cpp-python virtual environment (Scripts/setup --tests).
/// - Throws: `TinyGGUFError` naming what is missing or what failed.
public func writeTinyGGUF(to path: String) throws {
    let python = llamaVenvPython
    guard FileManager.default.isExecutableFile(atPath: python) else {
        throw TinyGGUFError(description: "\(python) is missing: run Scripts/setup --tests (it builds the llama-cpp-python venv)")
    }
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: python)
    writer.arguments = [repositoryRoot.appendingPathComponent("Scripts/model/make-tiny-gguf.py").path, path, "--seed", "2"]
    writer.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    writer.standardError = errors
    try writer.run()
    let said = errors.fileHandleForReading.readDataToEndOfFile()
    writer.waitUntilExit()
    guard writer.terminationStatus == 0, FileManager.default.fileExists(atPath: path) else {
        throw TinyGGUFError(description: "make-tiny-gguf.py failed (\(writer.terminationStatus)): \(String(decoding: said, as: UTF8.self))")
    }
}
