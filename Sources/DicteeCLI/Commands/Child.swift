import DicteeCore
import Foundation
import Household
import PrivacyFilter
import Store

extension Dictee {
    /// `dictee child add|set|rename|remove|list`: the children's records (issue 16).
    ///
    /// `add NAME --gender f|m --grade G`; `set NAME [--grade G] [--gender f|m]` (the ready texts
    /// are retired and planned again); `rename OLD NEW` (served texts keep the old name, ready
    /// ones naming it are retired); `remove NAME [--yes]` (every row about the child, then
    /// `VACUUM`; asks on a terminal); `list [--json]` with the dictations served and ready. The
    /// writes are `StateStore`'s (`Store/Children.swift`); this type parses and renders.
    struct ChildCommand: Command {
        static let name = "child"
        static var summary: String { tr("add, change, rename, remove or list the children") }
        static let options = OptionSpec(valued: ["gender", "grade"], flags: ["json", "yes"])
        static var help: String { tr("help.child") }
        static let actions = ["add", "set", "rename", "remove", "list"]
        static let addExample = "dictee child add Léa --gender f --grade CE1"

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            guard let action = arguments.positionals.first, actions.contains(action) else {
                let given = arguments.positionals.first ?? ""
                if given.isEmpty {
                    throw CommandFailure(.usage, tr("child needs an action: add, set, rename, remove or list"), hint: addExample)
                }
                if let near = NearestWord.find(given, in: actions) {
                    throw CommandFailure(.usage, tr("unknown action '%@'; did you mean '%@'?", given, near), hint: addExample)
                }
                throw CommandFailure(.usage, tr("unknown action '%@'", given), hint: addExample)
            }
            let names = Array(arguments.positionals.dropFirst())
            switch action {
            case "add": return try add(names, arguments, context)
            case "set": return try set(names, arguments, context)
            case "rename": return try rename(names, context)
            case "remove": return try remove(names, arguments, context)
            default: return try list(arguments, context)
            }
        }

        // MARK: add

        static func add(_ names: [String], _ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            guard names.count == 1 else {
                throw CommandFailure(.usage, tr("child add needs one first name"), hint: addExample)
            }
            let name = try firstName(names[0])
            guard let gender = arguments.values["gender"].flatMap({ Gender(rawValue: $0.lowercased()) }) else {
                throw CommandFailure(.usage, tr("child add needs --gender f or --gender m"))
            }
            guard let grade = arguments.values["grade"].flatMap(Grade.init(parsing:)) else {
                throw CommandFailure(.usage, tr("child add needs --grade CP, CE1, CE2, CM1 or CM2"))
            }
            let store = try StateOptions.open(context)
            do {
                try store.addChild(Child(firstName: name, gender: gender, grade: grade))
            } catch {
                throw failure(error)
            }
            context.output.line(tr("added %@ (%@, %@)", name, gender.rawValue, grade.rawValue))
            return .ok
        }

        /// The name as stored (normalised), refused unless the privacy filter takes it for a first name.
        static func firstName(_ typed: String) throws(CommandFailure) -> String {
            let name = PrivacyFilter.normalisedLabel(typed)
            guard PrivacyFilter().acceptsName(name) else {
                throw .usage(tr("'%@' is not a first name: a capital letter, letters only, at most one hyphen, 2 to 20 letters, not a word of the disqualifier list", name))
            }
            return name
        }

        // MARK: set

