import DicteeCore
import Foundation
import Household
import Web

extension Dictee {
    /// `dictee caldav discover URL --user NAME`: the calendars a CalDAV address leads to (RFC 6764
    /// discovery: well-known URI, current-user-principal, calendar-home-set).
    struct CaldavCommand: Command {
        static let name = "caldav"
        static let summary = "list the calendars of a CalDAV account (to choose one for 'dictee source add caldav')"
        static let options = OptionSpec(valued: ["user", "password-file", "ca-file"], flags: ["json", "insecure-http"])
        static let help = """
            usage: dictee caldav discover URL --user NAME [--password-file FILE] [--ca-file PEM] [--insecure-http] [--json]

            Lists the calendars a CalDAV address leads to: URL may be the server
            (https://cloud.example.org, https://caldav.icloud.com), its /.well-known/caldav, the
            account (principal) or the calendar home. For each: its address, its name, and what
            it holds (VEVENT: events; a calendar holding only VTODO, tasks, is marked "tasks only: skipped" and
            'source add' leaves it out). Then add one with 'dictee source add caldav ADDRESS --user NAME'.

            The password: --password-file FILE (its first line), else DICTEE_CALDAV_PASSWORD,
            else ~/.netrc. Never on the command line.

            Exit status: 0 listed, 77 the user name or password is refused, 69 the server cannot
            be reached (or its certificate is not trusted: --ca-file), 65 the answer is not CalDAV.

            --json prints {"calendars":[{"url","name","components":["VEVENT"],"sync":true}]}.

            example:
              dictee caldav discover https://cloud.example.org --user anne --password-file ~/.config/dictee/nextcloud

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            let example = "dictee caldav discover https://cloud.example.org --user anne"
            guard arguments.positionals.first == "discover" else {
                throw CommandFailure(.usage, arguments.positionals.isEmpty ? "caldav needs an action: discover" : "unknown action '\(arguments.positionals[0])'",
                                     hint: example)
            }
            guard arguments.positionals.count == 2 else { throw CommandFailure(.usage, "caldav discover needs one URL", hint: example) }
            guard let user = arguments.values["user"], !user.isEmpty else {
                throw CommandFailure(.usage, "caldav discover needs --user NAME", hint: example)
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
                output.line("no calendar found")
                return .ok
            }
            renderCalendars(calendars, output)
            output.hint("dictee source add caldav ADDRESS --user \(user)")
            return .ok
        }

        /// One line per calendar: address, name (sanitized for the terminal), what it holds.
        static func renderCalendars(_ calendars: [CalDAVCalendar], _ output: OutputSink) {
            for c in calendars {
                let holds = c.components.isEmpty ? "events and tasks" : c.components.joined(separator: ", ")
                let name = c.displayName.map { "\"" + TerminalText.sanitized($0) + "\"" } ?? "(no name)"
                let tasksOnly = !SourceSetup.holdsEvents(c)
                output.line("  \(c.url.absoluteString)  \(name)  \(holds)" + (tasksOnly ? "  (tasks only: skipped)" : ""))
            }
        }
    }
}
