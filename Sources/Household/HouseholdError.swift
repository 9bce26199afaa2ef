import DicteeCore
import Foundation
import Store
import Web

/// Why a job of the application layer could not be done. One enum for the layer; each case
/// carries its data, and the command-line front end maps each case to one exit status and hint
/// (the same event gets the same status everywhere).
///
/// Messages are lower case, name the file, and never carry calendar text or a child's name.
public enum HouseholdError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The state could not be read or written, or refused a step (`StateError` says which).
    case state(StateError)
    /// A command that only reads found no state at `path`.
    case noState(path: String)
    /// The configuration file is unreadable or invalid (`ConfigError` names the file and key).
    case config(ConfigError)
    /// A file could not be written (the audit file, the configuration, a page, the state's
    /// folder, the lock).
    case cannotWrite(FileWriteError)
    /// Another `dictee nightly` holds the lock (`holder`: "pid 123, started …", or empty).
    case lockHeld(holder: String, lock: String)
    /// The Lexique 3.83 table was not found where `Lexicon.locate` looks.
    case lexiconMissing
    /// The Lexique table or Hunspell's French dictionary could not be loaded.
    case validatorUnavailable(String)
    /// No handwritten text passed the validator for `moments` moments that have texts: the
    /// grammar check itself is failing.
    case grammarCheckFailing(moments: Int)
    /// The bundled handwritten library cannot be read (a broken installation).
    case brokenLibrary
    /// No child has this first name (the name itself is not repeated).
    case unknownChild(hasChildren: Bool)
    /// A calendar source could not be fetched (`FetchError` names the URL, never a password).
    case fetch(FetchError)
    /// The CalDAV password file named in the configuration cannot be read.
    case password(path: String, reason: String)
    /// No CalDAV password anywhere (password file, `DICTEE_CALDAV_PASSWORD`, `~/.netrc`).
    case noPassword(user: String, host: String)

    public var description: String {
        switch self {
        case .state(let error): error.description
        case .noState(let path): tr("%@: no state yet", path)
        case .config(let error): error.description
        case .cannotWrite(let error): error.description
        case .lockHeld(let holder, let lock):
            tr("another 'dictee nightly' is running (%@); lock: %@", Self.describeHolder(holder), lock)
        case .lexiconMissing: tr("the Lexique 3.83 table is not installed (Data/lexique-3.83.bin)")
        case .validatorUnavailable(let reason): reason
        case .grammarCheckFailing(let moments):
            tr("no handwritten text passed the validator for %ld moment(s) that have texts: the grammar check (Grammalecte) is probably failing", moments)
        case .brokenLibrary: tr("the handwritten library cannot be read (a broken installation)")
        case .unknownChild: tr("no child with this first name")
        case .fetch(let error): error.description
        case .password(let path, let reason): tr("%@: cannot read the CalDAV password (%@)", path, reason)
        case .noPassword(let user, let host): tr("no CalDAV password found for user %@ on %@: nothing was sent", TerminalText.sanitized(user), host)
        }
    }
}

extension HouseholdError {
    /// The lock file's "pid 123, started 2026-12-03T10:09:56Z" in the run's language; any other
    /// content as it is, none as "holder unknown".
    static func describeHolder(_ holder: String) -> String {
        guard !holder.isEmpty else { return tr("holder unknown") }
        let parts = holder.split(separator: " ")
        guard parts.count == 4, parts[0] == "pid", parts[1].hasSuffix(","), parts[2] == "started" else { return holder }
        return tr("pid %@, started %@", String(parts[1].dropLast()), String(parts[3]))
    }
}
