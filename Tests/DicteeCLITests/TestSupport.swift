import DicteeCLI
import DicteeCore
import Foundation

let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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
func runDictee(_ arguments: [String], environment: [String: String] = ["TZ": "Europe/Paris"])
    -> Captured
{
    final class Box: @unchecked Sendable { var out = ""; var err = "" }
    let box = Box()
    let sink = OutputSink(out: { box.out += $0 }, err: { box.err += $0 })
    let code = DicteeCLI.run(
        arguments: arguments, environment: environment, output: sink,
        clock: FixedClock(Date(timeIntervalSince1970: 1_796_000_000)))
    return Captured(code: code, stdout: box.out, stderr: box.err)
}
