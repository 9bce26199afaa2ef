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
        static var summary: String { tr("summary.review") }
        static let options = OptionSpec(valued: ["tz"], flags: ["show-titles"])
        static var help: String { tr("help.review") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard context.isInteractive else {
                throw CommandFailure(.usage, tr("review needs a terminal"), hint: tr("use 'dictee suggestions list', then 'dictee suggestions label ID TEXT' or 'reject ID'"))
            }
            let store = try StateOptions.open(context, create: false)
            let zone = try TimeOptions.storedZone(arguments, store, context)
            let pending: [Suggestion]
            let family: [Child]
            do {
                pending = try store.pendingSuggestions()
                family = try store.children()
            } catch {
                throw CommandFailure(error)
            }
            if pending.isEmpty {
                output.line(tr("no event waiting for a label"))
                return .ok
            }
            var labeled = 0, rejected = 0
            let now = Int64(context.clock.now.timeIntervalSince1970.rounded(.down))
            for (k, suggestion) in nearestFirst(pending, now: now, zone: zone).enumerated() {
                output.line("")
                output.line("[\(k + 1)/\(pending.count)] \(Suggestions.describe(suggestion, zone))")
                if arguments.flags.contains("show-titles"), let title = title(of: suggestion, zone: zone) {
                    output.line("      " + tr("title (this terminal only): %@", title))
                }
                answer: while true {
                    output.write(tr("[l]abel, [r]eject, [s]kip, [q]uit?") + " ")
                    guard let reply = context.readLine() else {
                        // End of input (Ctrl-D) quits, like q.
                        output.line("")
                        output.line(tally(labeled, rejected))
                        return .ok
                    }
                    switch Answer(reply) {
                    case .label:
                        output.write(tr("your words (e.g. le dîner chez Mamie):") + " ")
                        guard let text = context.readLine() else {
                            output.line("")
                            output.line(tally(labeled, rejected))
                            return .ok
                        }
                        if text.trimmingCharacters(in: .whitespaces).isEmpty { continue answer }
                        // With several children, whose moment it is: the whole family unless
                        // the parent names them (as --for does).
                        var owners: String?
                        forWhom: while family.count > 1 {
                            output.write(tr("for whom? (Enter: the whole family; or first names separated by commas, e.g. %@):", family[0].firstName) + " ")
                            guard let answer = context.readLine() else {
                                output.line("")
                                output.line(tally(labeled, rejected))
                                return .ok
                            }
                            let names = answer.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                            do {
                                // Each name found as every command finds a child; a typo is
                                // named, with the nearest first name, and asked again.
                                for name in names { _ = try ChildCommand.find(name, store) }
                            } catch {
                                output.error(error.message)
                                if let hint = error.hint { output.hint(hint) }
                                continue forWhom
                            }
                            owners = names.isEmpty ? nil : names.joined(separator: ",")
                            break forWhom
                        }
                        do {
                            _ = try Suggestions.label(id: suggestion.id, text: text, for: owners, store: store, context: context)
                            labeled += 1
                            break answer
                        } catch {
                            // Said, then asked again: the parent may type other words.
                            output.error(error.message)
                            if let hint = error.hint { output.hint(hint) }
                        }
                    case .reject:
                        do { try store.reject(suggestion: suggestion.id) } catch {
                            throw CommandFailure(error)
                        }
                        rejected += 1
                        output.line(tr("rejected: never suggested again"))
                        break answer
                    case .skip:
                        break answer
                    case .quit:
                        output.line(tally(labeled, rejected))
                        return .ok
                    case nil:
                        continue answer
                    }
                }
            }
            output.line(tally(labeled, rejected))
            return .ok
        }

        /// The events in the order a parent reviews them: the one whose nearest occurrence is
        /// closest to `now` first (this week's before the ones two years back), then by id.
        /// - Parameters:
        ///   - pending: the suggestions waiting for a label.
        ///   - now: seconds since 1970.
        ///   - zone: the zone that places floating and all-day times.
        static func nearestFirst(_ pending: [Suggestion], now: Int64, zone: CalendarZone) -> [Suggestion] {
            func distance(_ s: Suggestion) -> Int64 {
                s.occurrences.map { abs(zone.seconds(of: $0.start) - now) }.min() ?? .max
            }
            return pending.map { ($0, distance($0)) }
                .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.id < $1.0.id }
                .map(\.0)
        }

        /// What the parent answered to the prompt, by its first letter in the current language:
        /// English l, r, s, q; French é (or e), r, p, q, and the English letters too. An empty
        /// line skips; `nil` for any other answer (asked again).
        enum Answer {
            case label, reject, skip, quit

            init?(_ reply: String) {
                let letter = reply.trimmingCharacters(in: .whitespaces).lowercased().first
                let letters: [Character: Answer] = Language.current == .french
                    ? ["é": .label, "e": .label, "l": .label, "r": .reject, "p": .skip, "s": .skip, "q": .quit]
                    : ["l": .label, "r": .reject, "s": .skip, "q": .quit]
                guard let letter else { self = .skip; return }
                guard let answer = letters[letter] else { return nil }
                self = answer
            }
        }

        /// "2 labeled, 1 rejected" at the end of a session.
        static func tally(_ labeled: Int, _ rejected: Int) -> String {
            tr("%ld labeled, %ld rejected", labeled, rejected)
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
