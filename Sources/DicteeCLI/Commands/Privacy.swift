import DicteeCore
import Foundation
import Household

extension Dictee {
    /// `dictee privacy [--json]`: what the current configuration sends where.
    ///
    /// Reads the configuration file only: never the state, never a calendar, so the report cannot
    /// carry a child's name or a calendar's text.
    struct Privacy: Command {
        static let name = "privacy"
        static var summary: String { tr("summary.privacy") }
        static let options = OptionSpec(valued: [], flags: ["json"])
        static var help: String { tr("help.privacy") }

        /// What one request to the model contains: the fields the request is written from
        /// (`Instructions.Inputs.contents`, through the route), never a second description.
        static var sends: [String] { ModelRoute.requestFields }

        /// `contents` (English, as `requestFields` lists them) as one sentence in the current
        /// language, with what a request never contains.
        static func sentence(_ contents: [String]) -> String {
            let said = contents.map(ModelRoute.forPeople)
            return tr("%@, and %@; never a calendar title, place or description",
                      said.dropLast().joined(separator: ", "), said.last ?? "")
        }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else {
                throw .usage(tr("privacy takes no argument"), hint: "dictee privacy")
            }
            let path = Config.path(environment: context.environment)
            let config = try ConfigOptions.load(context)
            let route = ModelRoute.resolve(config, configPath: path, environment: context.environment, clock: context.clock)
            let report = Report(route, config: config, configPath: path)
            if arguments.flags.contains("json") {
                output.line(JSONWriter.object([
                    ("config", .string(path)),
                    ("model", .string(report.model)),
                    ("endpoint", report.endpoint.map { .string($0) } ?? .null),
                    ("loopback", report.loopback.map { .bool($0) } ?? .null),
                    ("in_process", report.inProcess.map { .bool($0) } ?? .null),
                    ("allowed", .bool(report.allowed)),
                    ("egress_log", report.egressLog.map { .string($0) } ?? .null),
                    ("sends", .raw("[" + route.requestContents.map(JSONWriter.quoted).joined(separator: ",") + "]")),
                    ("fetches", .raw("[" + config.sources.compactMap { source -> String? in
                        guard let remote = source.remote else { return nil }
                        var isCalDAV = false
                        if case .caldav = source { isCalDAV = true }
                        return JSONWriter.object([
                            ("kind", .string(isCalDAV ? "caldav" : "subscription")),
                            ("host", .string(source.host ?? "")),
                            ("user", remote.user.map { .string($0) } ?? .null),
                            ("sends", .raw("[" + Language.$current.withValue(.english) { fetchSends(isCalDAV) }.map(JSONWriter.quoted).joined(separator: ",") + "]")),
                        ])
                    }.joined(separator: ",") + "]")),
                    ("proxy", config.proxy.map { .string($0) } ?? .null),
                ]))
                return .ok
            }
            for line in report.lines { output.line(line) }
            let count = config.sources.count
            output.line(count == 0
                ? tr("no calendar source is configured ('dictee source add PATH'); calendars are only ever read")
                : count == 1 ? tr("the calendar source (1, see 'dictee source list') is only read; calendar text is never sent")
                : tr("the calendar sources (%ld, see 'dictee source list') are only read; calendar text is never sent", count))
            for line in sourceLines(config) { output.line(line) }
            let exists = FileManager.default.fileExists(atPath: path)
            output.line(exists ? tr("configuration: %@", path) : tr("configuration: %@ (no file yet: the defaults)", path))
            return .ok
        }

        /// What a request for a remote calendar carries: the protocol, nothing from the state; in
        /// the current language (the JSON asks for it in English).
        static func fetchSends(_ isCalDAV: Bool) -> [String] {
            isCalDAV ? [tr("the request (method and address)"), tr("the user name and password"), tr("the sync token and the addresses of the events it asks for")]
                : [tr("the request (address)"), tr("the ETag and date of the copy read last time")]
        }

