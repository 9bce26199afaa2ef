import DicteeCLI
import DicteeCore
import DicteeTestSupport
import Foundation

func fixture(_ relative: String) -> String {
    repositoryRoot.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
}

/// The result of one in-process command run.
struct Captured {
    var code: ExitCode
    var stdout: String
    var stderr: String
}

/// Runs `dictee ARGUMENTS` in process, capturing both streams.
/// - Parameters:
///   - typed: lines the user types, for interactive commands (`isInteractive` is then true).
func runDictee(_ arguments: [String], environment: [String: String] = ["TZ": "Europe/Paris"], typed: [String]? = nil)
    -> Captured
{
    final class Box: @unchecked Sendable { var out = ""; var err = ""; var lines: [String] = [] }
    let box = Box()
    box.lines = typed ?? []
    let sink = OutputSink(out: { box.out += $0 }, err: { box.err += $0 })
    let code = DicteeCLI.run(
        arguments: arguments, environment: environment, output: sink,
        clock: FixedClock(Date(timeIntervalSince1970: 1_796_000_000)),
        readLine: { box.lines.isEmpty ? nil : box.lines.removeFirst() }, isInteractive: typed != nil)
    return Captured(code: code, stdout: box.out, stderr: box.err)
}

/// Runs the built `dictee` binary from the repository root with a fixed, colourless environment.
/// - Returns: the exit status, stdout and stderr.
func runBuiltDictee(_ binary: URL, _ arguments: [String], language: String? = nil) throws -> (status: Int32, stdout: Data, stderr: Data) {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = repositoryRoot
    var environment = ["PATH": "/usr/bin:/bin", "TZ": "Europe/Paris", "NO_COLOR": "1",
                       "HOME": FileManager.default.temporaryDirectory.path].merging(sanitizerEnvironment()) { $1 }
    if let language { environment["LANG"] = language }
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // stderr is read on another thread so that a full stderr pipe cannot block the child.
    final class Box: @unchecked Sendable { var data = Data() }
    let box = Box()
    let reader = Thread { box.data = err.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !reader.isFinished { usleep(1_000) }
    return (process.terminationStatus, stdout, box.data)
}

/// A run log without its dates: each line's leading `2026-11-29T18:00:00+01:00 [4242] ` (an ISO
/// 8601 time and the pid, as `nightly` writes them) removed.
func undated(_ log: String) -> String {
    log.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
        guard let range = line.range(of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}(Z|[+-][0-9]{2}:[0-9]{2}) \[[0-9]+\] "#,
                                     options: .regularExpression) else { return line }
        return line[range.upperBound...]
    }.joined(separator: "\n")
}
