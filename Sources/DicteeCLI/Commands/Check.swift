import Dictation
import DicteeCore
import Foundation
import PrivacyFilter
import French
import Household

extension Dictee {
    /// `dictee check --child NAME --moment PHRASE [--kind KIND] [--skills ID,ID] [--json] FILE|-`:
    /// runs the validator's eight steps on a text someone wrote, for that child's grade and gender,
    /// about a canonical phrase of the whitelist or a parent's label (`Labels.check`).
    ///
    /// JSON contract (later checks rely on it exactly):
    /// `{"passed": bool, "findings": [{"step": id, "rule": id, "message": string}]}` with the step ids
    /// vocabulaire, temps, longueur, registre, competences, prenom, moment, orthographe_grammaire,
    /// and the id of the failed rule (`Finding.rule`: the step id, or a named rule such as
    /// `longueur_mots`, `elision_consonne`, `hunspell`, `grammalecte:<id>`).
    /// Exit status: 0 every step passes, 1 a step fails, 64 usage, 65 unreadable text file,
    /// 69 the lexicon or the French dictionary is missing.
    struct Check: Command {
        static let name = "check"
        static var summary: String { tr("summary.check") }
        /// The largest text `check` reads, in bytes (a CM2 dictation is about 600).
        static let maximumBytes = 100_000
        static let options = OptionSpec(valued: ["child", "moment", "kind", "skills", "grade", "gender", "sites", "date", "now", "tz"], flags: ["json"])
        static var help: String { tr("help.check") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.count == 1 else {
                throw CommandFailure(.usage, tr("check needs one text file, or - for stdin"), hint: "dictee check --child Léa --moment \"la sortie piscine\" texte.txt")
            }
            guard let name = arguments.values["child"], !name.isEmpty else {
                throw CommandFailure(.usage, tr("check needs --child NAME"))
            }
            guard PrivacyFilter().acceptsName(name) else {
                throw CommandFailure(.usage, tr("'%@' is not a first name: a capital letter, letters only, at most one hyphen, 2 to 20 letters", String(name.prefix(40))))
            }
            guard let momentText = arguments.values["moment"] else {
                throw CommandFailure(.usage, tr("check needs --moment PHRASE, a canonical phrase such as \"la sortie piscine\""))
            }
            let moment = try momentPhrase(momentText, kind: arguments.values["kind"], childName: name, context)
            var targets: [SkillID] = []
            for id in (arguments.values["skills"] ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !id.isEmpty {
                guard let skill = SkillID(rawValue: id) else {
                    var message = tr("unknown skill '%@'", id)
                    if let near = NearestWord.find(id, in: SkillID.allCases.map(\.rawValue)) { message += tr("; did you mean '%@'?", near) }
                    throw CommandFailure(.usage, message)
                }
                if !targets.contains(skill) { targets.append(skill) }
            }
            var sites = 2
            if let s = arguments.values["sites"] {
                guard let n = Int(s), n >= 1, n <= 20 else {
                    throw CommandFailure(.usage, tr("--sites needs a number from 1 to 20"))
                }
                sites = n
            }
            let child = try resolveChild(name, arguments, context)

            // The text.
            let path = arguments.positionals[0]
            let text: String
            if path == "-" {
                guard let input = context.readStandardInput() else {
                    throw CommandFailure(.dataError, tr("check could not read the text on stdin"))
                }
                guard !input.unicodeScalars.contains("\u{FFFD}") else {
                    throw CommandFailure(.dataError, tr("%@: not UTF-8 text", "stdin"))
                }
                text = input
            } else {
                if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > Check.maximumBytes {
                    throw CommandFailure(.dataError, tr("%@: %ld bytes; a dictation text has at most %ld bytes", path, size, Check.maximumBytes))
                }
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CommandFailure(.dataError, tr("%@: cannot read the file", path))
                }
                guard let decoded = String(data: data, encoding: .utf8) else {
                    throw CommandFailure(.dataError, tr("%@: not UTF-8 text", path))
                }
                text = decoded
            }
            guard text.utf8.count <= Check.maximumBytes else {
                throw CommandFailure(.dataError, tr("%@: %ld bytes; a dictation text has at most %ld bytes", path == "-" ? "stdin" : path, text.utf8.count, Check.maximumBytes))
            }

            let validator = try household { () throws(HouseholdError) in
                try Validators.make(environment: context.environment, warn: { output.warning($0) })
            }
            if let skill = targets.first(where: { !$0.isTaught(at: child.grade) }) {
                throw CommandFailure(.usage, tr("%@ is taught from %@ on; a %@ text cannot target it", skill.rawValue, skill.introducedIn.rawValue, child.grade.rawValue))
            }
            var plan = DictationPlan(child: child, moment: moment, targets: targets, sitesPerTarget: sites)
            if let day = arguments.values["date"] {
                let parts = day.split(separator: "-").compactMap { Int($0) }
                let date = CalendarDate(year: parts.first ?? 0, month: parts.count > 1 ? parts[1] : 0, day: parts.count > 2 ? parts[2] : 0)
                guard parts.count == 3, day.count == 10, date.isValid else {
                    throw CommandFailure(.usage, tr("--date needs a day as YYYY-MM-DD, e.g. 2026-11-28"))
                }
                let (zone, now) = try TimeOptions.resolve(arguments, context)
                let today = zone.date(at: now)
                plan.date = MomentDate(start: date, end: date, written: today, time: date <= today ? .past : .upcoming)
            }
            let findings = validator.check(Draft(text: text), plan: plan)
            if arguments.flags.contains("json") {
                let list = findings.map {
                    JSONWriter.object([("step", .string($0.step.rawValue)), ("rule", .string($0.rule)), ("message", .string($0.message))])
                }
                output.line("{\"passed\":\(findings.isEmpty ? "true" : "false"),\"findings\":[\(list.joined(separator: ","))]}")
            } else if findings.isEmpty {
                output.line(tr("ok: the text passes the eight steps for %@", child.grade.rawValue))
            } else {
                for f in findings { output.line("\(f.step.rawValue): \(f.message)") }
            }
            return findings.isEmpty ? .ok : .itemErrors
        }

