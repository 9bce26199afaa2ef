import DicteeCore
import Foundation

/// Writing a page the user asked for (`--html PATH`): an existing path must be a regular file we
/// may write (through a symbolic link, the link's target is replaced); a directory, a device or a
/// read-only file is refused. The file is replaced atomically, mode 0600 (it names a child).
enum PageFile {
    /// Writes `text` to `path`.
    /// - Throws: 74 (`ioError`) naming the path when it is not a regular writable file or the
    ///   write fails.
    static func write(_ text: String, to path: String) throws(CommandFailure) {
        var target = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let type = (try? FileManager.default.attributesOfItem(atPath: target))?[.type] as? FileAttributeType
            guard !isDirectory.boolValue, type == .typeRegular else {
                throw CommandFailure(.ioError, tr("%@: not a regular file; give the path of the page to write", path))
            }
            guard FileManager.default.isWritableFile(atPath: path) else {
                throw CommandFailure(.ioError, tr("%@: the file is read-only; choose another path", path))
            }
        }
        do { try PrivateFile.replace(target, with: Data(text.utf8), createFolders: false) } catch { throw .cannotWrite(error) }
    }
}
