import DicteeCore
import Foundation

/// The `dictee` command namespace. Each subcommand is a type in `Commands/`.
public enum Dictee {
    /// The version printed by `dictee --version`.
    public static let version = "0.1.0"
    /// The most `dictee` reads from stdin, in bytes.
    static let standardInputLimit = 16 * 1_048_576

    /// Every command, in the order `dictee --help` lists them.
    static let commands: [CommandDescriptor] = [
        Events.descriptor, Classify.descriptor, Check.descriptor, ChildCommand.descriptor, IngestCommand.descriptor,
        Review.descriptor, Suggestions.descriptor, Audit.descriptor, Cards.descriptor, Pick.descriptor, Show.descriptor, Sheets.descriptor,
        GradeCommand.descriptor, Skills.descriptor, SourceCommand.descriptor, CaldavCommand.descriptor, Privacy.descriptor, Nightly.descriptor,
        Stats.descriptor, LibraryCommand.descriptor,
        History.descriptor, Report.descriptor,
    ]
}

/// A command's table entry, built from its type (`Events.descriptor`). `Dictee.commands` is built
/// once per process, so the texts are read at each use, in the language of the run
/// (`Language.current`): a French run after an English one in the same process gets French help.
struct CommandDescriptor: @unchecked Sendable {
    var name: String
    /// Reads the one-line summary in the current language.
    var readSummary: () -> String
    /// Reads the full `--help` text in the current language.
    var readHelp: () -> String
    var options: OptionSpec
    /// One line for `dictee --help`, in the current language.
    var summary: String { readSummary() }
    /// The full `--help` text, in the current language.
    var help: String { readHelp() }
    var run: (ParsedArguments, CommandContext) throws(CommandFailure) -> ExitCode
    /// Where a failure found before the command runs (its arguments) is printed.
    var failureOutput: (CommandContext, [String]) -> OutputSink
}

/// What every subcommand provides.
protocol Command {
    /// The word typed after `dictee`.
    static var name: String { get }
    /// One line for `dictee --help`, in the current language (read at each use).
    static var summary: String { get }
    /// The full `--help` text, with an example, in the current language (read at each use).
    static var help: String { get }
    /// Options and flags the command accepts (besides `--help`).
    static var options: OptionSpec { get }
    /// Runs the command: renders its results and returns 0 or 1 (finished with per-item errors).
    /// - Throws: `CommandFailure` for anything else (printed by `DicteeCLI.run`).
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode
    /// Where a failure found before `run` (in the arguments) is printed: the context's output,
    /// unless the command keeps a log of its own (`nightly` dates every line).
    /// - Parameter arguments: the words after the command's name, not parsed.
    static func failureOutput(_ context: CommandContext, _ arguments: [String]) -> OutputSink
}

extension Command {
    /// This command's entry in `Dictee.commands`.
    static var descriptor: CommandDescriptor {
        CommandDescriptor(
            name: name, readSummary: { summary }, readHelp: { help }, options: options,
            run: { (arguments, context) throws(CommandFailure) -> ExitCode in try run(arguments, context) },
            failureOutput: { context, arguments in failureOutput(context, arguments) })
    }

    static func failureOutput(_ context: CommandContext, _ arguments: [String]) -> OutputSink { context.output }
}

/// What a command may touch: the environment (read-only), the output sink, the clock.
struct CommandContext: @unchecked Sendable {
    var environment: [String: String]
    var output: OutputSink
    var clock: any DicteeCore.Clock
    /// Reads all of standard input, or `nil` when it is a terminal (nothing piped in).
    var readStandardInput: () -> String? = { nil }
    /// Reads one line typed by the user (interactive commands), `nil` at the end of input.
    var readLine: () -> String? = { nil }
    /// Whether stdin and stdout are a terminal (interactive commands).
    var isInteractive = false
    /// `--state PATH` given before the command, if any.
    var statePath: String?
}

