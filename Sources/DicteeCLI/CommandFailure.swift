import DicteeCore
import Foundation
import Store
import Household
import Web

/// The one failure a command throws: its exit status, the message and what to do next. Caught in
/// one place, `DicteeCLI.run`, which prints `error: message` then `hint: hint` on stderr and
/// returns the status. Helpers return values and never print.
struct CommandFailure: Error, Sendable, Equatable {
    /// The exit status (sysexits style, `ExitCode`).
    var code: ExitCode
    /// One line, lower case, naming the file or the option; never calendar text.
    var message: String
    /// What to do next, or `nil`.
    var hint: String?

    init(_ code: ExitCode, _ message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }

    /// A usage error (64).
    static func usage(_ message: String, hint: String? = nil) -> CommandFailure {
        CommandFailure(.usage, message, hint: hint)
    }

    /// Bad input data (65).
    static func data(_ message: String, hint: String? = nil) -> CommandFailure {
        CommandFailure(.dataError, message, hint: hint)
    }

    /// A file that cannot be written (74): the audit file, the configuration, a page, the lock.
    static func cannotWrite(_ error: FileWriteError) -> CommandFailure {
        CommandFailure(.ioError, error.description)
    }

    /// The status and hint of an application-layer failure: the same event gets the same status
    /// in every command.
    init(_ error: HouseholdError) {
        switch error {
        case .state(let state): self = CommandFailure(state)
        case .noState:
            self.init(.dataError, error.description, hint: tr("run 'dictee ingest FILE' first, or give --state PATH"))
        case .config(let config):
            var hint: String?
            if case .unknownKey(_, _, _, let known) = config {
                hint = tr("the known keys here are %@", known.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            if case .cannotWrite = config {
                self.init(.ioError, error.description)
            } else {
                self.init(.dataError, error.description, hint: hint)
            }
        case .cannotWrite(let write): self = .cannotWrite(write)
        case .lockHeld: self.init(.temporaryFailure, error.description)
        case .lexiconMissing:
            self.init(.unavailable, error.description,
                      hint: tr("run Scripts/setup in the checkout, set DICTEE_LEXICON to the file, or copy it to ~/.local/share/dictee/lexique-3.83.bin"))
        case .validatorUnavailable: self.init(.unavailable, error.description)
        case .grammarCheckFailing:
            self.init(.unavailable, error.description,
                      hint: tr("check that '/usr/bin/python3 -c \"import grammalecte\"' runs; reinstall with apt-get install python3-grammalecte"))
        case .brokenLibrary: self.init(.internalError, error.description)
        case .unknownChild(let hasChildren):
            self.init(.usage, error.description,
                      hint: hasChildren ? tr("see 'dictee child list'")
                          : "dictee child add Léa --gender f --grade CE1")
        case .fetch(let fetch):
            self.init(ExitCode(rawValue: fetch.exitCode), error.description, hint: fetch.hint)
        case .password:
            self.init(.noPermission, error.description,
                      hint: tr("put the password alone on the first line of that file (chmod 600)"))
        case .noPassword(_, let host):
            self.init(.noPermission, error.description,
                      hint: tr("give --password-file FILE (kept in the configuration: cron finds it too), or a ~/.netrc line 'machine %@ login NAME password PW', or set DICTEE_CALDAV_PASSWORD", host))
        }
    }

    /// A state error: 75 when another command holds the database, 74 when it cannot be written,
    /// 70 for the store itself (e.g. not a dictee database), 64 for an unknown id, 65 for a
    /// refused step.
    init(_ error: StateError) {
        // The disk is full, read-only or failing: "cannot write" (74), never the SQL.
        if case .store(let store) = error, let why = store.writeProblem {
            self.init(.ioError, tr("%@: cannot write the database (%@)", store.path, "\(why)"))
            return
        }
        if case .store(.locked) = error {
            self.init(.temporaryFailure, error.description, hint: tr("another dictee command is writing the state; try again in a moment"))
            return
        }
        let code: ExitCode = switch error {
        case .store, .invalidRule: .internalError
        case .unknownChild, .unknownSuggestion: .usage
        case .childExists, .suggestionNotPending, .suggestionNot: .dataError
        case .dictation(let e):
            switch e {
            case .unknownDictation, .noCard, .siteOutOfRange: .usage
            case .notServed, .alreadyGraded, .retired: .dataError
            }
        }
        var hint: String?
        if case .dictation(.unknownDictation) = error { hint = tr("a dictation's id is what 'dictee pick' printed") }
        if case .unknownSuggestion = error { hint = tr("the ids are the first column of 'dictee suggestions list --all'") }
        if case .suggestionNotPending(_, let status) = error {
            hint = status == "labeled" ? tr("take the label back first: dictee suggestions unlabel ID")
                : tr("put it back in the queue first: dictee suggestions unreject ID")
        }
        self.init(code, error.description, hint: hint)
    }
}
