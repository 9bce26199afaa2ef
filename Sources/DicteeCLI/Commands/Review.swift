import DicteeCore
import Foundation
import Household
import Store
import Ingest
import PrivacyFilter

extension Dictee {
    /// `dictee review [--show-titles]`: the parent's review queue, one event at a time, on a TTY.
    struct Review: Command {
        static let name = "review"
        static let summary = "label or reject, one by one, the events waiting for the parent"
        static let options = OptionSpec(valued: ["tz"], flags: ["show-titles"])
        static let help = """
            usage: dictee review [--show-titles] [--tz IANA]  (default zone: the last ingest's)

            Shows each event waiting for a label, one at a time: date, time, duration and
            recurrence. No title is stored, so none is shown, unless --show-titles re-reads the
            calendar file for this terminal only. Answer [l]abel (then type your own words),
            [r]eject (never suggested again), [s]kip or [q]uit.
            Without a terminal, use 'dictee suggestions list|label|reject'.

            example:
              dictee review --show-titles

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard context.isInteractive else {
                throw CommandFailure(.usage, "review needs a terminal", hint: "use 'dictee suggestions list', then 'dictee suggestions label ID TEXT' or 'reject ID'")
            }
            let store = try StateOptions.open(context, create: false)
            let zone = try TimeOptions.storedZone(arguments, store, context)
            let pending: [Suggestion]
            do { pending = try store.pendingSuggestions() } catch {
                throw CommandFailure(error)
            }
            if pending.isEmpty {
                output.line("no event waiting for a label")
                return .ok
            }
            var labeled = 0, rejected = 0
            for (k, suggestion) in pending.enumerated() {
                output.line("")
                output.line("[\(k + 1)/\(pending.count)] \(Suggestions.describe(suggestion, zone))")
                if arguments.flags.contains("show-titles"), let title = title(of: suggestion, zone: zone) {
                    output.line("      title (this terminal only): \(title)")
                }
                answer: while true {
                    output.write("[l]abel, [r]eject, [s]kip, [q]uit? ")
                    guard let reply = context.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else {
                        // End of input (Ctrl-D) quits, like q.
                        output.line("")
                        output.line("\(labeled) labeled, \(rejected) rejected")
                        return .ok
                    }
                    switch reply.first {
                    case "l":
                        output.write("your words (e.g. le dîner chez Mamie): ")
                        guard let text = context.readLine() else {
                            output.line("")
                            output.line("\(labeled) labeled, \(rejected) rejected")
                            return .ok
                        }
                        if text.trimmingCharacters(in: .whitespaces).isEmpty { continue answer }
                        do {
                            _ = try Suggestions.label(id: suggestion.id, text: text, store: store, context: context)
                            labeled += 1
                            break answer
                        } catch {
                            // Said, then asked again: the parent may type other words.
                            output.error(error.message)
                            if let hint = error.hint { output.hint(hint) }
                        }
                    case "r":
                        do { try store.reject(suggestion: suggestion.id) } catch {
                            throw CommandFailure(error)
                        }
                        rejected += 1
                        output.line("rejected: never suggested again")
                        break answer
                    case "s", nil:
                        break answer
                    case "q":
                        output.line("\(labeled) labeled, \(rejected) rejected")
                        return .ok
                    default:
                        continue answer
                    }
                }
            }
            output.line("\(labeled) labeled, \(rejected) rejected")
            return .ok
        }

        /// Re-reads the suggestion's source file or vdir folder for the terminal only (nothing is
        /// stored); `nil` for a remote source (not fetched again for a title) or a vanished file.
        static func title(of suggestion: Suggestion, zone: CalendarZone) -> String? {
            guard let path = suggestion.sourcePath, let first = suggestion.occurrences.first else { return nil }
            let instant = zone.seconds(of: first.start)
            let reader = CalendarReader(zone: zone, window: .around(nowSeconds: instant, zone: zone))
            // A vdir folder: its .ics files. A remote source is not fetched again for a title.
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
            let files = isDirectory.boolValue ? SourceSetup.calendarFiles(inFolder: path) ?? [] : [path]
            let result = StandardError.silenced { reader.read(paths: files) }
            // Titles may come from other people's invitations: no control or invisible character
            // (terminal escapes, bidirectional overrides) reaches the terminal.
            return result.occurrences.first { $0.eventReference == suggestion.eventReference }.map { TerminalText.sanitized($0.summary) }
        }
    }
}
