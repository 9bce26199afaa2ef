import DicteeCore
import Foundation
import Household
import Ingest
import Store
import Web

extension Dictee {
    /// `dictee source add PATH|URL`, `dictee source add caldav URL --user NAME`, `dictee source list
    /// [--json]`, `dictee source remove ID`: the calendars `dictee nightly` reads, kept in the
    /// configuration file (`Config.sources`).
    struct SourceCommand: Command {
        static let name = "source"
        static var summary: String { tr("summary.source") }
        static let options = OptionSpec(valued: ["user", "password-file", "ca-file"], flags: ["json", "insecure-http"])
        static var help: String { tr("help.source") }

        static let actions = ["add", "list", "remove"]
        static let example = "dictee source add ~/Documents/famille.ics"

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard let action = arguments.positionals.first, actions.contains(action) else {
                let given = arguments.positionals.first ?? ""
                var message = given.isEmpty ? tr("source needs an action: add, list or remove") : tr("unknown action '%@'", given)
                if !given.isEmpty, let near = NearestWord.find(given, in: actions) {
                    message += tr("; did you mean '%@'?", near)
                }
                throw CommandFailure(.usage, message, hint: example)
            }
            let rest = Array(arguments.positionals.dropFirst())
            if arguments.flags.contains("json"), action != "list" {
                throw CommandFailure(.usage, tr("--json goes with 'dictee source list'"))
            }
            let remoteOptions = ["user", "password-file", "ca-file"].filter { arguments.values[$0] != nil }
                + (arguments.flags.contains("insecure-http") ? ["insecure-http"] : [])
            if action != "add", let first = remoteOptions.first {
                throw CommandFailure(.usage, tr("--%@ goes with 'dictee source add'", first))
            }
            let path = Config.path(environment: context.environment)
            var config = try ConfigOptions.load(context)
            switch action {
            case "add":
                let source = try sourceToAdd(rest, arguments, context, config: config)
                if let index = config.sources.firstIndex(where: { $0.identity == source.identity }) {
                    guard config.sources[index] != source else {
                        output.line(tr("already added as source %ld: %@", index + 1, source.identity))
                        return .ok
                    }
                    // The same calendar with other options (a new password file, a CA file): updated.
                    config.sources[index] = source
                    do { try config.save(to: path) } catch { throw CommandFailure(HouseholdError.config(error)) }
                    output.line(tr("updated source %ld: %@", index + 1, "\(source)"))
                    return .ok
                }
                config.sources.append(source)
                do {
                    try config.save(to: path)
                } catch {
                    throw CommandFailure(HouseholdError.config(error))
                }
                output.line(tr("added source %ld: %@", config.sources.count, "\(source)"))
                return .ok
            case "remove":
                guard rest.count == 1 else {
                    throw CommandFailure(.usage, tr("source remove needs one source number"), hint: tr("run 'dictee source list' to see the numbers"))
                }
                guard let id = Int(rest[0]), config.sources.indices.contains(id - 1) else {
                    let range = config.sources.isEmpty ? tr("there is no source yet")
                        : config.sources.count == 1 ? tr("the only source is 1") : tr("the sources are 1 to %ld", config.sources.count)
                    throw .usage(tr("no source %@: %@", rest[0], range), hint: tr("run 'dictee source list' to see the numbers"))
                }
                let removed = config.sources.remove(at: id - 1)
                do {
                    try config.save(to: path)
                } catch {
                    throw CommandFailure(HouseholdError.config(error))
                }
                output.line(tr("removed source %ld: %@", id, "\(removed)"))
                // What was read from it goes too: its moments must not stay on the cards.
                if FileManager.default.fileExists(atPath: StateOptions.path(context)) {
                    let store = try StateOptions.open(context, create: false)
                    let forgotten: Int
                    do { forgotten = try store.forgetSource(removed.identity) } catch { throw CommandFailure(error) }
                    if forgotten > 0 {
                        output.line(Language.current.isSingular(forgotten)
                            ? tr("forgot the %ld occurrence read from it (its moments, and the dictations not yet served about them)", forgotten)
                            : tr("forgot the %ld occurrences read from it (its moments, and the dictations not yet served about them)", forgotten))
                    }
                }
                if id <= config.sources.count {
                    output.hint(tr("the sources after it are renumbered; run 'dictee source list'"))
                }
                return .ok
            default:
                guard rest.isEmpty else {
                    throw CommandFailure(.usage, tr("source list takes no argument"))
                }
                if arguments.flags.contains("json") {
                    let items = config.sources.enumerated().map { (k, source) -> String in
                        var fields: [(String, JSONWriter.Value)] = [("id", .int(k + 1)), ("kind", .string(kind(source)))]
                        switch source {
                        case .path(let path): fields.append(("path", .string(path)))
                        case .subscription(let remote): fields.append(("url", .string(remote.url)))
                        case .caldav(let remote):
                            fields.append(("url", .string(remote.url)))
                            fields.append(("user", .string(remote.user ?? "")))
                        }
                        return JSONWriter.object(fields)
                    }
                    output.line(JSONWriter.object([("sources", .raw("[" + items.joined(separator: ",") + "]"))]))
                    return .ok
                }
                if config.sources.isEmpty {
                    output.line(tr("no source yet"))
                    output.hint(example)
                    return .ok
                }
                for (k, source) in config.sources.enumerated() {
                    output.line("\(k + 1)  \(source)")
                    if case .path(let file) = source, let problem = SourceSetup.unreadablePath(file) {
                        output.warning(tr("source %ld: %@: %@", k + 1, file, problem))
                    }
                }
                return .ok
            }
        }

