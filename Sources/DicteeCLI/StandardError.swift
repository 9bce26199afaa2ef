import Foundation

/// Keeps C libraries' own debugging output off the user's terminal.
enum StandardError {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var depth = 0
    nonisolated(unsafe) private static var saved: Int32 = -1
    /// Set by `DicteeCLI.main()` only: in-process runs (tests) keep their stderr untouched, so that
    /// a test runner's own reports are never swallowed.
    nonisolated(unsafe) static var silencesLibraries = false

    /// Runs `body` with file descriptor 2 pointed at /dev/null, then restores it. Only the CLI
    /// calls this (Docs/architecture.md rule 3: only DicteeCLI touches stderr), around library calls
    /// that report every problem through their results. Calls may overlap (tests run commands in
    /// parallel): the first one redirects, the last one restores.
    static func silenced<T>(_ body: () -> T) -> T {
        guard silencesLibraries else { return body() }
        lock.lock()
        if depth == 0 {
            let copy = dup(STDERR_FILENO)
            let null = open("/dev/null", O_WRONLY)
            if copy >= 0, null >= 0 {
                dup2(null, STDERR_FILENO)
                saved = copy
            } else if copy >= 0 {
                close(copy)
            }
            if null >= 0 { close(null) }
        }
        depth += 1
        lock.unlock()
        defer {
            lock.lock()
            depth -= 1
            if depth == 0, saved >= 0 {
                dup2(saved, STDERR_FILENO)
                close(saved)
                saved = -1
            }
            lock.unlock()
        }
        return body()
    }
}
