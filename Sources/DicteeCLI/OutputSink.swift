import DicteeCore
import Foundation

/// Where a command writes: results to `out`, diagnostics to `err`. Passed in as a value so that
/// tests capture both streams (no global print hooks).
public final class OutputSink: @unchecked Sendable {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    /// Whether colour may be used on stderr (a TTY, and `NO_COLOR` unset).
    public let colorErrors: Bool
    /// Whether colour may be used on stdout (a TTY, and `NO_COLOR` unset).
    public let colorOutput: Bool

    /// Creates a sink from two writers.
    public init(colorErrors: Bool = false, colorOutput: Bool = false, out: @escaping (String) -> Void,
                err: @escaping (String) -> Void) {
        self.writeOut = out
        self.writeErr = err
        self.colorErrors = colorErrors
        self.colorOutput = colorOutput
        self.errorsOnly = false
    }

    /// Whether only `error` lines are written (`nightly --quiet`, for cron mail).
    public let errorsOnly: Bool

    private init(_ base: OutputSink, errorsOnly: Bool, out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
        self.writeOut = out
        self.writeErr = err
        self.colorErrors = base.colorErrors
        self.colorOutput = base.colorOutput
        self.errorsOnly = errorsOnly
    }

    /// A sink for a run log (`nightly`): every line, on stdout and stderr, starts with `stamp()`
    /// (an ISO 8601 time and the pid, `2026-12-02T02:30:04+01:00 [4242] `), and with `quiet`
    /// only the `error` lines are written.
    public func runLog(stamp: @escaping () -> String, quiet: Bool) -> OutputSink {
        func dated(_ write: @escaping (String) -> Void) -> (String) -> Void {
            { text in
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                if lines.last == "" { lines.removeLast() }
                write(lines.map { stamp() + $0 + "\n" }.joined())
            }
        }
        return OutputSink(self, errorsOnly: quiet, out: dated(writeOut), err: dated(writeErr))
    }

    /// This sink with stdout sent to stderr too (a job's report printed inside another job's log).
    public func allToStandardError() -> OutputSink {
        OutputSink(self, errorsOnly: errorsOnly, out: writeErr, err: writeErr)
    }

    /// Writes `text` to stdout as is (nothing when `errorsOnly`).
    public func write(_ text: String) { if !errorsOnly { writeOut(text) } }
    /// Writes a line to stdout (nothing when `errorsOnly`).
    public func line(_ text: String = "") { if !errorsOnly { writeOut(text + "\n") } }
    /// Writes a line to stderr (nothing when `errorsOnly`).
    public func diagnostic(_ text: String) { if !errorsOnly { writeErr(text + "\n") } }

    /// Writes `error: message` to stderr (in red on a colour terminal; "erreur : " in French).
    public func error(_ message: String) {
        let word = tr("error")
        writeErr(Self.labeled(colorErrors ? "\u{1B}[31m\(word)\u{1B}[0m" : word, message) + "\n")
    }

    /// Writes `warning: message` to stderr ("attention : " in French).
    public func warning(_ message: String) {
        let word = tr("warning")
        diagnostic(Self.labeled(colorErrors ? "\u{1B}[33m\(word)\u{1B}[0m" : word, message))
    }

    /// Writes `hint: message` to stderr ("conseil : " in French).
    public func hint(_ message: String) { diagnostic(Self.labeled(tr("hint"), message)) }

    /// `label: text` with the current language's colon ("label : text" in French).
    static func labeled(_ label: String, _ text: String) -> String { tr("%@: %@", label, text) }

    /// A sink writing to the process's stdout and stderr (buffered stdout, flushed on exit).
    static func standard(environment: [String: String]) -> OutputSink {
        // https://no-color.org: a NO_COLOR set to a non-empty value turns colour off.
        let allowed = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        return OutputSink(
            colorErrors: allowed && isatty(STDERR_FILENO) == 1, colorOutput: allowed && isatty(STDOUT_FILENO) == 1,
            out: { text in FileHandle.standardOutput.writeBuffered(text) },
            err: { text in
                FileHandle.standardOutput.flushBuffer()
                // A closed or full stderr must not crash the run: the exit status still tells.
                try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
            })
    }
}

extension FileHandle {
    nonisolated(unsafe) private static var pending = [UInt8]()

    /// Buffers stdout writes in 64 KiB chunks (printing 50,000 lines one syscall each is slow).
    func writeBuffered(_ text: String) {
        FileHandle.pending.append(contentsOf: text.utf8)
        if FileHandle.pending.count >= 1 << 16 { flushBuffer() }
    }

    /// Set when stdout could not be written (closed pipe, full disk): the run exits 74.
    nonisolated(unsafe) static var outputFailed = false

    func flushBuffer() {
        guard !FileHandle.pending.isEmpty else { return }
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(FileHandle.pending))
        } catch {
            FileHandle.outputFailed = true
        }
        FileHandle.pending.removeAll(keepingCapacity: true)
    }
}