        /// One line per remote source: what is fetched from where, and that nothing about the
        /// children is sent; the proxy, when one is configured.
        static func sourceLines(_ config: Config) -> [String] {
            var lines: [String] = []
            for source in config.sources {
                switch source {
                case .path: continue
                case .subscription(let remote):
                    lines.append(tr("reads the calendar from %@ (a subscription, %@); sends only %@; nothing about your children",
                                    source.host ?? remote.url, URL(string: remote.url)?.scheme ?? "https",
                                    fetchSends(false).joined(separator: tr(" and "))))
                case .caldav(let remote):
                    lines.append(tr("reads the calendar from %@ as user %@ (CalDAV); sends only %@; nothing about your children",
                                    source.host ?? remote.url, remote.user ?? "?", fetchSends(true).joined(separator: ", ")))
                }
            }
            if !lines.isEmpty {
                lines.append(config.proxy.map { tr("calendar requests go through the proxy %@, as the configuration says", $0) }
                    ?? tr("no proxy is used (http_proxy and https_proxy are ignored); TLS certificates are verified; nothing else is contacted"))
            }
            return lines
        }

        /// The facts the text and the JSON both print, read off the route `dictee nightly` follows.
        struct Report {
            var model = "none"
            var endpoint: String?
            var loopback: Bool?
            /// Managed mode only: whether the model runs inside dictee (llama.cpp) rather than in
            /// the llama-cpp-python server.
            var inProcess: Bool?
            var allowed = true
            var egressLog: String?
            var lines: [String] = []

            init(_ route: ModelRoute, config: Config, configPath: String) {
                let sends = Privacy.sentence(route.requestContents)
                switch route {
                case .library:
                    lines.append(tr("nothing leaves this machine: no language model is configured; dictations come from the handwritten library"))
                case .managed(let gguf):
                    model = "managed"
                    loopback = true
                    inProcess = ModelRoute.runsInProcess(config)
                    if inProcess == true {
                        lines.append(tr("the model runs inside dictee (llama.cpp, in this process): no server, no network socket; nothing leaves this machine"))
                        lines.append(tr("model file: %@", gguf))
                        lines.append(tr("given to the model inside dictee: %@", sends))
                    } else {
                        lines.append(tr("the model runs on this machine (managed llama-cpp-python server on 127.0.0.1); nothing leaves this machine"))
                        lines.append(tr("model file: %@", gguf))
                        lines.append(tr("sent to the managed server on 127.0.0.1 (this machine): %@", sends))
                    }
                case .loopback(let endpoint):
                    model = "endpoint"
                    self.endpoint = config.model?.endpoint ?? endpoint.url.absoluteString
                    loopback = true
                    lines.append(tr("sent to %@ (this machine): %@", self.endpoint!, sends))
                case .remote(let endpoint):
                    model = "endpoint"
                    self.endpoint = config.model?.endpoint ?? endpoint.url.absoluteString
                    loopback = false
                    egressLog = endpoint.egressLog?.path
                    lines.append(tr("sent OUTSIDE this machine to %@: %@; every request body is appended to %@ before it is sent",
                                    self.endpoint!, sends, egressLog ?? "?"))
                    lines.append(tr("\"richer_texts\": true is set in %@; set it to false to keep everything on this machine", configPath))
                case .refused(let refusal):
                    model = "endpoint"
                    allowed = false
                    switch refusal {
                    case .notLoopback(let url, _):
                        endpoint = url
                        loopback = false
                        lines.append(tr("refused: %@ is not a loopback address; dictee will not send anything there unless \"richer_texts\": true is set in %@", url, configPath))
                    case .egressLogUnwritable(let url, let log, let problem):
                        endpoint = url
                        loopback = false
                        egressLog = log
                        lines.append(tr("refused: the egress log %@ cannot be written (%@); dictee will not send anything to %@ that it cannot log first", log, problem, url))
                    }
                    lines.append(tr("so nothing leaves this machine"))
                }
                if config.model?.endpoint != nil, let gguf = config.model?.gguf {
                    lines.append(tr("\"model.gguf\" (%@) is not used: \"model.endpoint\" is set and wins", gguf))
                }
            }
        }
    }
}