/// Entry points: `main.swift` calls `DicteeCLI.main()`; tests call `run`.
public enum DicteeCLI {
    /// Runs `dictee` with the process's arguments and environment, then exits.
    public static func main() -> Never {
        let environment = ProcessInfo.processInfo.environment
        let output = OutputSink.standard(environment: environment)
        StandardError.silencesLibraries = true
        let code = run(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: environment,
            output: output, standardInput: {
                guard isatty(STDIN_FILENO) == 0 else { return nil }
                // Bounded: an endless pipe (`yes | dictee check ... -`) must not eat the memory.
                var data = Data()
                while true {
                    let chunk = FileHandle.standardInput.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                    if data.count > Dictee.standardInputLimit {
                        output.error(tr("stdin: more than %ld MiB; give a file instead", Dictee.standardInputLimit / 1_048_576))
                        return nil
                    }
                }
                return String(decoding: data, as: UTF8.self)
            },
            readLine: {
                FileHandle.standardOutput.flushBuffer()
                return Swift.readLine(strippingNewline: true)
            },
            isInteractive: isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1)
        FileHandle.standardOutput.flushBuffer()
        if FileHandle.outputFailed {
            let line = Language.$current.withValue(Language(environment: environment)) {
                OutputSink.labeled(tr("error"), tr("cannot write the output"))
            }
            try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
            exit(code == .ok ? ExitCode.ioError.rawValue : code.rawValue)
        }
        exit(code.rawValue)
    }

    /// Runs one command line (without the program name) and returns its exit status.
    /// - Parameters:
    ///   - arguments: e.g. `["events", "famille.ics", "--json"]`.
    ///   - environment: the variables the command may read (`TZ`, `NO_COLOR`, `DICTEE_STATE`...).
    ///   - output: where results and diagnostics go.
    ///   - clock: "now" when `--now` is not given.
    ///   - standardInput: reads all of stdin, `nil` when there is none (a terminal).
    public static func run(
        arguments: [String], environment: [String: String], output: OutputSink,
        clock: any DicteeCore.Clock = SystemClock(),
        standardInput: @escaping () -> String? = { nil },
        readLine: @escaping () -> String? = { nil }, isInteractive: Bool = false
    ) -> ExitCode {
        // Every message, prompt and date of this run in the language the environment asks for.
        Language.$current.withValue(Language(environment: environment)) {
            runInLanguage(arguments: arguments, environment: environment, output: output, clock: clock,
                          standardInput: standardInput, readLine: readLine, isInteractive: isInteractive)
        }
    }

    private static func runInLanguage(
        arguments: [String], environment: [String: String], output: OutputSink,
        clock: any DicteeCore.Clock, standardInput: @escaping () -> String?,
        readLine: @escaping () -> String?, isInteractive: Bool
    ) -> ExitCode {
        var context = CommandContext(environment: environment, output: output, clock: clock)
        context.readStandardInput = standardInput
        context.readLine = readLine
        context.isInteractive = isInteractive
        var arguments = arguments
        // Global options before the command: --state PATH (or --state=PATH).
        while let first = arguments.first, first == "--state" || first.hasPrefix("--state=") {
            if first == "--state" {
                guard arguments.count >= 2 else {
                    output.error(tr("option '%@' needs a value", "--state"))
                    return .usage
                }
                context.statePath = arguments[1]
                arguments.removeFirst(2)
            } else {
                context.statePath = String(first.dropFirst("--state=".count))
                arguments.removeFirst()
            }
        }
        guard let first = arguments.first else {
            output.diagnostic(overview)
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            if first == "help", arguments.count > 1,
                let command = Dictee.commands.first(where: { $0.name == arguments[1] })
            {
                output.write(command.help)
            } else {
                output.write(overview + "\n")
            }
            return .ok
        case "--version":
            output.line("dictee \(Dictee.version)")
            return .ok
        default:
            break
        }
        guard let command = Dictee.commands.first(where: { $0.name == first }) else {
            var message = first.hasPrefix("-") ? tr("unknown option '%@'", first) : tr("unknown command '%@'", first)
            let names = first.hasPrefix("-")
                ? ["--help", "--version"] : Dictee.commands.map(\.name) + ["help"]
            if let near = NearestWord.find(first, in: names) {
                message += tr("; did you mean '%@'?", near)
            }
            output.error(message)
            output.hint(tr("run 'dictee --help' to list the commands"))
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            output.write(command.help)
            return .ok
        }
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(rest, spec: command.options)
        } catch {
            let output = command.failureOutput(context, rest)
            output.error(error.description)
            output.hint(tr("run 'dictee %@ --help' for usage", command.name))
            return .usage
        }
        do {
            return try command.run(parsed, context)
        } catch let failure as CommandFailure {
            // The one place a failure is printed.
            output.error(failure.message)
            if let hint = failure.hint { output.hint(hint) }
            return failure.code
        } catch {
            output.error("\(error)")
            return .internalError
        }
    }

    /// `dictee --help`: what dictee is, the commands with their summaries, the global options.
    static var overview: String {
        var text = tr("help.overview", Dictee.version)
        for command in Dictee.commands {
            text += "  " + command.name.padding(toLength: 13, withPad: " ", startingAt: 0)
                + command.summary + "\n"
        }
        return text + tr("help.overview.options")
    }
}
