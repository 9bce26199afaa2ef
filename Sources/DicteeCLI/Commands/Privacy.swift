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
        static let summary = "say exactly what the configuration sends where (nothing, by default)"
        static let options = OptionSpec(valued: [], flags: ["json"])
        static let help = """
            usage: dictee privacy [--json]

            Reads the configuration file ($DICTEE_CONFIG, else $XDG_CONFIG_HOME/dictee/config.json,
            else ~/.config/dictee/config.json) and says what leaves this machine:
              - no "model": nothing; the dictations come from the handwritten library;
              - "model": {"gguf": ...}: a server dictee starts on 127.0.0.1; nothing leaves;
              - "model": {"endpoint": ...} on this machine (localhost, 127.x.x.x, [::1]): sent
                there, and nothing leaves;
              - any other endpoint: refused, unless "richer_texts": true is set; then every
                request body is appended to the egress log before it is sent.
            A request contains only what the audit file lists; never a calendar title, place or
            description. The calendar sources are only read. Exits 0 in every case (it is a
            report), 65 when the configuration file is invalid.

            --json prints {"config", "model": "none"|"managed"|"endpoint", "endpoint",
            "loopback", "allowed", "egress_log", "sends"}.

            example:
              dictee privacy

            """

        /// What one request to the model contains: the fields the request is written from
        /// (`Instructions.Inputs.contents`, through the route), never a second description.
        static var sends: [String] { ModelRoute.requestFields }

        /// `contents` as one sentence, with what a request never contains.
        static func sentence(_ contents: [String]) -> String {
            contents.dropLast().joined(separator: ", ") + ", and " + (contents.last ?? "")
                + "; never a calendar title, place or description"
        }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else {
                throw .usage("privacy takes no argument", hint: "dictee privacy")
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
                            ("sends", .raw("[" + fetchSends(isCalDAV).map(JSONWriter.quoted).joined(separator: ",") + "]")),
                        ])
                    }.joined(separator: ",") + "]")),
                    ("proxy", config.proxy.map { .string($0) } ?? .null),
                ]))
                return .ok
            }
            for line in report.lines { output.line(line) }
            let count = config.sources.count
            output.line(count == 0
                ? "no calendar source is configured ('dictee source add PATH'); calendars are only ever read"
                : "the calendar source\(count == 1 ? "" : "s") (\(count), see 'dictee source list') "
                    + "\(count == 1 ? "is" : "are") only read; calendar text is never sent")
            for line in sourceLines(config) { output.line(line) }
            let exists = FileManager.default.fileExists(atPath: path)
            output.line("configuration: \(path)" + (exists ? "" : " (no file yet: the defaults)"))
            return .ok
        }

        /// What a request for a remote calendar carries: the protocol, nothing from the state.
        static func fetchSends(_ isCalDAV: Bool) -> [String] {
            isCalDAV ? ["the request (method and address)", "the user name and password", "the sync token and the addresses of the events it asks for"]
                : ["the request (address)", "the ETag and date of the copy read last time"]
        }

        /// One line per remote source: what is fetched from where, and that nothing about the
        /// children is sent; the proxy, when one is configured.
        static func sourceLines(_ config: Config) -> [String] {
            var lines: [String] = []
            for source in config.sources {
                switch source {
                case .path: continue
                case .subscription(let remote):
                    lines.append("reads the calendar from \(source.host ?? remote.url) (a subscription, \(URL(string: remote.url)?.scheme ?? "https")); "
                                 + "sends only " + fetchSends(false).joined(separator: " and ") + "; nothing about your children")
                case .caldav(let remote):
                    lines.append("reads the calendar from \(source.host ?? remote.url) as user \(remote.user ?? "?") (CalDAV); "
                                 + "sends only " + fetchSends(true).joined(separator: ", ") + "; nothing about your children")
                }
            }
            if !lines.isEmpty {
                lines.append(config.proxy.map { "calendar requests go through the proxy \($0), as the configuration says" }
                    ?? "no proxy is used (http_proxy and https_proxy are ignored); TLS certificates are verified; nothing else is contacted")
            }
            return lines
        }

        /// The facts the text and the JSON both print, read off the route `dictee nightly` follows.
        struct Report {
            var model = "none"
            var endpoint: String?
            var loopback: Bool?
            var allowed = true
            var egressLog: String?
            var lines: [String] = []

            init(_ route: ModelRoute, config: Config, configPath: String) {
                let sends = Privacy.sentence(route.requestContents)
                switch route {
                case .library:
                    lines.append("nothing leaves this machine: no language model is configured; "
                                 + "dictations come from the handwritten library")
                case .managed(let gguf):
                    model = "managed"
                    loopback = true
                    lines.append("the model runs on this machine (managed llama-cpp-python server on 127.0.0.1); "
                                 + "nothing leaves this machine")
                    lines.append("model file: \(gguf)")
                    lines.append("sent to the managed server on 127.0.0.1 (this machine): \(sends)")
                case .loopback(let endpoint):
                    model = "endpoint"
                    self.endpoint = config.model?.endpoint ?? endpoint.url.absoluteString
                    loopback = true
                    lines.append("sent to \(self.endpoint!) (this machine): \(sends)")
                case .remote(let endpoint):
                    model = "endpoint"
                    self.endpoint = config.model?.endpoint ?? endpoint.url.absoluteString
                    loopback = false
                    egressLog = endpoint.egressLog?.path
                    lines.append("sent OUTSIDE this machine to \(self.endpoint!): \(sends); "
                                 + "every request body is appended to \(egressLog ?? "?") before it is sent")
                    lines.append("\"richer_texts\": true is set in \(configPath); "
                                 + "set it to false to keep everything on this machine")
                case .refused(let refusal):
                    model = "endpoint"
                    allowed = false
                    switch refusal {
                    case .notLoopback(let url, _):
                        endpoint = url
                        loopback = false
                        lines.append("refused: \(url) is not a loopback address; dictee will not send anything "
                                     + "there unless \"richer_texts\": true is set in \(configPath)")
                    case .egressLogUnwritable(let url, let log, let problem):
                        endpoint = url
                        loopback = false
                        egressLog = log
                        lines.append("refused: the egress log \(log) cannot be written (\(problem)); dictee will not "
                                     + "send anything to \(url) that it cannot log first")
                    }
                    lines.append("so nothing leaves this machine")
                }
                if config.model?.endpoint != nil, let gguf = config.model?.gguf {
                    lines.append("\"model.gguf\" (\(gguf)) is not used: \"model.endpoint\" is set and wins")
                }
            }
        }
    }
}