        static func set(_ names: [String], _ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let example = "dictee child set Léa --grade CE2"
            guard names.count == 1 else {
                throw CommandFailure(.usage, tr("child set needs one first name"), hint: example)
            }
            var grade: Grade?, gender: Gender?
            if let text = arguments.values["grade"] {
                guard let parsed = Grade(parsing: text) else {
                    throw CommandFailure(.usage, tr("--grade must be CP, CE1, CE2, CM1 or CM2"), hint: example)
                }
                grade = parsed
            }
            if let text = arguments.values["gender"] {
                guard let parsed = Gender(rawValue: text.lowercased()) else {
                    throw CommandFailure(.usage, tr("--gender must be f or m"), hint: example)
                }
                gender = parsed
            }
            guard grade != nil || gender != nil else {
                throw CommandFailure(.usage, tr("child set needs --grade, --gender or both"), hint: example)
            }
            let store = try StateOptions.open(context, create: false)
            let child = try find(names[0], store)
            let retired: Int
            do {
                retired = try store.updateChild(id: child.id ?? 0, grade: grade, gender: gender)
            } catch {
                throw failure(error)
            }
            let now = Child(id: child.id, firstName: child.firstName, gender: gender ?? child.gender, grade: grade ?? child.grade)
            if now == child {
                context.output.line(tr("nothing changed: %@ is already %@ (%@)", child.firstName, child.grade.rawValue, child.gender.rawValue))
                return .ok
            }
            context.output.line(tr("%@ is now %@ (%@)", now.firstName, now.grade.rawValue, now.gender.rawValue))
            if retired > 0 {
                let gradeChanged = now.grade != child.grade, genderChanged = now.gender != child.gender
                let why = gradeChanged && genderChanged ? tr("the old grade and gender")
                    : gradeChanged ? tr("the old grade") : tr("the old gender")
                context.output.line(Language.current.isSingular(retired)
                    ? tr("%ld ready dictation, written for %@, was set aside", retired, why)
                    : tr("%ld ready dictations, written for %@, were set aside", retired, why))
            }
            context.output.hint(tr("the next 'dictee nightly' or 'dictee cards --child %@' plans new ones for %@", now.firstName, now.grade.rawValue))
            return .ok
        }

        // MARK: rename

        static func rename(_ names: [String], _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let example = "dictee child rename Lea Léa"
            guard names.count == 2 else {
                throw CommandFailure(.usage, tr("child rename needs the old and the new first name"), hint: example)
            }
            let store = try StateOptions.open(context, create: false)
            let child = try find(names[0], store)
            let newName = try firstName(names[1])
            guard newName != child.firstName else {
                context.output.line(tr("%@ already has this first name; nothing changed", child.firstName))
                return .ok
            }
            let retired: Int, namedByTitle: Int
            do {
                namedByTitle = try store.eventsReadByName(childID: child.id ?? 0, name: child.firstName)
                retired = try store.renameChild(id: child.id ?? 0, to: newName)
            } catch {
                throw failure(error)
            }
            context.output.line(tr("renamed %@ to %@", child.firstName, newName))
            if retired > 0 {
                context.output.line(Language.current.isSingular(retired)
                    ? tr("%ld ready dictation with the old name was set aside; new ones are planned with the new name", retired)
                    : tr("%ld ready dictations with the old name were set aside; new ones are planned with the new name", retired))
            }
            context.output.line(tr("dictations already served keep the name they were written with"))
            // The calendar may still say the old name: from the next ingest such a title is no
            // longer read as this child's ("Judo Hugo" becomes the family's). The state keeps no
            // title, so this is said when the child has moments read from titles at all; a change
            // of accents or case only is read as before (names are matched folded).
            if namedByTitle > 0, LooseMatch.fold(newName) != LooseMatch.fold(child.firstName) {
                context.output.warning(tr("if titles in the calendar say '%@' (e.g. \"Judo %@\"), rename them there too: from the next ingest such a title is no longer read as %@'s", child.firstName, child.firstName, newName))
                context.output.hint(tr("to undo: dictee child rename %@ %@", newName, child.firstName))
            }
            return .ok
        }

        // MARK: remove

