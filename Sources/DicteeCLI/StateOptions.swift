import DicteeCore
import Foundation
import Store
import Household

/// Where the family's state lives and how a command opens it.
enum StateOptions {
    /// The family's files for this command line: `--state PATH`, else `$DICTEE_STATE`, else the
    /// XDG data folder (`HouseholdPaths`).
    static func paths(_ context: CommandContext) -> HouseholdPaths {
        HouseholdPaths(environment: context.environment, statePath: context.statePath)
    }

    /// The state file.
    static func path(_ context: CommandContext) -> String { paths(context).state }

    /// The family's files, refusing an empty `--state` (64).
    static func checkedPaths(_ context: CommandContext) throws(CommandFailure) -> HouseholdPaths {
        if let given = context.statePath, given.isEmpty { throw .usage(tr("--state needs a file path")) }
        return paths(context)
    }

    /// Opens the state.
    /// - Parameter create: when false (commands that only read), a missing state is an error
    ///   instead of a new empty database.
    /// - Throws: 64 for an empty `--state`, 65 for a missing state (`create: false`), else the
    ///   state error's status.
    static func open(_ context: CommandContext, create: Bool = true) throws(CommandFailure) -> StateStore {
        let path = try checkedPaths(context).state
        if !create, !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(HouseholdError.noState(path: path))
        }
        do {
            return try StateStore(path: path)
        } catch {
            throw CommandFailure(error)
        }
    }
}

/// Runs an application-layer call, turning its failure into the command's.
func household<T>(_ body: () throws(HouseholdError) -> T) throws(CommandFailure) -> T {
    do { return try body() } catch { throw CommandFailure(error) }
}

/// Runs a store call, turning its failure into the command's.
func state<T>(_ body: () throws(StateError) -> T) throws(CommandFailure) -> T {
    do { return try body() } catch { throw CommandFailure(error) }
}

/// The configuration file of a command line.
enum ConfigOptions {
    /// Reads the configuration (`Config.path(environment:)`); a missing file is the empty one.
    /// - Throws: 65 naming the file and the key when it is unreadable or invalid.
    static func load(_ context: CommandContext) throws(CommandFailure) -> Config {
        do { return try Config.load(path: Config.path(environment: context.environment)) } catch {
            throw CommandFailure(HouseholdError.config(error))
        }
    }
}
