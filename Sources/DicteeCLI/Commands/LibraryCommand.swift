import Dictation
import DicteeCore
import Foundation
import Household
import PrivacyFilter

extension Dictee {
    /// `dictee library check [--dir DIR] [--grade G] [--id ID]`: the handwritten library's proof
    /// for someone writing texts: every text rendered for every fitting phrase and sample label,
    /// both genders, names with a vowel and a mute h, and every day form of its `time:`
    /// (`Library.renderings`), through the whole validator with 3 trap sites per listed skill;
    /// then the count of texts per kind and time. Exit status: 0 every rendering passes, 1 some
    /// fail, 64 usage, 65 a library file does not parse, 69 the lexicon or the dictionary is
    /// missing.
    struct LibraryCommand: Command {
        static let name = "library"
        static var summary: String { tr("summary.library") }
        static let options = OptionSpec(valued: ["dir", "grade", "id"], flags: [])
        static var help: String { tr("help.library") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            guard arguments.positionals == ["check"] else {
                throw CommandFailure(.usage, tr("library takes one subcommand: check"), hint: "dictee library check --grade ce2")
            }
            var grade: Grade?
            if let g = arguments.values["grade"] {
                guard let parsed = Grade(parsing: g) else { throw CommandFailure(.usage, tr("--grade must be CP, CE1, CE2, CM1 or CM2")) }
                grade = parsed
            }
            let ids = Set((arguments.values["id"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            let library: Library
            do {
                library = try Library.bundled(directory: arguments.values["dir"].map { URL(fileURLWithPath: $0) }, grades: grade.map { [$0] })
            } catch {
                throw CommandFailure(.dataError, "\(error)")
            }
            var selected = library
            selected.texts = library.texts.filter { (grade == nil || $0.grade == grade) && (ids.isEmpty || ids.contains($0.id)) }
            if let missing = ids.sorted().first(where: { id in !library.texts.contains { $0.id == id } }) {
                throw CommandFailure(.usage, tr("no text has the id '%@'", String(missing.prefix(60))))
            }
            let phrases = Whitelist.bundled.canonicalPhrases.map {
                (phrase: $0.phrase, grammar: $0.grammar, slot: $0.slot == .none ? nil as String? : $0.slot.rawValue)
            }
            let renderings: [LibraryRendering]
            do {
                renderings = try selected.renderings(phrases: phrases, labels: Library.sampleLabels, sitesPerTarget: 3)
            } catch {
                throw CommandFailure(.dataError, "\(error)")
            }
            let validator = try household { () throws(HouseholdError) in
                try Validators.make(environment: context.environment, warn: { output.warning($0) })
            }
            defer { validator.close() }
            let results = validator.check(renderings.map { ($0.draft, $0.plan) })
            var failing: [String: [(LibraryRendering, [Finding])]] = [:]
            var count: [String: Int] = [:]
            for (r, findings) in zip(renderings, results) {
                count[r.text.id, default: 0] += 1
                if !findings.isEmpty { failing[r.text.id, default: []].append((r, findings)) }
            }
            for text in selected.texts {
                guard let fails = failing[text.id] else {
                    output.line(tr("%@: ok (%ld renderings)", text.id, count[text.id] ?? 0))
                    continue
                }
                output.line(tr("%@: %ld of %ld renderings fail", text.id, fails.count, count[text.id] ?? 0))
                for (r, findings) in fails.prefix(4) {
                    let day = r.plan.date.map { " / " + $0.dayPhrase + ($0.time == .past ? " (passé)" : " (à venir)") } ?? ""
                    output.line("  \(r.plan.child.firstName) / \(r.plan.moment.phrase)\(day):")
                    for f in findings { output.line("    \(f.description)") }
                    output.line("    « \(r.draft.text) »")
                }
                if fails.count > 4 {
                    var phrases: [String] = []
                    for (r, _) in fails where !phrases.contains(r.plan.moment.phrase) { phrases.append(r.plan.moment.phrase) }
                    output.line("  " + tr("failing phrases: %@", phrases.joined(separator: "; ")))
                }
            }
            let unfit = selected.texts.filter { count[$0.id] == nil }
            for text in unfit { output.line(tr("%@: fits no phrase nor sample label", text.id)) }
            // Texts per kind and time, for the coverage of Docs/library-format.md.
            output.line("")
            for g in Grade.allCases where grade == nil || grade == g {
                let texts = selected.texts.filter { $0.grade == g }
                guard !texts.isEmpty else { continue }
                output.line(tr("%@: %ld texts", g.rawValue, texts.count))
                for kind in library.knownKinds {
                    let k = texts.filter { $0.kinds.contains(kind) }
                    let times = TextTime.allCases.map { t in "\(t.rawValue) \(k.filter { $0.time == t }.count)" }.joined(separator: ", ")
                    output.line("  \(kind): \(k.count) (\(times))")
                }
            }
            output.line(tr("failing: %ld of %ld texts; %ld renderings", failing.count + unfit.count, selected.texts.count, renderings.count))
            return failing.isEmpty && unfit.isEmpty ? .ok : .itemErrors
        }
    }
}