        /// The moment: a canonical phrase, possibly with a friend's name after a `de`/`chez` slot
        /// ("l'anniversaire de Tom"), unless `--kind` is given; else a parent's label, checked as
        /// `suggestions label` checks it (`Labels.check`; names: the child's and the given names).
        /// - Throws: 64 for a refused label or an unknown kind, 69 when Lexique is missing.
        static func momentPhrase(_ text: String, kind: String?, childName: String, _ context: CommandContext) throws(CommandFailure) -> MomentPhrase {
            if kind == nil, let whitelisted = whitelistPhrase(text) { return whitelisted }
            let lexicon = try household { () throws(HouseholdError) in try Labels.lexicon(environment: context.environment) }
            switch Labels.check(text, kind: kind, names: Labels.names(children: [childName]), lexicon: lexicon) {
            case .success(let label):
                return label.moment
            case .failure(let refusal):
                if case .unknownKind = refusal { throw .usage(refusal.description) }
                var message = tr("the moment is neither a canonical phrase of the whitelist nor a label dictee accepts: %@", "\(refusal)")
                let wanted = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "’", with: "'")
                if let near = NearestWord.find(wanted, in: Whitelist.bundled.canonicalPhrases.map(\.phrase)) { message += tr("; did you mean '%@'?", near) }
                throw .usage(message, hint: tr("a label is a noun phrase with its article, e.g. \"le dîner chez Mamie\"; the canonical phrases are the third column of Whitelists/moments.tsv"))
            }
        }

        /// A canonical phrase of the whitelist, possibly with a friend's name after a `de`/`chez`
        /// slot ("l'anniversaire de Tom"); `nil` for anything else.
        static func whitelistPhrase(_ text: String) -> MomentPhrase? {
            let wanted = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "’", with: "'")
            let phrases = Whitelist.bundled.canonicalPhrases
            if let p = phrases.first(where: { $0.phrase.lowercased() == wanted.lowercased() }) {
                return MomentPhrase(phrase: p.phrase, grammar: p.grammar)
            }
            for p in phrases where p.slot != .none {
                // "l'anniversaire de Tom", "l'anniversaire d'Inès", "la boum chez Jules".
                var joins = [" " + p.slot.rawValue + " "]
                if p.slot == .de { joins.append(" d'") }
                for join in joins {
                    let prefix = p.phrase + join
                    guard wanted.lowercased().hasPrefix(prefix.lowercased()) else { continue }
                    let friend = String(wanted.dropFirst(prefix.count))
                    if PrivacyFilter().acceptsName(friend) || PrivacyFilter.familyWords.contains(friend.lowercased()) {
                        return MomentPhrase(phrase: p.phrase + join + friend, grammar: p.grammar, friendName: friend)
                    }
                }
            }
            return nil
        }

        static func resolveChild(_ name: String, _ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> Child {
            let grade = arguments.values["grade"].flatMap(Grade.init(parsing:))
            let gender = arguments.values["gender"].flatMap { Gender(rawValue: $0.lowercased()) }
            if arguments.values["grade"] != nil, grade == nil {
                throw .usage(tr("--grade must be CP, CE1, CE2, CM1 or CM2"))
            }
            if arguments.values["gender"] != nil, gender == nil {
                throw .usage(tr("--gender must be f or m"))
            }
            if let grade, let gender { return Child(firstName: name, gender: gender, grade: grade) }
            var stored: Child?
            if FileManager.default.fileExists(atPath: StateOptions.path(context)), let store = try? StateOptions.open(context, create: false) {
                stored = (try? store.children())?.first { $0.firstName.lowercased() == name.lowercased() }
            }
            guard var child = stored else {
                throw .usage(tr("no child named '%@' in the state; add one with 'dictee child add', or give --grade and --gender", name))
            }
            if let grade { child.grade = grade }
            if let gender { child.gender = gender }
            return child
        }
    }
}
