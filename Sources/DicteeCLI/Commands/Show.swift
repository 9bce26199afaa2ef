import Dictation
import DicteeCore
import Foundation
import Household

extension Dictee {
    /// `dictee show ID [--sheet | --html PATH | --json]`: a dictation for the parent to read aloud
    /// (whose it is and its day, the mots donnés, how to dictate, the trap sites marked and listed);
    /// a clean copy for the child's correction; a printable A4 page; or the same as JSON.
    /// Exit status: 0 shown, 64 usage (two modes at once, an unknown dictation), 69 the lexicon or
    /// the French dictionary is missing (the mots donnés need them; `--sheet` does not).
    struct Show: Command {
        static let name = "show"
        static let summary = "a dictation to read aloud (trap sites marked), a clean copy, or an A4 page"
        static let options = OptionSpec(valued: ["html", "tz"], flags: ["sheet", "json"])
        static let help = """
            usage: dictee show ID [--sheet | --html PATH | --json] [--tz IANA]

            Prints the dictation for the parent to read aloud: whose dictation it is and
            its date, the title, the mots donnés (the words to write on the board before
            dictating: the names, the moment's words, the words above the child's grade),
            how to dictate, the text with each trap site in brackets and numbered ([a]¹),
            and the list of the sites (what the child could get wrong there). The numbers
            are the ones 'dictee grade' asks for.

            options:
              --sheet      a clean copy (title and text, no marks) to correct the child's
                           dictation afterwards
              --html PATH  writes a printable A4 page: whose dictation and its date, the
                           title and the text in large type, then, on a second page for
                           the parent, the mots donnés, how to dictate, the marked text and
                           the trap list. It uses nothing from the network; open it in a
                           browser and print it.
              --json       {"dictation", "child", "grade", "title", "moment", "date",
                           "text", "mots_donnes", "sites": [{"number", "skill", "label",
                           "word", "start", "end", "choice", "alternatives"}]}
              --tz IANA    the zone of the date (default: the zone of the last ingest)

            example:
              dictee show 12 --html dictee-12.html

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            if let path = arguments.values["html"], path.isEmpty { throw .usage("--html needs a file path") }
            let modes = [arguments.values["html"] != nil, arguments.flags.contains("sheet"), arguments.flags.contains("json")]
            if modes.filter({ $0 }).count > 1 { throw .usage("give only one of --sheet, --html and --json") }
            let (store, dictation, child, zone) = try DeskOptions.openDictation(arguments, context, command: "show")
            if arguments.flags.contains("sheet") {
                output.write(Desk.sheet(dictation, child: child, zone: zone).cleanCopy())
                return .ok
            }
            // The mots donnés: the validator's vocabulary step decides which words are given.
            let words = try household { () throws(HouseholdError) in
                Desk.motsDonnes(dictation, child: child, store, validator: try Validators.forWords(environment: context.environment))
            }
            let sheet = Desk.sheet(dictation, child: child, zone: zone, motsDonnes: words)
            if arguments.flags.contains("json") {
                output.line(json(sheet, date: zone.date(of: dictation.start).description))
                return .ok
            }
            if let path = arguments.values["html"] {
                // An existing path must be a regular file we may write (through a symbolic link:
                // the link's target is replaced); a directory, a device or a read-only file is refused.
                var target = path
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                    target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                    let type = (try? FileManager.default.attributesOfItem(atPath: target))?[.type] as? FileAttributeType
                    guard !isDirectory.boolValue, type == .typeRegular else {
                        throw CommandFailure(.ioError, "\(path): not a regular file; give the path of the page to write")
                    }
                    guard FileManager.default.isWritableFile(atPath: path) else {
                        throw CommandFailure(.ioError, "\(path): the file is read-only; choose another path")
                    }
                }
                do { try PrivateFile.replace(target, with: Data(sheet.html().utf8), createFolders: false) } catch { throw .cannotWrite(error) }
                output.line("wrote \(path)")
                return .ok
            }
            output.write(sheet.readAloud(color: output.colorOutput))
            return .ok
        }

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
