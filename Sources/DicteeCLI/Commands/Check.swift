import Dictation
import DicteeCore
import Foundation
import French
import PrivacyFilter

extension Dictee {
    /// `dictee check --child NAME --moment PHRASE [--skills ID,ID] [--json] FILE|-`: runs the
    /// validator's eight steps on a text someone wrote, for that child's grade and gender.
    ///
    /// JSON contract (later checks rely on it exactly):
    /// `{"passed": bool, "findings": [{"step": id, "message": string}]}` with the step ids
    /// vocabulaire, temps, longueur, registre, competences, prenom, moment, orthographe_grammaire.
    /// Exit status: 0 every step passes, 1 a step fails, 64 usage, 65 unreadable text file,
    /// 69 the lexicon or the French dictionary is missing.
    struct Check: Command {
        static let name = "check"
        static let summary = "run the validator's eight steps on a dictation text"
        /// The largest text `check` reads, in bytes (a CM2 dictation is about 600).
        static let maximumBytes = 100_000
        static let options = OptionSpec(valued: ["child", "moment", "skills", "grade", "gender", "sites"], flags: ["json"])
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
                               "le cours de judo", "l'anniversaire de Tom"
              --skills IDS     target skills, comma-separated (see Docs/trap-sites.md), e.g.
                               homophones_a_a,accord_pp_etre; each needs --sites trap sites
              --sites N        trap sites required per target skill (default 2)
              --grade G        CP, CE1, CE2, CM1 or CM2 (instead of the stored child's)
              --gender f|m     the child's gender (instead of the stored child's)
              --json           {"passed": bool, "findings": [{"step": id, "message": string}]}

            exit status: 0 every step passes, 1 a step fails, 64 usage (unknown child, moment or
            skill, a skill not taught at the grade), 65 unreadable, non-UTF-8 or over-100-KB text,
            69 the Lexique table (Data/lexique-3.83.bin, or $DICTEE_LEXICON) or the French
            dictionary is missing.