        /// `file`, `folder`, `subscription` or `caldav`, for `list --json`.
        static func kind(_ source: CalendarSource) -> String {
            switch source {
            case .path(let path):
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue ? "folder" : "file"
            case .subscription: return "subscription"
            case .caldav: return "caldav"
            }
        }

        /// The source `add` names, checked: a readable path, a subscription that answers with a
        /// calendar, or one CalDAV calendar of events.
        static func sourceToAdd(_ rest: [String], _ arguments: ParsedArguments, _ context: CommandContext,
                                config: Config) throws(CommandFailure) -> CalendarSource {
            let output = context.output
            let fetcher = Fetcher(proxy: config.proxy, notice: { output.warning($0) })
            let caFile = arguments.values["ca-file"].map { LocalPath.absolute($0) }
            let insecure = arguments.flags.contains("insecure-http")
            if rest.first == "caldav" {
                guard rest.count == 2, !rest[1].isEmpty else {
                    throw CommandFailure(.usage, tr("source add caldav needs one URL"), hint: "dictee source add caldav https://cloud.example.org/remote.php/dav --user anne")
                }
                guard let user = arguments.values["user"], !user.isEmpty else {
                    throw CommandFailure(.usage, tr("source add caldav needs --user NAME"), hint: tr("the password goes in a file (--password-file), DICTEE_CALDAV_PASSWORD or ~/.netrc"))
                }
                let url = try remoteURL(rest[1])
                let remote = CalendarSource.Remote(url: url, user: user, passwordFile: arguments.values["password-file"].map { LocalPath.absolute($0) },
                                                   caFile: caFile, insecureHTTP: insecure)
                let calendars = try household { () throws(HouseholdError) in
                    try SourceSetup.discover(remote, fetcher: fetcher, environment: context.environment)
                }
                let events = SourceSetup.eventCalendars(calendars)
                guard events.count == 1, let calendar = events.first else {
                    if events.isEmpty {
                        throw CommandFailure(.dataError, tr("%@: no calendar of events found there", url), hint: "dictee caldav discover \(url) --user \(user)")
                    }
                    output.line(tr("%@ leads to %ld calendars:", url, events.count))
                    CaldavCommand.renderCalendars(events, output)
                    throw CommandFailure(.usage, tr("several calendars: add the one you want by its address"),
                                         hint: "dictee source add caldav URL --user \(user)")
                }
                var chosen = remote
                chosen.url = calendar.url.absoluteString
                if remote.passwordFile == nil, context.environment["DICTEE_CALDAV_PASSWORD"].map({ !$0.isEmpty }) == true {
                    output.hint(tr("the password came from DICTEE_CALDAV_PASSWORD, which is not saved: 'dictee nightly' (cron) needs it too, or give --password-file FILE"))
                }
                return .caldav(chosen)
            }
            guard rest.count == 1, !rest[0].isEmpty else {
                throw CommandFailure(.usage, tr("source add needs one calendar file, folder or URL"), hint: example)
            }
            if CalendarSource.subscriptionURL(rest[0]) != nil || rest[0].contains("://") {
                if arguments.values["user"] != nil || arguments.values["password-file"] != nil {
                    throw CommandFailure(.usage, tr("--user and --password-file go with 'dictee source add caldav URL'"),
                                         hint: tr("a subscription address is secret by itself: it needs no user name"))
                }
                let url = try remoteURL(rest[0])
                if let parsed = URL(string: url), parsed.scheme == "http", !insecure, !Fetcher.isLoopback(parsed.host ?? "") {
                    throw CommandFailure(.usage, tr("plain http to %@ is refused (the calendar would travel in clear)", parsed.host ?? "?"),
                                         hint: tr("use the https:// address, or --insecure-http for a server on your own network"))
                }
                let remote = CalendarSource.Remote(url: url, caFile: caFile, insecureHTTP: insecure)
                let events = try household { () throws(HouseholdError) in try SourceSetup.checkSubscription(remote, fetcher: fetcher) }
                output.line(Language.current.isSingular(events)
                    ? tr("%@ answers with a calendar of %ld event", Subscription.display(URL(string: remote.url)!), events)
                    : tr("%@ answers with a calendar of %ld events", Subscription.display(URL(string: remote.url)!), events))
                return .subscription(remote)
            }
            if arguments.values["user"] != nil || arguments.values["password-file"] != nil {
                throw CommandFailure(.usage, tr("--user and --password-file go with 'dictee source add caldav URL'"))
            }
            let file = LocalPath.absolute(rest[0])
            let whatToGive = tr("give an exported .ics file, a folder of .ics files, an https:// address, or 'caldav URL --user NAME'")
            if let problem = SourceSetup.unreadablePath(file) {
                throw CommandFailure(.dataError, "\(file): \(problem)", hint: whatToGive)
            }
            // libical prints its own debugging notes on stderr; the reader reports what matters.
            let checked = StandardError.silenced {
                Result { () throws(IngestError) -> Int? in try SourceSetup.checkLocal(file) }
            }
            switch checked {
            case .success(nil):
                break
            case .success(let events?):
                output.line(Language.current.isSingular(events)
                    ? tr("%@ is a calendar of %ld event", file, events)
                    : tr("%@ is a calendar of %ld events", file, events))
            case .failure(let error):
                throw CommandFailure(.dataError, error.description, hint: whatToGive)
            }
            return .path(file)
        }

        /// A URL the configuration can keep: https (webcal read as https), or http; never with a
        /// user or password in it.
        static func remoteURL(_ text: String) throws(CommandFailure) -> String {
            if let url = URL(string: text), url.user != nil || url.password != nil {
                throw CommandFailure(.usage, tr("a user name or password never goes in an address"),
                                     hint: tr("for CalDAV: 'dictee source add caldav URL --user NAME --password-file FILE'; a subscription address needs neither"))
            }
            guard let url = Subscription.url(from: text), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                throw CommandFailure(.usage, tr("%@: not an https:// (or webcal://) address", TerminalText.sanitized(text)))
            }
            return url.absoluteString
        }
    }
}
