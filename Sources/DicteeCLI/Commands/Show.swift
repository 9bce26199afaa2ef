import Dictation
import DicteeCore
import Foundation
import Household
import Store

extension Dictee {
    /// `dictee show ID [ID…] [--sheet | --html PATH | --json]`: dictations for the parent to read
    /// aloud (whose it is and its day, the mots donnés, how to dictate, the trap sites marked and
    /// listed); clean copies for the child's correction; one printable A4 page per dictation in
    /// one file (the children's pages, then the parent's); or the same as JSON, one object a line.
    /// Exit status: 0 shown, 64 usage (two modes at once, an unknown dictation), 69 the lexicon or
    /// the French dictionary is missing (the mots donnés need them; `--sheet` does not), 74 the
    /// page cannot be written.
    struct Show: Command {
        static let name = "show"
        static var summary: String { tr("dictations to read aloud (trap sites marked), clean copies, or A4 pages") }
        static let options = OptionSpec(valued: ["html", "tz"], flags: ["sheet", "json"])
        static var help: String { tr("help.show") }

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            if let path = arguments.values["html"], path.isEmpty { throw .usage(tr("--html needs a file path")) }
            let modes = [arguments.values["html"] != nil, arguments.flags.contains("sheet"), arguments.flags.contains("json")]
            if modes.filter({ $0 }).count > 1 { throw .usage(tr("give only one of --sheet, --html and --json")) }
            var ids: [Int64] = []
            for word in arguments.positionals {
                guard let id = Int64(word), id > 0 else {
                    throw .usage(tr("'%@' is not a dictation id (a number, as 'dictee pick' prints it)", word), hint: "dictee show 12 13")
                }
                ids.append(id)
            }
            guard !ids.isEmpty else {
                throw .usage(tr("show needs one or more dictation ids (numbers, as 'dictee pick' prints them)"), hint: "dictee show 12 13")
            }
            var target: String?
            if let path = arguments.values["html"] { target = try PageFile.target(path) }
            let store = try StateOptions.open(context, create: false)
            // Every id is checked before anything is printed: an unknown one is named, alone.
            let found = try household { () throws(HouseholdError) in
                var found: [(dictation: DictationRecord, child: Child)] = []
                for id in ids { found.append(try Desk.dictation(id, store)) }
                return found
            }
            let zone = try TimeOptions.storedZone(arguments, store, context)
            if arguments.flags.contains("sheet") {
                output.write(found.map { Desk.sheet($0.dictation, child: $0.child, zone: zone).cleanCopy() }.joined(separator: pageSeparator))
                return .ok
            }
            // The mots donnés: the validator's vocabulary step decides which words are given.
            let sheets = try household { () throws(HouseholdError) in
                let validator = try Validators.forWords(environment: context.environment)
                return found.map { Desk.printable($0.dictation, child: $0.child, store, zone: zone, validator: validator) }
            }
            if arguments.flags.contains("json") {
                for (sheet, (dictation, _)) in zip(sheets, found) {
                    output.line(json(sheet, date: zone.date(of: dictation.start).description))
                }
                return .ok
            }
            if let path = arguments.values["html"], let target {
                try PageFile.write(DictationSheet.html(sheets), toTarget: target)
                output.line(tr("wrote %@", path))
                return .ok
            }
            output.write(sheets.map { $0.readAloud(color: output.colorOutput) }.joined(separator: pageSeparator))
            return .ok
        }

        /// Between two dictations on stdout: a form feed on its own line (a new page when the
        /// output goes to a printer).
        static let pageSeparator = "\u{0C}\n"

        /// The sheet as one JSON object: the text, the mots donnés and the numbered sites
        /// (`start`/`end`: Unicode scalar offsets into `text`, half-open).
        static func json(_ sheet: DictationSheet, date: String) -> String {
            let sites = sheet.sites.enumerated().map { i, site in
                JSONWriter.object([
                    ("number", .int(i + 1)), ("skill", .string(site.skill.rawValue)), ("label", .string(site.skill.label)),
                    ("word", .string(site.word)), ("start", .int(site.start)), ("end", .int(site.end)),
                    ("choice", site.choice.map { .string($0) } ?? .null),
                    ("alternatives", .raw("[" + site.alternatives.map(JSONWriter.quoted).joined(separator: ",") + "]")),
                ])
            }
            return JSONWriter.object([
                ("dictation", .int(Int(sheet.id))), ("child", .string(sheet.child.firstName)),
                ("grade", .string(sheet.child.grade.rawValue)), ("title", .string(sheet.title)),
                ("moment", .string(sheet.moment)), ("date", .string(date)), ("text", .string(sheet.text)),
                ("mots_donnes", .raw("[" + (sheet.motsDonnes ?? []).map(JSONWriter.quoted).joined(separator: ",") + "]")),
                ("sites", .raw("[" + sites.joined(separator: ",") + "]")),
            ])
        }
    }
}
