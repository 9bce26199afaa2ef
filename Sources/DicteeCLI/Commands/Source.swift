import DicteeCore
import Foundation
import Household

extension Dictee {
    /// `dictee source add PATH`, `dictee source list [--json]`, `dictee source remove ID`: the
    /// calendar files `dictee nightly` reads, kept in the configuration file (`Config.sources`).
    struct SourceCommand: Command {
        static let name = "source"
        static let summary = "add, list or remove the calendar files read by 'dictee nightly'"
        static let options = OptionSpec(valued: [], flags: ["json"])
        static let help = """
            usage: dictee source add PATH
                   dictee source list [--json]
                   dictee source remove ID

            The calendar files (.ics) that 'dictee nightly' reads, kept in the configuration
            file ($DICTEE_CONFIG, else $XDG_CONFIG_HOME/dictee/config.json, else
            ~/.config/dictee/config.json). A relative PATH is made absolute; the file must
            exist and be readable. ID is the number 'dictee source list' shows; removing a
            source renumbers the ones after it. The calendars are only read, on this machine.

            list --json prints {"sources":[{"id":1,"path":"..."}]}.

            example:
              dictee source add ~/Documents/famille.ics
              dictee source list

            """

        static let actions = ["add", "list", "remove"]
        static let example = "dictee source add ~/Documents/famille.ics"

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard let action = arguments.positionals.first, actions.contains(action) else {
                let given = arguments.positionals.first ?? ""
                var message = given.isEmpty ? "source needs an action: add, list or remove" : "unknown action '\(given)'"
                if !given.isEmpty, let near = NearestWord.find(given, in: actions) {
                    message += "; did you mean '\(near)'?"
                }
                throw CommandFailure(.usage, message, hint: example)
            }
            let rest = Array(arguments.positionals.dropFirst())
            if arguments.flags.contains("json"), action != "list" {
                throw CommandFailure(.usage, "--json goes with 'dictee source list'")
            }
            let path = Config.path(environment: context.environment)
            var config = try ConfigOptions.load(context)
            switch action {
            case "add":
                guard rest.count == 1, !rest[0].isEmpty else {
                    throw CommandFailure(.usage, "source add needs one calendar file", hint: example)
                }
                let file = LocalPath.absolute(rest[0])
                if let problem = unreadable(file) {
                    throw CommandFailure(.dataError, "\(file): \(problem)", hint: "give the path of an exported .ics calendar file")
                }
                if let index = config.sources.firstIndex(of: file) {
                    output.line("already added as source \(index + 1): \(file)")
                    return .ok
                }
                config.sources.append(file)
                do {
                    try config.save(to: path)
                } catch {
                    throw CommandFailure(HouseholdError.config(error))
                }
                output.line("added source \(config.sources.count): \(file)")
                return .ok
            case "remove":
                guard rest.count == 1 else {
                    throw CommandFailure(.usage, "source remove needs one source number", hint: "run 'dictee source list' to see the numbers")
                }
                guard let id = Int(rest[0]), config.sources.indices.contains(id - 1) else {
                    let range = config.sources.isEmpty ? "there is no source yet"
                        : config.sources.count == 1 ? "the only source is 1" : "the sources are 1 to \(config.sources.count)"
                    throw .usage("no source \(rest[0]): \(range)", hint: "run 'dictee source list' to see the numbers")
                }
                let removed = config.sources.remove(at: id - 1)
                do {
                    try config.save(to: path)
                } catch {
                    throw CommandFailure(HouseholdError.config(error))
                }
                output.line("removed source \(id): \(removed)")
                if id <= config.sources.count {
                    output.hint("the sources after it are renumbered; run 'dictee source list'")
                }
                return .ok
            default:
                guard rest.isEmpty else {
                    throw CommandFailure(.usage, "source list takes no argument")
                }
                if arguments.flags.contains("json") {
                    let items = config.sources.enumerated().map {
                        JSONWriter.object([("id", .int($0.offset + 1)), ("path", .string($0.element))])
                    }
                    output.line(JSONWriter.object([("sources", .raw("[" + items.joined(separator: ",") + "]"))]))
                    return .ok
                }
                if config.sources.isEmpty {
                    output.line("no source yet")
                    output.hint(example)
                    return .ok
                }
                for (k, file) in config.sources.enumerated() {
                    output.line("\(k + 1)  \(file)")
                    if let problem = unreadable(file) {
                        output.warning("source \(k + 1): \(file): \(problem)")
                    }
                }
                return .ok
            }
        }

        /// Why `path` cannot serve as a calendar source, or `nil` when it is a readable regular file.
        static func unreadable(_ path: String) -> String? {
            var info = stat()
            guard stat(path, &info) == 0 else {
                return errno == ENOENT || errno == ENOTDIR ? "no such file" : String(cString: strerror(errno)).lowercased()
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                return info.st_mode & S_IFMT == S_IFDIR ? "a directory, not a calendar file" : "not a regular file"
            }
            guard access(path, R_OK) == 0 else { return "not readable (permissions?)" }
            return nil
        }
    }
}
