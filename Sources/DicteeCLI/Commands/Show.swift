import DicteeCore
import Foundation
import Household

extension Dictee {
    /// `dictee show ID [--sheet] [--html PATH]`: a dictation for the parent to read aloud, its trap
    /// sites marked and listed; a clean copy for the child's correction; or a printable A4 page.
    struct Show: Command {
        static let name = "show"
        static let summary = "a dictation to read aloud (trap sites marked), a clean copy, or an A4 page"
        static let options = OptionSpec(valued: ["html", "tz"], flags: ["sheet"])
        static let help = """
            usage: dictee show ID [--sheet] [--html PATH] [--tz IANA]

            Prints the dictation for the parent to read aloud: its title, the child, the
            moment and its date, the text with each trap site in brackets and numbered
            ([a]¹), and the list of the sites (what the child could get wrong there). The
            numbers are the ones 'dictee grade' asks for.

            options:
              --sheet      a clean copy (title and text, no marks) to correct the child's
                           dictation afterwards
              --html PATH  writes a printable A4 page: the title and the text in large type,
                           then, on a second page, the marked text and the trap list for the
                           parent. It uses
                           nothing from the network; open it in a browser and print it.
              --tz IANA    the zone of the date (default: the zone of the last ingest)

            example:
              dictee show 12 --html dictee-12.html

            """

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure) -> ExitCode {
            let output = context.output
            if let path = arguments.values["html"], path.isEmpty { throw .usage("--html needs a file path") }
            let (_, dictation, child, zone) = try DeskOptions.openDictation(arguments, context, command: "show")
            let sheet = Desk.sheet(dictation, child: child, zone: zone)
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
            output.write(arguments.flags.contains("sheet") ? sheet.cleanCopy() : sheet.readAloud(color: output.colorOutput))
            return .ok
        }
    }
}
