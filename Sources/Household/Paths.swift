import DicteeCore
import Foundation

/// The family's files, resolved once from the environment and `--state` (Docs/architecture.md,
/// "Files on disk"):
/// - the state: `--state PATH`, else `$DICTEE_STATE`, else `$XDG_DATA_HOME/dictee/dictee.sqlite`,
///   else `~/.local/share/dictee/dictee.sqlite`;
/// - the configuration: `Config.path(environment:)`;
/// - beside the state: the audit file (`audit.jsonl`), the nightly lock
///   (`dictee.sqlite.nightly.lock`) and the managed model server's log (`model-server.log`).
public struct HouseholdPaths: Sendable, Equatable {
    /// The SQLite state file.
    public var state: String
    /// The configuration file.
    public var config: String
    /// The environment the paths were read from (`HOME`, `XDG_*`, `DICTEE_*`), kept for the
    /// defaults resolved later (the egress log, the model server's venv).
    public var environment: [String: String]

    /// - Parameters:
    ///   - environment: the command's environment.
    ///   - statePath: `--state PATH` when given (an empty string is refused by the caller).
    public init(environment: [String: String], statePath: String? = nil) {
        self.environment = environment
        if let statePath, !statePath.isEmpty {
            state = statePath
        } else if let path = environment["DICTEE_STATE"], !path.isEmpty {
            state = path
        } else {
            state = XDGFolder.data.dictee(environment) + "/dictee.sqlite"
        }
        config = Config.path(environment: environment)
    }

    /// The folder holding the state.
    public var folder: String {
        let folder = (state as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }
    /// The audit file `dictee nightly` writes: `audit.jsonl` beside the state.
    public var auditFile: String { folder + "/audit.jsonl" }
    /// The lock that keeps one `dictee nightly` at a time.
    public var nightlyLock: String { state + ".nightly.lock" }
    /// The managed model server's own output.
    public var serverLog: String { folder + "/model-server.log" }
}