            example:
              dictee check --child Léa --moment "la sortie piscine" --skills homophones_a_a texte.txt

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) -> ExitCode {
            let output = context.output
            guard arguments.positionals.count == 1 else {
                output.error("check needs one text file, or - for stdin")
                output.hint("dictee check --child Léa --moment \"la sortie piscine\" texte.txt")
                return .usage
            }
            guard let name = arguments.values["child"], !name.isEmpty else {
                output.error("check needs --child NAME")
                return .usage
            }
            guard PrivacyFilter().acceptsName(name) else {
                output.error("'\(name.prefix(40))' is not a first name: a capital letter, letters only, at most one hyphen, 2 to 20 letters")
                return .usage
            }
            guard let momentText = arguments.values["moment"] else {
                output.error("check needs --moment PHRASE, a canonical phrase such as \"la sortie piscine\"")
                return .usage
            }
            guard let moment = momentPhrase(momentText, output) else { return .usage }
            var targets: [SkillID] = []
            for id in (arguments.values["skills"] ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !id.isEmpty {
                guard let skill = SkillID(rawValue: id) else {
                    var message = "unknown skill '\(id)'"
                    if let near = ArgumentParser.nearest(id, in: SkillID.allCases.map(\.rawValue)) { message += "; did you mean '\(near)'?" }
                    output.error(message)
                    return .usage
                }
                if !targets.contains(skill) { targets.append(skill) }
            }
            var sites = 2
            if let s = arguments.values["sites"] {
                guard let n = Int(s), n >= 1, n <= 20 else {
                    output.error("--sites needs a number from 1 to 20")
                    return .usage
                }
                sites = n
            }
            guard let child = resolveChild(name, arguments, context) else { return .usage }

            // The text.
            let path = arguments.positionals[0]
            let text: String
            if path == "-" {
                guard let input = context.readStandardInput() else {
                    output.error("check could not read the text on stdin")
                    return .dataError
                }
                guard !input.unicodeScalars.contains("\u{FFFD}") else {
                    output.error("stdin: not UTF-8 text")
                    return .dataError
                }
                text = input
            } else {
                if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > Check.maximumBytes {
                    output.error("\(path): \(size) bytes; a dictation text has at most \(Check.maximumBytes) bytes")
                    return .dataError
                }
                guard let data = FileManager.default.contents(atPath: path) else {
                    output.error("\(path): cannot read the file")
                    return .dataError
                }
                guard let decoded = String(data: data, encoding: .utf8) else {
                    output.error("\(path): not UTF-8 text")
                    return .dataError
                }
                text = decoded
            }
            guard text.utf8.count <= Check.maximumBytes else {
                output.error("\(path == "-" ? "stdin" : path): \(text.utf8.count) bytes; a dictation text has at most \(Check.maximumBytes) bytes")
                return .dataError
            }

            let validator: Validator
            switch Dictee.makeValidator(context) {
            case .success(let v): validator = v
            case .failure(let code): return code
            }
            if let skill = targets.first(where: { !$0.isTaught(at: child.grade) }) {
                output.error("\(skill.rawValue) is taught from \(skill.introducedIn.rawValue) on; a \(child.grade.rawValue) text cannot target it")
                return .usage
            }
            let plan = DictationPlan(child: child, moment: moment, targets: targets, sitesPerTarget: sites)
            let findings = validator.check(Draft(text: text), plan: plan)
            if arguments.flags.contains("json") {
                let list = findings.map {
                    JSONWriter.object([("step", .string($0.step.rawValue)), ("message", .string($0.message))])
                }
                output.line("{\"passed\":\(findings.isEmpty ? "true" : "false"),\"findings\":[\(list.joined(separator: ","))]}")
            } else if findings.isEmpty {
                output.line("ok: the text passes the eight steps for \(child.grade.rawValue)")
            } else {
                for f in findings { output.line("\(f.step.rawValue): \(f.message)") }
            }
            return findings.isEmpty ? .ok : .itemErrors
        }

        /// The moment from its canonical phrase, possibly with a friend's name after a `de`/`chez`
        /// slot ("l'anniversaire de Tom").
        static func momentPhrase(_ text: String, _ output: OutputSink) -> MomentPhrase? {
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
                    if PrivacyFilter().acceptsName(friend) || Validator.familyWords.contains(friend.lowercased()) {
                        return MomentPhrase(phrase: p.phrase + join + friend, grammar: p.grammar, friendName: friend)
                    }
                }
            }
            var message = "'\(wanted)' is not a canonical phrase of the whitelist"
            if let near = ArgumentParser.nearest(wanted, in: phrases.map(\.phrase)) { message += "; did you mean '\(near)'?" }
            output.error(message)
            output.hint("the phrases are the third column of Whitelists/moments.tsv")
            return nil
        }

        static func resolveChild(_ name: String, _ arguments: ParsedArguments, _ context: CommandContext) -> Child? {
            let output = context.output
            let grade = arguments.values["grade"].flatMap(Grade.init(parsing:))
            let gender = arguments.values["gender"].flatMap { Gender(rawValue: $0.lowercased()) }
            if arguments.values["grade"] != nil, grade == nil {
                output.error("--grade must be CP, CE1, CE2, CM1 or CM2")
                return nil
            }
            if arguments.values["gender"] != nil, gender == nil {
                output.error("--gender must be f or m")
                return nil
            }
            if let grade, let gender { return Child(firstName: name, gender: gender, grade: grade) }
            var stored: Child?
            if FileManager.default.fileExists(atPath: StateOptions.path(context)), case .success(let store) = StateOptions.open(context, create: false) {
                stored = (try? store.children())?.first { $0.firstName.lowercased() == name.lowercased() }
            }
            guard var child = stored else {
                output.error("no child named '\(name)' in the state; add one with 'dictee child add', or give --grade and --gender")
                return nil
            }
            if let grade { child.grade = grade }
            if let gender { child.gender = gender }
            return child
        }
    }

    /// The validator with the installed lexicon, Hunspell's French dictionary and Grammalecte.
    static func makeValidator(_ context: CommandContext) -> Result<Validator, ExitCode> {
        let output = context.output
        // Grammalecte's worker loads (0.5 s of CPU) while the lexicon and Hunspell do.
        let grammar = GrammarChecker.isAvailable() ? GrammarChecker() : nil
        grammar?.prepare()
        guard let url = Lexicon.locate(environment: context.environment, executable: Bundle.main.executableURL) else {
            output.error("the Lexique 3.83 table is not installed (Data/lexique-3.83.bin)")
            output.hint("run Scripts/setup in the checkout, set DICTEE_LEXICON to the file, or copy it to ~/.local/share/dictee/lexique-3.83.bin")
            return .failure(.unavailable)
        }
        let lexicon: Lexicon
        do {
            lexicon = try Lexicon(contentsOf: url)
        } catch {
            output.error("\(error)")
            return .failure(.unavailable)
        }
        let spelling: SpellChecker
        do {
            spelling = try SpellChecker.french()
        } catch {
            output.error("\(error)")
            return .failure(.unavailable)
        }
        let gate: GrammarGate
        if let grammar {
            gate = .checker(grammar)
        } else {
            output.warning("Grammalecte is not installed (apt-get install python3-grammalecte): no text can pass the grammar check")
            gate = .unavailable("Grammalecte n'est pas installé")
        }
        return .success(Validator(lexicon: lexicon, spelling: spelling, grammar: gate, registers: Whitelist.bundledRegisters))
    }
}
