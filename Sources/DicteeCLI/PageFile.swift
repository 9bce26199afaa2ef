import DicteeCore
import Foundation

/// Writing a page the user asked for (`--html PATH`: `show`, `sheets`, `report`): an existing path
/// must be a regular file we may write (through a symbolic link, the link's target is replaced); a
/// directory, a device, a read-only file, a file that is not an HTML page (the state given by
/// mistake) and a missing or read-only folder are refused. The file is replaced atomically, mode 0600
/// (it names a child).
enum PageFile {
    /// Where the page of `--html PATH` is written: `path`, or the target of the symbolic link it
    /// is. Checked before anything is done, so that a command that serves dictations (`sheets`)
    /// does not serve them for a page it cannot write.
    /// - Throws: 74 (`ioError`) naming the path for a directory, a device or a read-only file.
    static func target(_ path: String) throws(CommandFailure) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            // A new file: its folder must be there and writable now, not found missing after
            // the dictations were served.
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var folderIsDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &folderIsDirectory), folderIsDirectory.boolValue else {
                throw CommandFailure(.ioError, tr("%@: the folder %@ does not exist", path, folder))
            }
            guard FileManager.default.isWritableFile(atPath: folder) else {
                throw CommandFailure(.ioError, tr("%@: the folder %@ cannot be written", path, folder))
            }
            return path
        }
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let type = (try? FileManager.default.attributesOfItem(atPath: target))?[.type] as? FileAttributeType
        guard !isDirectory.boolValue, type == .typeRegular else {
            throw CommandFailure(.ioError, tr("%@: not a regular file; give the path of the page to write", path))
        }
        guard FileManager.default.isWritableFile(atPath: path) else {
            throw CommandFailure(.ioError, tr("%@: the file is read-only; choose another path", path))
        }
        // Only a page replaces a page: the state, a calendar, the config or the audit file given
        // by mistake is never overwritten.
        guard isPage(target) else {
            throw CommandFailure(.ioError, tr("%@: this file exists and is not an HTML page; dictee replaces only a page it could have written, choose another path", path))
        }
        return target
    }

    /// Whether the file at `path` is empty or starts (after white space) with `<!DOCTYPE html`
    /// or `<html`, in any case: the first 64 bytes are read.
    static func isPage(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        let text = String(decoding: head, as: UTF8.self).drop { $0.isWhitespace }.lowercased()
        return text.isEmpty || text.hasPrefix("<!doctype html") || text.hasPrefix("<html")
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
