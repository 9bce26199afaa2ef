import Foundation

/// dictee's folders under the XDG Base Directory specification (version 0.8):
/// `$XDG_DATA_HOME/dictee`, `$XDG_CONFIG_HOME/dictee`, `$XDG_CACHE_HOME/dictee` when the variable
/// holds an absolute path (the specification says a relative one is invalid and must be ignored),
/// else `~/.local/share/dictee`, `~/.config/dictee`, `~/.cache/dictee`, with `HOME` taken from the
/// given environment (so tests and commands pass theirs, never the process's by surprise).
///
/// The one home of this rule: the state, the configuration, the egress log, the model server's
/// virtual environment and the installed Lexique table all resolve their folder here.
public enum XDGFolder: String, Sendable, CaseIterable {
    case data = "XDG_DATA_HOME", config = "XDG_CONFIG_HOME", cache = "XDG_CACHE_HOME"

    /// The base folder (`$XDG_DATA_HOME` or `~/.local/share`...), without a final slash.
    /// - Parameter environment: the variables to read (`XDG_*_HOME`, `HOME`); `HOME` missing
    ///   falls back to the account's home directory.
    public func base(_ environment: [String: String]) -> String {
        if let value = environment[rawValue], value.hasPrefix("/") { return value }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let fallback: String = switch self {
        case .data: "/.local/share"
        case .config: "/.config"
        case .cache: "/.cache"
        }
        return home + fallback
    }

    /// `<base>/dictee`, without a final slash.
    public func dictee(_ environment: [String: String]) -> String {
        base(environment) + "/dictee"
    }
}

/// Absolute paths, one rule: a relative path is taken against the current directory, and `.` and
/// `..` components are resolved lexically (symbolic links are kept: the parent named that path,
/// and `a.ics` and `./a.ics` are one source).
public enum LocalPath {
    /// `path` made absolute and standardised, e.g. `famille.ics` → `/home/x/famille.ics`.
    /// - Parameter directory: the folder a relative path is read against (default: the process's
    ///   current directory).
    public static func absolute(_ path: String, from directory: String = FileManager.default.currentDirectoryPath) -> String {
        let base = path.hasPrefix("/") ? path : directory + "/" + path
        return URL(fileURLWithPath: base).standardized.path
    }

    /// Why an existing `path` (followed through links) is not a regular file, or `nil` when it is
    /// one or does not exist: "a directory", "a device, a FIFO or a socket".
    public static func notARegularFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return tr("a directory, not a file")
        default: return tr("not a regular file (a device, a FIFO or a socket)")
        }
    }
}
