import DicteeCore
import Foundation
import Household
import Ingest
import Store
import PrivacyFilter

extension Dictee {
    /// `dictee audit PATH [--verify] [--json]`: summarises and checks an audit file.
    struct Audit: Command {
        static let name = "audit"
        static var summary: String { tr("summary.audit") }
        static let options = OptionSpec(valued: [], flags: ["verify", "json"])
        static var help: String { tr("help.audit") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
                throw CommandFailure(.usage, tr("audit needs one audit file"), hint: "dictee audit audit.jsonl --verify")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandFailure(.dataError, tr("%@: cannot read the audit file", path))
            }
            var labels = Set<String>()
            // The state's children: every name in a line's "for" must be one of them.
            var children: Set<String>?
            // Whose each stored moment is: a line's "for" must be what the state recorded.
            var owners: [String: Set<[String]>]?
            // What each stored moment is: a line's phrase, name and rule must be the state's.
            var recorded: [String: Set<String>]?
            if arguments.flags.contains("verify") {
                // The parent's labels come from the state; an auditor on another machine has none,
                // and then only label lines fail.
                if FileManager.default.fileExists(atPath: StateOptions.path(context)) {
                    let store = try StateOptions.open(context, create: false)
                    labels = Set(try state { () throws(StateError) in try store.labels().values.map(\.text) })
                    let stored = try state { () throws(StateError) in try store.children() }
                    children = Set(stored.map(\.firstName))
                    let moments = try state { () throws(StateError) in try store.moments() }
                    if let zone = Self.zone(of: data, store: store) {
                        (owners, recorded) = Self.recorded(moments, children: stored, zone: zone)
                    }
                } else if context.statePath?.isEmpty == true {
                    throw CommandFailure(.usage, tr("--state needs a file path"))
                } else {
                    output.warning(tr("no state at %@: lines with a parent's label cannot be checked", StateOptions.path(context)))
                    output.warning(tr("no state: the 'for' fields (whose moment each line is) cannot be checked against the children"))
                }
            }
            let report = AuditFile.verify(
                String(decoding: data, as: UTF8.self), whitelist: Whitelist.bundled, labels: labels, children: children,
                owners: owners, recorded: recorded, commonWords: try? Labels.lexicon(environment: context.environment))
            let verify = arguments.flags.contains("verify")
            if arguments.flags.contains("json") {
                var fields: [(String, JSONWriter.Value)] = [("moments", .int(report.lines))]
                if verify {
                    fields.append(("verified", .bool(report.problems.isEmpty)))
                    fields.append(("whitelist_changed", .bool(report.whitelistChanged)))
                }
                let rules = report.byRule.sorted { $0.key < $1.key }
                    .map { JSONWriter.quoted($0.key) + ":\($0.value)" }.joined(separator: ",")
                var text = String(JSONWriter.object(fields).dropLast()) + ",\"by_rule\":{\(rules)}"
                if verify {
                    text += ",\"problems\":[" + report.problems.map {
                        JSONWriter.object([("line", .int($0.line)), ("reason", .string($0.reason))])
                    }.joined(separator: ",") + "]"
                }
                output.line(text + "}")
            } else {
                if let now = report.window["now"], let tz = report.window["tz"] {
                    output.line(tr("window: now %@ (%@); one-off events from %@, recurring from %@, to %@", now, tz,
                                   report.window["one_off_from"] ?? "?", report.window["recurring_from"] ?? "?", report.window["to"] ?? "?"))
                }
                if !report.counts.isEmpty {
                    let order = ["events", "occurrences", "moments", "disqualified", "unlabeled", "to_label", "errors"]
                    output.line(tr("counts: %@", order.compactMap { key in report.counts[key].map { count(key, $0) } }
                        .joined(separator: ", ")))
                }
                output.line(tr("%ld moment lines; valid ones by rule: %@", report.lines, report.byRule.sorted { $0.key < $1.key }
                    .map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
                if verify {
                    if report.whitelistChanged {
                        output.warning(tr("the whitelist digests differ from this dictee's Whitelists/ files; phrases were checked against the current files"))
                    }
                    for problem in report.problems {
                        output.error("\(path):\(problem.line): \(problem.reason)")
                    }
                    let offending = report.problems.count
                    output.line(report.problems.isEmpty
                        ? tr("verified: every line is a whitelist phrase or a parent's label, with a valid name")
                        : Language.current.isSingular(offending)
                            ? tr("not verified: %ld offending line", offending) : tr("not verified: %ld offending lines", offending))
                }
            }
            return verify && !report.problems.isEmpty ? .itemErrors : .ok
        }

        /// A count of the audit header's `counts` (`"to_label": 158`) as the parent reads it:
        /// "158 to label" / "158 à étiqueter", "1 disqualified" / "1 écarté"; the file keeps the key.
        static func count(_ key: String, _ n: Int) -> String {
            let one = Language.current.isSingular(n)
            return switch key {
            case "events": one ? tr("%ld event", n) : tr("%ld events", n)
            case "occurrences": one ? tr("%ld occurrence", n) : tr("%ld occurrences", n)
            case "moments": one ? tr("%ld moment", n) : tr("%ld moments", n)
            case "disqualified": one ? tr("audit.count.disqualified.one", n) : tr("audit.count.disqualified.other", n)
            case "unlabeled": tr("%ld unlabeled", n)
            case "to_label": tr("%ld to label", n)
            case "errors": one ? tr("%ld error", n) : tr("%ld errors", n)
            default: "\(n) " + key.replacingOccurrences(of: "_", with: " ")
            }
        }

        /// What the state stored per occurrence (`AuditFile.ownerKey`: event reference and local
        /// date): the `for` lists, written as `AuditFile.Entry` writes them (names in id order), and
        /// the phrase, name and rule of each moment (`AuditFile.recordedSignature`).
        static func recorded(_ moments: [StoredMoment], children: [Child], zone: CalendarZone)
            -> (owners: [String: Set<[String]>], signatures: [String: Set<String>])
        {
            let names = Dictionary(children.compactMap { c in c.id.map { ($0, c.firstName) } }, uniquingKeysWith: { a, _ in a })
            var owners: [String: Set<[String]>] = [:]
            var signatures: [String: Set<String>] = [:]
            for m in moments {
                let key = AuditFile.ownerKey(eventReference: m.eventReference.description, date: zone.date(of: m.start).description)
                owners[key, default: []].insert(m.children.sorted().compactMap { names[$0] })
                signatures[key, default: []].insert(AuditFile.recordedSignature(phrase: m.phrase, firstName: m.firstName, rule: m.rule))
            }
            return (owners, signatures)
        }

        /// The zone the audit file's dates were written in: its header's `tz`, else the zone of
        /// the last ingest (`nil`: neither is known, and the header is reported anyway).
        static func zone(of data: Data, store: StateStore) -> CalendarZone? {
            let firstLine = data.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? Data()
            if let header = (try? JSONSerialization.jsonObject(with: firstLine)) as? [String: Any],
                let window = header["window"] as? [String: Any], let tz = window["tz"] as? String,
                let zone = try? CalendarZone(identifier: tz)
            {
                return zone
            }
            return Desk.zoneOfStoredDates(store, explicit: nil)
        }
    }
}
