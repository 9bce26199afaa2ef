import DicteeCore
import Foundation
import Household
import Web

extension Dictee {
    /// `dictee caldav discover URL --user NAME`: the calendars a CalDAV address leads to (RFC 6764
    /// discovery: well-known URI, current-user-principal, calendar-home-set).
    struct CaldavCommand: Command {
        static let name = "caldav"
        static var summary: String { tr("summary.caldav") }
        static let options = OptionSpec(valued: ["user", "password-file", "ca-file"], flags: ["json", "insecure-http"])
        static var help: String { tr("help.caldav") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            let example = "dictee caldav discover https://cloud.example.org --user anne"
            guard arguments.positionals.first == "discover" else {
                throw CommandFailure(.usage, arguments.positionals.isEmpty ? tr("caldav needs an action: discover") : tr("unknown action '%@'", arguments.positionals[0]),
                                     hint: example)
            }
            guard arguments.positionals.count == 2 else { throw CommandFailure(.usage, tr("caldav discover needs one URL"), hint: example) }
            guard let user = arguments.values["user"], !user.isEmpty else {
                throw CommandFailure(.usage, tr("caldav discover needs --user NAME"), hint: example)
            }
            let config = try ConfigOptions.load(context)
            let remote = CalendarSource.Remote(
                url: try SourceCommand.remoteURL(arguments.positionals[1]), user: user,
                passwordFile: arguments.values["password-file"].map { LocalPath.absolute($0) },
                caFile: arguments.values["ca-file"].map { LocalPath.absolute($0) },
                insecureHTTP: arguments.flags.contains("insecure-http"))
            let fetcher = Fetcher(proxy: config.proxy, notice: { output.warning($0) })
            let calendars = try household { () throws(HouseholdError) in
                try SourceSetup.discover(remote, fetcher: fetcher, environment: context.environment)
            }
            if arguments.flags.contains("json") {
                let items = calendars.map { c in
                    JSONWriter.object([
                        ("url", .string(c.url.absoluteString)), ("name", c.displayName.map { .string($0) } ?? .null),
                        ("components", .raw("[" + c.components.map(JSONWriter.quoted).joined(separator: ",") + "]")),
                        ("sync", .bool(c.supportsSync)),
                    ])
                }
                output.line(JSONWriter.object([("calendars", .raw("[" + items.joined(separator: ",") + "]"))]))
                return .ok
            }
            if calendars.isEmpty {
                output.line(tr("no calendar found"))
                return .ok
            }
            renderCalendars(calendars, output)
            output.hint("dictee source add caldav ADDRESS --user \(user)")
            return .ok
        }

        /// One line per calendar: address, name (sanitized for the terminal), what it holds.
        static func renderCalendars(_ calendars: [CalDAVCalendar], _ output: OutputSink) {
            for c in calendars {
                let holds = c.components.isEmpty ? tr("events and tasks") : c.components.joined(separator: ", ")
                let name = c.displayName.map { "\"" + TerminalText.sanitized($0) + "\"" } ?? tr("(no name)")
                let tasksOnly = !SourceSetup.holdsEvents(c)
                output.line("  \(c.url.absoluteString)  \(name)  \(holds)" + (tasksOnly ? "  " + tr("(tasks only: skipped)") : ""))
            }
        }
    }
}
