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
        static let summary = "run the validator's eight steps on a dictation text"
        /// The largest text `check` reads, in bytes (a CM2 dictation is about 600).
        static let maximumBytes = 100_000
        static let options = OptionSpec(valued: ["child", "moment", "kind", "skills", "grade", "gender", "sites", "date", "now", "tz"], flags: ["json"])
        static let help = """
            usage: dictee check --child NAME --moment PHRASE [--skills ID,ID] [--json] FILE
                   dictee check --child NAME --moment PHRASE ... -        (text on stdin)

            Runs the validator on a text for the child's grade and gender, as it runs on every
            generated dictation: vocabulaire, temps, longueur, registre, competences, prenom,
            moment, orthographe_grammaire. Prints each failing step with a French sentence
            saying what to fix; exit status 1 when a step fails, 0 when the text passes.

            options:
              --child NAME     a child added with 'dictee child add' (grade and gender come
                               from the state), or any first name with --grade and --gender
              --moment PHRASE  a canonical phrase of the whitelist, e.g. "la sortie piscine",
                               "le cours de judo", "l'anniversaire de Tom"; or a label as a
                               parent writes one: a noun phrase with its article, e.g.
                               "le dîner chez Mamie", "la fête des Lumières"
              --kind KIND      the library kind of a label (default: from its noun, else
                               general): activite, animaux, anniversaire, ballon,
                               carnaval, chant, cheval, combat, concert, danse, eau,
                               ecole, ecran, fete, general, glisse, grimpe, gym,
                               halloween, instrument, lecture, marche, match, musique,
                               nage, noel, pique_nique, plein_air, poisson, raquette,
                               repas, sejour, sortie, spectacle, sport, theatre, velo
              --skills IDS     target skills, comma-separated (see Docs/trap-sites.md), e.g.
                               homophones_a_a,accord_pp_etre; each needs --sites trap sites
              --sites N        trap sites required per target skill (default 2)
              --date DAY       the moment's day, YYYY-MM-DD: the text's weekdays, "hier",
                               "demain", seasons and tenses must agree with it, seen
                               from --now (default: today); a day before --now's is past
              --now, --tz      the day the text is written and the zone (with --date)
              --grade G        CP, CE1, CE2, CM1 or CM2 (instead of the stored child's)
              --gender f|m     the child's gender (instead of the stored child's)
              --json           {"passed": bool, "findings": [{"step": id, "rule": id, "message": string}]}

            exit status: 0 every step passes, 1 a step fails, 64 usage (unknown child, a moment
            that is neither a whitelist phrase nor an acceptable label, an unknown kind or
            skill, a skill not taught at the grade), 65 unreadable, non-UTF-8 or over-100-KB text,
            69 the Lexique table (Data/lexique-3.83.bin, or $DICTEE_LEXICON) or the French
            dictionary is missing.

            example:
              dictee check --child Léa --moment "la sortie piscine" --skills homophones_a_a texte.txt
              dictee check --child Léa --moment "le dîner chez Mamie" --kind general texte.txt
              dictee check --child Léa --moment "le cours de judo" --date 2026-11-28 --now 2026-12-01T18:00:00+01:00 texte.txt

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals.count == 1 else {
                throw CommandFailure(.usage, "check needs one text file, or - for stdin", hint: "dictee check --child Léa --moment \"la sortie piscine\" texte.txt")
            }
            guard let name = arguments.values["child"], !name.isEmpty else {
                throw CommandFailure(.usage, "check needs --child NAME")
            }
            guard PrivacyFilter().acceptsName(name) else {
                throw CommandFailure(.usage, "'\(name.prefix(40))' is not a first name: a capital letter, letters only, at most one hyphen, 2 to 20 letters")
            }
            guard let momentText = arguments.values["moment"] else {
                throw CommandFailure(.usage, "check needs --moment PHRASE, a canonical phrase such as \"la sortie piscine\"")
            }
            let moment = try momentPhrase(momentText, kind: arguments.values["kind"], childName: name, context)
            var targets: [SkillID] = []
            for id in (arguments.values["skills"] ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !id.isEmpty {
                guard let skill = SkillID(rawValue: id) else {
                    var message = "unknown skill '\(id)'"
                    if let near = NearestWord.find(id, in: SkillID.allCases.map(\.rawValue)) { message += "; did you mean '\(near)'?" }
                    throw CommandFailure(.usage, message)
                }
                if !targets.contains(skill) { targets.append(skill) }
            }
            var sites = 2
            if let s = arguments.values["sites"] {
                guard let n = Int(s), n >= 1, n <= 20 else {
                    throw CommandFailure(.usage, "--sites needs a number from 1 to 20")
                }
                sites = n
            }
            let child = try resolveChild(name, arguments, context)

            // The text.
            let path = arguments.positionals[0]
            let text: String
            if path == "-" {
                guard let input = context.readStandardInput() else {
                    throw CommandFailure(.dataError, "check could not read the text on stdin")
                }
                guard !input.unicodeScalars.contains("\u{FFFD}") else {
                    throw CommandFailure(.dataError, "stdin: not UTF-8 text")
                }
                text = input
            } else {
                if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > Check.maximumBytes {
                    throw CommandFailure(.dataError, "\(path): \(size) bytes; a dictation text has at most \(Check.maximumBytes) bytes")
                }
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CommandFailure(.dataError, "\(path): cannot read the file")
                }
                guard let decoded = String(data: data, encoding: .utf8) else {
                    throw CommandFailure(.dataError, "\(path): not UTF-8 text")
                }
                text = decoded
            }
            guard text.utf8.count <= Check.maximumBytes else {
                throw CommandFailure(.dataError, "\(path == "-" ? "stdin" : path): \(text.utf8.count) bytes; a dictation text has at most \(Check.maximumBytes) bytes")
            }

            let validator = try household { () throws(HouseholdError) in
                try Validators.make(environment: context.environment, warn: { output.warning($0) })
            }
            if let skill = targets.first(where: { !$0.isTaught(at: child.grade) }) {
                throw CommandFailure(.usage, "\(skill.rawValue) is taught from \(skill.introducedIn.rawValue) on; a \(child.grade.rawValue) text cannot target it")
            }
            var plan = DictationPlan(child: child, moment: moment, targets: targets, sitesPerTarget: sites)
            if let day = arguments.values["date"] {
                let parts = day.split(separator: "-").compactMap { Int($0) }
                let date = CalendarDate(year: parts.first ?? 0, month: parts.count > 1 ? parts[1] : 0, day: parts.count > 2 ? parts[2] : 0)
                guard parts.count == 3, day.count == 10, date.isValid else {
                    throw CommandFailure(.usage, "--date needs a day as YYYY-MM-DD, e.g. 2026-11-28")
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
                output.line("ok: the text passes the eight steps for \(child.grade.rawValue)")
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
                var message = "the moment is neither a canonical phrase of the whitelist nor a label dictee accepts: \(refusal)"
                let wanted = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "’", with: "'")
                if let near = NearestWord.find(wanted, in: Whitelist.bundled.canonicalPhrases.map(\.phrase)) { message += "; did you mean '\(near)'?" }
                throw .usage(message, hint: "a label is a noun phrase with its article, e.g. \"le dîner chez Mamie\"; the canonical phrases are the third column of Whitelists/moments.tsv")
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
                throw .usage("--grade must be CP, CE1, CE2, CM1 or CM2")
            }
            if arguments.values["gender"] != nil, gender == nil {
                throw .usage("--gender must be f or m")
            }
            if let grade, let gender { return Child(firstName: name, gender: gender, grade: grade) }
            var stored: Child?
            if FileManager.default.fileExists(atPath: StateOptions.path(context)), let store = try? StateOptions.open(context, create: false) {
                stored = (try? store.children())?.first { $0.firstName.lowercased() == name.lowercased() }
            }
            guard var child = stored else {
                throw .usage("no child named '\(name)' in the state; add one with 'dictee child add', or give --grade and --gender")
            }
            if let grade { child.grade = grade }
            if let gender { child.gender = gender }
            return child
        }
    }
}
