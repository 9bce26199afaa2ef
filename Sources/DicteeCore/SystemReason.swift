import Foundation

/// The system's reason for a failed call, `errno` as the family reads it: the common file and
/// disk errors in the interface's language ("permission refusée" / "permission denied"; the
/// English text is glibc's `strerror` text, lower case), any other as `strerror` gives it
/// (errno(3), POSIX.1-2017).
/// - Parameter code: an `errno` value, e.g. `EACCES`.
/// - Returns: a lower-case phrase without a final period.
public func systemReason(_ code: Int32) -> String {
    switch code {
    case ENOENT: return tr("no such file or directory")
    case ENOTDIR: return tr("not a directory")
    case EACCES, EPERM: return tr("permission denied")
    case EROFS: return tr("read-only file system")
    case ENOSPC: return tr("no space left on device")
    case EDQUOT: return tr("disk quota exceeded")
    case EISDIR: return tr("is a directory")
    case ENAMETOOLONG: return tr("file name too long")
    case EIO: return tr("input/output error")
    case EEXIST: return tr("file exists")
    default: return String(cString: strerror(code)).lowercased()
    }
}
