import Foundation
import Store

/// dictee's folders under the XDG Base Directory rules: `$XDG_DATA_HOME/dictee`,
/// `$XDG_CONFIG_HOME/dictee`, `$XDG_CACHE_HOME/dictee` when the variable is an absolute path (a
/// relative one is invalid and ignored), else `~/.local/share`, `~/.config`, `~/.cache`, with
/// `HOME` from the command's environment.
enum XDGFolder: String {
    case data = "XDG_DATA_HOME", config = "XDG_CONFIG_HOME", cache = "XDG_CACHE_HOME"

    /// `…/dictee`, without a final slash.
    func dictee(_ environment: [String: String]) -> String {
        let fallback: String = switch self {
        case .data: "/.local/share"
        case .config: "/.config"
        case .cache: "/.cache"
        }
        let base = environment[rawValue].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + fallback
        return base + "/dictee"
    }
}

/// Where the family's state lives and how to open it.
enum StateOptions {
    /// `--state PATH`, else `$DICTEE_STATE`, else `$XDG_DATA_HOME/dictee/dictee.sqlite`, else
    /// `~/.local/share/dictee/dictee.sqlite` (ARCHITECTURE.md, files on disk).
    static func path(_ context: CommandContext) -> String {
        if let path = context.statePath, !path.isEmpty { return path }
        let env = context.environment
        if let path = env["DICTEE_STATE"], !path.isEmpty { return path }
        return XDGFolder.data.dictee(env) + "/dictee.sqlite"
    }

    /// Opens the state, or prints why not and returns the exit status to use.
    /// - Parameter create: when false (commands that only read), a missing state is an error
    ///   instead of a new empty database.
    static func open(_ context: CommandContext, create: Bool = true) -> Result<StateStore, ExitCode> {
        if let given = context.statePath, given.isEmpty {
            context.output.error("--state needs a file path")
            return .failure(.usage)
        }
        let path = path(context)
        if !create, !FileManager.default.fileExists(atPath: path) {
            context.output.error("\(path): no state yet")
            context.output.hint("run 'dictee ingest FILE' first, or give --state PATH")
            return .failure(.dataError)
        }
        do {
            return .success(try StateStore(path: path))
        } catch {
            return .failure(report(error, context))
        }
    }

    /// Prints a state error; 75 when another run holds the database, 70 otherwise.
    static func report(_ error: StateError, _ context: CommandContext) -> ExitCode {
        context.output.error(error.description)
        if case .store(.locked) = error {
            context.output.hint("another dictee command is writing the state; try again in a moment")
            return .temporaryFailure
        }
        switch error {
        case .store, .invalidRule: return .internalError
        case .unknownChild, .unknownSuggestion: return .usage
        case .childExists, .suggestionNotPending: return .dataError
        case .dictation(let e):
            switch e {
            case .unknownDictation, .noCard, .siteOutOfRange: return .usage
            case .notServed, .alreadyGraded, .retired: return .dataError
            }
        }
    }
}
