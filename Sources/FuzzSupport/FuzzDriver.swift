// The shared entry of the libFuzzer harnesses (Scripts/fuzz): one `main` that works in both builds.
//
// SwiftPM renames an executable's `main` and links the renamed symbol, so a harness without a
// `main` does not link, with or without `-sanitize=fuzzer`. Each harness therefore keeps its
// `@main` and calls `FuzzDriver.main`: built with `-sanitize=fuzzer,address -DDICTEE_FUZZ`
// (Scripts/fuzz), it hands the harness to libFuzzer's driver (`LLVMFuzzerRunDriver`, the entry
// libFuzzer documents for programs with their own `main`); in a plain `swift build` it replays
// the files or folders given as arguments once each (a crash input, a corpus), so the normal build
// still links and a finding can be replayed without the sanitizers.
import Foundation

/// A harness's test function, libFuzzer's `LLVMFuzzerTestOneInput` shape: the input's bytes and
/// their count; returns 0 (libFuzzer reserves other values).
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

#if DICTEE_FUZZ
/// libFuzzer's driver (compiler-rt, linked by `-sanitize=fuzzer`):
/// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *, size_t))`.
/// Declared by name because no Clang module exposes it; its arguments are three pointers and the
/// result an `int`, which Swift's calling convention passes as C's on the platforms Swift supports.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzTestOneInput
) -> Int32
#endif

/// Runs a harness: libFuzzer in a fuzzer build, a replay of the given files otherwise.
public enum FuzzDriver {
    /// Runs `testOneInput` as the process's work and exits.
    /// - Parameter testOneInput: the harness (its `LLVMFuzzerTestOneInput`).
    /// - Returns: never; exits with libFuzzer's status (fuzzer build), or 0 after the replay, 66
    ///   when an argument cannot be read, 64 without arguments (plain build).
    public static func main(_ testOneInput: FuzzTestOneInput) -> Never {
        #if DICTEE_FUZZ
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("""
                usage: \(CommandLine.arguments[0]) FILE|FOLDER...
                replays each input once (this build has no fuzzer; Scripts/fuzz builds one)

                """.utf8))
            exit(64)
        }
        var count = 0
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                FileHandle.standardError.write(Data("\(path): no such file\n".utf8))
                exit(66)
            }
            let files = isFolder.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                _ = data.withUnsafeBytes { raw in
                    testOneInput(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
                }
                count += 1
            }
        }
        print("replayed \(count) inputs, no crash")
        exit(0)
        #endif
    }
}
