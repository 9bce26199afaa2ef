import Foundation

/// Keeps C libraries' own debugging output off the user's terminal.
enum StandardError {
    /// Runs `body` with file descriptor 2 pointed at /dev/null, then restores it. Only the CLI
    /// calls this (ARCHITECTURE.md rule 3: only DicteeCLI touches stderr), around library calls
    /// that report every problem through their results; nothing of ours is written meanwhile.
    static func silenced<T>(_ body: () -> T) -> T {
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY)
        guard saved >= 0, null >= 0 else {
            if saved >= 0 { close(saved) }
            if null >= 0 { close(null) }
            return body()
        }
        dup2(null, STDERR_FILENO)
        close(null)
        defer {
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
        return body()
    }
}
