import Foundation
import Store

/// Where the family's state lives and how to open it.
enum StateOptions {
    /// `--state PATH`, else `$DICTEE_STATE`, else `$XDG_DATA_HOME/dictee/dictee.sqlite`, else
    /// `~/.local/share/dictee/dictee.sqlite` (ARCHITECTURE.md, files on disk).
    static func path(_ context: CommandContext) -> String {
        if let path = context.statePath, !path.isEmpty { return path }
        let env = context.environment
        if let path = env["DICTEE_STATE"], !path.isEmpty { return path }
        let base = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return base + "/dictee/dictee.sqlite"
    }

    /// Opens the state, or prints why not and returns the exit status to use.
    static func open(_ context: CommandContext) -> Result<StateStore, ExitCode> {
        do {
            return .success(try StateStore(path: path(context)))
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
        }
    }
}
