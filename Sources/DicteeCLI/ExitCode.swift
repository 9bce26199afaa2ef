/// Process exit statuses, in the sysexits style (Docs/style.md, Command-line tool).
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: everything went well.
    public static let ok = ExitCode(rawValue: 0)
    /// 1: finished, but some items had errors (the rest was processed).
    public static let itemErrors = ExitCode(rawValue: 1)
    /// 64 (EX_USAGE): the command line is wrong.
    public static let usage = ExitCode(rawValue: 64)
    /// 65 (EX_DATAERR): an input file is unreadable or not of the expected kind.
    public static let dataError = ExitCode(rawValue: 65)
    /// 69 (EX_UNAVAILABLE): a needed service is unavailable.
    public static let unavailable = ExitCode(rawValue: 69)
    /// 77 (EX_NOPERM): the server refused the credentials, or the password cannot be read.
    public static let noPermission = ExitCode(rawValue: 77)
    /// 70 (EX_SOFTWARE): an internal error.
    public static let internalError = ExitCode(rawValue: 70)
    /// 74 (EX_IOERR): the output could not be written.
    public static let ioError = ExitCode(rawValue: 74)
    /// 75 (EX_TEMPFAIL): try again later (another run holds the lock).
    public static let temporaryFailure = ExitCode(rawValue: 75)

    public var description: String { String(rawValue) }
}
extension ExitCode: Error {}
