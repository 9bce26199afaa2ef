import Foundation

/// Why a private file could not be written: the path and the system's reason (`strerror`, in
/// lower case). Never the content, which may name a child.
public struct FileWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file that could not be written.
    public var path: String
    /// What the system said (`permission denied`, `no space left on device`, `a directory`).
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { tr("%@: cannot write (%@)", path, reason) }
}

/// The one writer of the family's private files: the configuration, the audit file, the egress
/// log, the model server's log (emptied here, then appended to by the server) and the HTML
/// dictation page all go through it.
///
/// - `replace` writes a whole file atomically: a temporary file in the same folder, created with
///   `O_EXCL` and mode 0600, written, `fsync`ed, then renamed over the path; a reader never sees
///   half a file and a crash leaves the old one. The folder is created (mode 0700) when missing.
/// - `append` adds bytes at the end of a file opened with `O_APPEND`, creating it with mode 0600,
///   then `fsync`s: what an egress log promises was written is on disk before the request leaves.
///
/// Both refuse a path that is a directory, and never follow a symbolic link on the final
/// component when creating (`O_NOFOLLOW`).
/// - Warning: these files may name the family's children; 0600 keeps them to the account.
public enum PrivateFile {
    /// Replaces the file at `path` with `data`, atomically (see the type's summary).
    /// - Parameter createFolders: whether missing folders are created (mode 0700); when false, a
    ///   missing folder is an error (a mistyped path must not create folders).
    /// - Throws: `FileWriteError` naming the path.
    public static func replace(_ path: String, with data: Data, createFolders: Bool = true) throws(FileWriteError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        if let problem = notAFile(path, linkAllowed: true) { throw FileWriteError(path: path, reason: problem) }
        if !FileManager.default.fileExists(atPath: folder) {
            guard createFolders else { throw FileWriteError(path: path, reason: tr("the folder %@ does not exist", folder)) }
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw FileWriteError(path: path, reason: tr("cannot create the folder %@", folder))
            }
        }
        let temporary = folder + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw FileWriteError(path: path, reason: systemReason()) }
        var failure: String?
        if fchmod(fd, 0o600) != 0 { failure = systemReason() }
        if failure == nil { failure = writeAll(fd, data) }
        if failure == nil, fsync(fd) != 0 { failure = systemReason() }
        if close(fd) != 0, failure == nil { failure = systemReason() }
        if failure == nil, rename(temporary, path) != 0 { failure = systemReason() }
        if let failure {
            unlink(temporary)
            throw FileWriteError(path: path, reason: failure)
        }
    }

    /// Appends `data` to the file at `path` (created with mode 0600 when missing, its folder with
    /// mode 0700), then `fsync`s.
    /// - Throws: `FileWriteError` naming the path; nothing was appended then, or a partial line
    ///   whose end the next reader can detect (the call never claims success for it).
    public static func append(_ path: String, _ data: Data) throws(FileWriteError) {
        if let problem = notAFile(path, linkAllowed: false) { throw FileWriteError(path: path, reason: problem) }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw FileWriteError(path: path, reason: tr("cannot create the folder %@", folder))
            }
        }
        // O_NONBLOCK: a FIFO planted there fails at once instead of waiting for a reader.
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw FileWriteError(path: path, reason: systemReason()) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw FileWriteError(path: path, reason: tr("not a regular file"))
        }
        // A file that existed with a wider mode is narrowed: these files name children.
        var failure = fchmod(fd, 0o600) == 0 ? nil : systemReason()
        // A write that fails half way (a full disk) is cut back, so the file stays whole lines.
        let before = info.st_size
        if failure == nil {
            failure = writeAll(fd, data)
            if failure != nil { _ = ftruncate(fd, before) }
        }
        if failure == nil, fsync(fd) != 0 { failure = systemReason() }
        if close(fd) != 0, failure == nil { failure = systemReason() }
        if let failure { throw FileWriteError(path: path, reason: failure) }
    }

    /// Why `path` could not be appended to, or `nil` when it can (checked before anything is
    /// sent that must be logged first). A real probe, with no lasting effect: an existing file is
    /// opened for appending and closed; for a missing one, the missing folders (0700) and the
    /// file (0600) are created, then removed again. So the answer holds where permission bits do
    /// not tell (root, read-only or virtual file systems such as /proc).
    public static func appendProblem(_ path: String) -> String? {
        if let problem = notAFile(path, linkAllowed: false) { return problem }
        var info = stat()
        if lstat(path, &info) == 0 {
            let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { return systemReason() }
            close(fd)
            return nil
        }
        // The folders to create, outermost first.
        var missing: [String] = []
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty, folder != "/", !FileManager.default.fileExists(atPath: folder) {
            missing.insert(folder, at: 0)
            folder = (folder as NSString).deletingLastPathComponent
        }
        var created: [String] = []
        defer { for made in created.reversed() { rmdir(made) } }
        for made in missing {
            guard mkdir(made, 0o700) == 0 else { return "its folder cannot be created (\(systemReason()))" }
            created.append(made)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return systemReason() }
        close(fd)
        unlink(path)
        return nil
    }

    /// Why an existing `path` is not a file these writers may write, or `nil` (also when absent):
    /// a directory, a device, a FIFO or a socket never is; a symbolic link only where allowed
    /// (`replace` renames over the link itself, it never writes through it).
    static func notAFile(_ path: String, linkAllowed: Bool) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFLNK { return linkAllowed ? nil : tr("a symbolic link, not a file") }
        return LocalPath.notARegularFile(path)
    }

    private static func writeAll(_ fd: Int32, _ data: Data) -> String? {
        data.withUnsafeBytes { buffer -> String? in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return systemReason()
                }
                offset += n
            }
            return nil
        }
    }

    private static func systemReason() -> String { DicteeCore.systemReason(errno) }
}
