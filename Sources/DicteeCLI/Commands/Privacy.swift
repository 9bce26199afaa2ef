import Foundation

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

        /// What one request to the model contains (Generation builds it from a `Moment`, a child's
        /// first name and grade, and the plan; the audit file lists the phrases).
        static let sends = [
            "the instructions (French, written by dictee)",
            "the child's first name and grade",
            "the target skills",
            "the word and sentence ranges",
            "the moment's canonical phrase (as listed in the audit file)",
        ]

        /// `sends` as one sentence, with what a request never contains.
        static var sendsSentence: String {
            sends.dropLast().joined(separator: ", ") + ", and " + sends.last!
                + "; never a calendar title, place or description"
        }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) -> ExitCode {
            let output = context.output
            guard arguments.positionals.isEmpty else {
                output.error("privacy takes no argument")
                output.hint("dictee privacy")
                return .usage
            }
            let path = Config.path(context)
            let config: Config
            switch Config.load(context) {
            case .success(let c): config = c
            case .failure(let code): return code
            }
            let report = Report(config, configPath: path, context: context)
            if arguments.flags.contains("json") {
                output.line(JSONWriter.object([
                    ("config", .string(path)),
                    ("model", .string(report.model)),
                    ("endpoint", report.endpoint.map { .string($0) } ?? .null),
                    ("loopback", report.loopback.map { .bool($0) } ?? .null),
                    ("allowed", .bool(report.allowed)),
                    ("egress_log", report.egressLog.map { .string($0) } ?? .null),
                    ("sends", .raw("[" + report.sends.map(JSONWriter.quoted).joined(separator: ",") + "]")),
                ]))
                return .ok
            }
            for line in report.lines { output.line(line) }
            let count = config.sources.count
            output.line(count == 0
                ? "no calendar source is configured ('dictee source add PATH'); calendars are only ever read"
                : "the calendar source\(count == 1 ? "" : "s") (\(count), see 'dictee source list') "
                    + "\(count == 1 ? "is" : "are") only read, on this machine; calendar text is never sent")
            let exists = FileManager.default.fileExists(atPath: path)
            output.line("configuration: \(path)" + (exists ? "" : " (no file yet: the defaults)"))
            return .ok
        }

        /// The facts the text and the JSON both print.
        struct Report {
            var model = "none"
            var endpoint: String?
            var loopback: Bool?
            var allowed = true
            var egressLog: String?
            var sends: [String] = []
            var lines: [String] = []

            init(_ config: Config, configPath: String, context: CommandContext) {
                switch config.modelMode {
                case .none:
                    lines.append("nothing leaves this machine: no language model is configured; "
                                 + "dictations come from the handwritten library")
                case .managed(let gguf):
                    model = "managed"
                    loopback = true
                    sends = Privacy.sends
                    lines.append("the model runs on this machine (managed llama-cpp-python server on 127.0.0.1); "
                                 + "nothing leaves this machine")
                    lines.append("model file: \(gguf)")
                    lines.append("sent to the managed server on 127.0.0.1 (this machine): \(Privacy.sendsSentence)")
                case .endpoint(let url):
                    model = "endpoint"
                    endpoint = url
                    let isLoopback = Config.isLoopback(url)
                    loopback = isLoopback
                    allowed = config.endpointIsAllowed()
                    if isLoopback {
                        sends = Privacy.sends
                        lines.append("sent to \(url) (this machine): \(Privacy.sendsSentence)")
                    } else if allowed {
                        let log = config.egressLogPath(context)
                        egressLog = log
                        sends = Privacy.sends
                        lines.append("sent OUTSIDE this machine to \(url): \(Privacy.sendsSentence); "
                                     + "every request body is appended to \(log) before it is sent")
                        lines.append("\"richer_texts\": true is set in \(configPath); "
                                     + "set it to false to keep everything on this machine")
                    } else {
                        lines.append("refused: \(url) is not a loopback address; dictee will not send anything "
                                     + "there unless \"richer_texts\": true is set in \(configPath)")
                        lines.append("so nothing leaves this machine")
                    }
                    if let gguf = config.model?.gguf {
                        lines.append("\"model.gguf\" (\(gguf)) is not used: \"model.endpoint\" is set and wins")
                    }
                }
            }
        }
    }
}
