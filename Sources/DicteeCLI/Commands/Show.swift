import Dictation
import DicteeCore
import Foundation
import Ingest
import Store

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

        static func run(_ arguments: ParsedArguments, _ context: CommandContext) -> ExitCode {
            let output = context.output
            if let path = arguments.values["html"], path.isEmpty {
                output.error("--html needs a file path")
                return .usage
            }
            let (dictation, child, z): (StoredDictation, Child, CalendarZone)
            switch DictationDesk.openDictation(arguments, context, command: "show") {
            case .success(let opened): (dictation, child, z) = (opened.dictation, opened.child, opened.zone)
            case .failure(let code): return code
            }
            let sheet = DictationDesk.sheet(dictation, child: child, zone: z)
            if let path = arguments.values["html"] {
                // Written in place (never renamed over the path): an existing file must be a
                // regular file we may write; a directory, a device or a read-only file is refused.
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                    let type = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType
                    guard !isDirectory.boolValue, type == .typeRegular else {
                        output.error("\(path): not a regular file; give the path of the page to write")
                        return .usage
                    }
                    guard FileManager.default.isWritableFile(atPath: path) else {
                        output.error("\(path): the file is read-only; choose another path")
                        return .ioError
                    }
                }
                guard let handle = FileHandle(forWritingAtPath: path) ?? {
                    FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil
                }() else {
                    output.error("\(path): cannot create the file")
                    return .ioError
                }
                do {
                    try handle.truncate(atOffset: 0)
                    try handle.write(contentsOf: Data(sheet.html().utf8))
                    try handle.synchronize()
                    try handle.close()
                } catch {
                    try? handle.close()
                    output.error("\(path): cannot write the page (\(error.localizedDescription))")
                    return .ioError
                }
                output.line("wrote \(path)")
                return .ok
            }
            output.write(arguments.flags.contains("sheet") ? sheet.cleanCopy() : sheet.readAloud(color: output.colorOutput))
            return .ok
        }
    }
}
