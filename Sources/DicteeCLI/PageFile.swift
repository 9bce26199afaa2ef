import DicteeCore
import Foundation

/// Writing a page the user asked for (`--html PATH`: `show`, `sheets`, `report`): an existing path
/// must be a regular file we may write (through a symbolic link, the link's target is replaced); a
/// directory, a device or a read-only file is refused. The file is replaced atomically, mode 0600
/// (it names a child).
enum PageFile {
    /// Where the page of `--html PATH` is written: `path`, or the target of the symbolic link it
    /// is. Checked before anything is done, so that a command that serves dictations (`sheets`)
    /// does not serve them for a page it cannot write.
    /// - Throws: 74 (`ioError`) naming the path for a directory, a device or a read-only file.
    static func target(_ path: String) throws(CommandFailure) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return path }
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let type = (try? FileManager.default.attributesOfItem(atPath: target))?[.type] as? FileAttributeType
        guard !isDirectory.boolValue, type == .typeRegular else {
            throw CommandFailure(.ioError, tr("%@: not a regular file; give the path of the page to write", path))
        }
        guard FileManager.default.isWritableFile(atPath: path) else {
            throw CommandFailure(.ioError, tr("%@: the file is read-only; choose another path", path))
        }
        return target
    }

    /// Writes `text` to a target checked by ``target(_:)``, readable by its owner only.
    /// - Throws: 74 (`cannotWrite`) when it cannot be written.
    static func write(_ text: String, toTarget target: String) throws(CommandFailure) {
        do { try PrivateFile.replace(target, with: Data(text.utf8), createFolders: false) } catch { throw .cannotWrite(error) }
    }

    /// Checks `path` (``target(_:)``) and writes `text` there.
    static func write(_ text: String, to path: String) throws(CommandFailure) {
        try write(text, toTarget: try target(path))
    }
}