        static func remove(_ names: [String], _ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard names.count == 1 else {
                throw CommandFailure(.usage, tr("child remove needs one first name"), hint: "dictee child remove Léa --yes")
            }
            let store = try StateOptions.open(context, create: false)
            let child = try find(names[0], store)
            if !arguments.flags.contains("yes") {
                guard context.isInteractive else {
                    throw CommandFailure(.usage, tr("child remove erases records for good: run it on a terminal to confirm, or add --yes"),
                                         hint: "dictee child remove \(child.firstName) --yes")
                }
                let count: Int
                do { count = try store.childSummaries().first { $0.child.id == child.id }.map { $0.served + $0.ready } ?? 0 } catch {
                    throw failure(error)
                }
                output.write(tr("erase %@ and every record about them (dictations served or ready: %ld; the skills; the labels given for them)? This cannot be undone. [y/n] ",
                                child.firstName, count))
                // Yes in either language ("y", "o"); anything else, or the end of input, keeps all.
                let typed = context.readLine()
                let reply = typed?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
                guard ["y", "yes", "o", "oui"].contains(reply) else {
                    if typed == nil { output.line("") }
                    output.line(tr("nothing removed"))
                    return .ok
                }
            }
            let removal: ChildRemoval
            do {
                removal = try store.removeChild(id: child.id ?? 0)
            } catch {
                throw failure(error)
            }
            output.line(tr("removed %@ (dictations: %ld, stored moments: %ld, labels taken back: %ld; those events wait for a label again)",
                           child.firstName, removal.dictations, removal.moments, removal.labels))
            output.line(removal.walTruncated
                ? tr("the database was compacted (VACUUM): nothing of it remains in the file's free pages")
                : tr("the database was compacted (VACUUM); its log could not be emptied now (another dictee is reading it) and will be at the next run"))
            if removal.keptInOthersHistory > 0 {
                output.warning(tr("rows of the other children's served dictations that still hold the name, kept as their history: %ld", removal.keptInOthersHistory))
            }
            output.hint(tr("the audit file beside the state keeps the name until the next 'dictee nightly'; a calendar that still names the child is read as it is"))
            return .ok
        }

        // MARK: list

        static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            let store = try StateOptions.open(context, create: false)
            let summaries: [ChildSummary]
            do { summaries = try store.childSummaries() } catch { throw failure(error) }
            if arguments.flags.contains("json") {
                output.line("[" + summaries.map { s in
                    JSONWriter.object([
                        ("id", .int(Int(s.child.id ?? 0))), ("first_name", .string(s.child.firstName)),
                        ("gender", .string(s.child.gender.rawValue)), ("grade", .string(s.child.grade.rawValue)),
                        ("served", .int(s.served)), ("ready", .int(s.ready)),
                    ])
                }.joined(separator: ",") + "]")
            } else if summaries.isEmpty {
                output.line(tr("no child yet"))
                output.hint(addExample)
            } else {
                for s in summaries {
                    // The number is how the cron log names a child (never by name).
                    output.line("\(String(s.child.id ?? 0).leftPad(3))  \(s.child.firstName.padding(toLength: 20, withPad: " ", startingAt: 0)) "
                                + "\(s.child.gender.rawValue)  \(s.child.grade.rawValue.padding(toLength: 3, withPad: " ", startingAt: 0))  "
                                + tr("%ld served, %ld ready", s.served, s.ready))
                }
            }
            return .ok
        }

        // MARK: shared

        /// The stored child `typed` names (`Desk.child(named:)`: any case, accents optional).
        /// - Throws: a usage failure naming what was typed (the parent's own word, on the
        ///   parent's terminal), with the nearest child's name or the list.
        static func find(_ typed: String, _ store: StateStore) throws(CommandFailure) -> Child {
            do {
                return try Desk.child(named: typed, store)
            } catch {
                guard case .unknownChild = error else { throw CommandFailure(error) }
                let known = ((try? store.children()) ?? []).map(\.firstName)
                let hint: String
                if known.isEmpty {
                    hint = addExample
                } else if let near = NearestWord.find(typed, in: known) {
                    hint = tr("did you mean '%@'?", near)
                } else {
                    hint = tr("the children are: %@", known.joined(separator: ", "))
                }
                throw CommandFailure(.usage, tr("no child named '%@'", TerminalText.sanitized(typed)), hint: hint)
            }
        }

        /// A store refusal in the language of the run (the store's own texts are English).
        static func failure(_ error: StateError) -> CommandFailure {
            switch error {
            case .childExists: CommandFailure(.dataError, tr("a child with this first name already exists"),
                                              hint: tr("see 'dictee child list'"))
            case .unknownChild: CommandFailure(.usage, tr("no child with this first name"), hint: tr("see 'dictee child list'"))
            default: CommandFailure(error)
            }
        }
    }
}
