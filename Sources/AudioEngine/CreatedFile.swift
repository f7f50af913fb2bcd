import Foundation
import Localization

/// A file this process created with `O_CREAT|O_EXCL`, open for writing, and
/// the device and inode it got: what lets a failure delete only its own
/// file, never one another process has since put at the same path.
final class CreatedFile {
    let path: String
    private(set) var descriptor: Int32
    private let device: UInt
    private let inode: UInt

    /// Creates `path` (0666 less the umask), refusing anything already there,
    /// a symbolic link included.
    init(exclusivelyAt path: String) throws(AudioError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Self.refusal(errno, path: path) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            unlink(path)
            throw .cannotWrite(path: path, detail: reason)
        }
        self.path = path
        self.descriptor = descriptor
        device = UInt(status.st_dev)
        inode = UInt(status.st_ino)
    }

    deinit { close() }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    /// Deletes the file, but only while the path still names the very file
    /// created here.
    func removeIfStillAtPath() {
        var status = stat()
        guard lstat(path, &status) == 0, UInt(status.st_dev) == device, UInt(status.st_ino) == inode else { return }
        unlink(path)
    }

    private static func refusal(_ error: Int32, path: String) -> AudioError {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        switch error {
        case EEXIST:
            return .cannotWrite(path: path, detail: tr("something of that name already exists"))
        case ENOENT, ENOTDIR:
            return .cannotWrite(path: path, detail: tr("the folder {folder} does not exist", ["folder": folder]))
        case EACCES, EPERM, EROFS:
            return .cannotWrite(path: path, detail: tr("the folder {folder} is not writable", ["folder": folder]))
        case ENOSPC, EDQUOT:
            return .diskFull(path: path)
        default:
            return .cannotWrite(path: path, detail: String(cString: strerror(error)))
        }
    }
}
