import CHelpers
import Foundation
import Localization

/// Where an export (or any file Hark writes for the user) may go, and how it
/// gets there. Only regular files are written: a device, a pipe, a socket, a
/// symbolic link or a folder at the path is refused, even when replacing is
/// asked for (`hark export ID /dev/null --force` as root would otherwise make
/// /dev/null a regular file). The content is written beside the target under
/// a short temporary name (`ExportWriter`) and moved into place in one step,
/// so a failed write leaves whatever was there untouched.
public enum ExportTarget {
    /// Throws unless `path` can be written: its folder exists, and nothing is
    /// there, or a regular file is and `overwrite` allows replacing it.
    /// (A stand-in for a name that is not UTF-8 is checked, and everything
    /// below done, by that name: `StandInPaths`.)
    public static func check(_ path: String, overwrite: Bool) throws(StoreError) {
        var status = stat()
        guard StandInPaths.withSystemPath(path, { lstat($0, &status) }) == 0 else {
            guard errno == ENOENT else { throw .file(path: path, detail: String(cString: strerror(errno))) }
            let folder = StandInPaths.folder(of: path)
            var folderStatus = stat()
            guard stat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
                throw .file(path: path, detail: tr("the folder {folder} does not exist", ["folder": folder]))
            }
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            guard overwrite else { throw .exists(path: path) }
        case S_IFDIR:
            throw .file(path: path, detail: tr("is a folder"))
        case S_IFLNK:
            throw .file(path: path, detail: tr("is a symbolic link; only a regular file is replaced"))
        default:
            throw .file(path: path, detail: tr("is a special file (a device, pipe or socket); only a regular file is replaced"))
        }
    }

    /// What every temporary name begins with.
    static let temporaryPrefix = ".hark-export-"

    /// A temporary name for the folder of a target: 21 bytes whatever the
    /// target's length, so any name the file system takes can be exported to.
    static func temporaryName() -> String {
        temporaryPrefix + String(UInt32.random(in: .min ... .max), radix: 16).leftPadded(to: 8)
    }

    /// Whether `name` is one of Hark's temporary names: `.hark-export-` and 8
    /// hex digits, or, as earlier versions named them, the same after `.` and
    /// the target's name (`.long.mp3.hark-export-1A2B3C4D`).
    static func isTemporaryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let suffix = Array(temporaryPrefix.utf8)
        guard bytes.first == UInt8(ascii: "."), bytes.count >= suffix.count + 8 else { return false }
        let digits = bytes.suffix(8)
        guard digits.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) })
        else { return false }
        return bytes.dropLast(8).suffix(suffix.count).elementsEqual(suffix)
    }

    /// Removes Hark's temporary files in `folder`: what an export killed
    /// there left behind. The caller holds the folder's exclusive lock, so no
    /// Hark is writing into it now. Only regular files with Hark's names go.
    static func removeLeftovers(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where isTemporaryName(name) {
            let path = folder + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            unlink(path)
        }
    }

    /// Moves the finished `partial` to `path`. A new name never replaces what
    /// may have appeared there since the check: a rename that refuses to
    /// replace, or, on file systems without one (FAT, exFAT), the name claimed
    /// by an exclusive create and the partial renamed over that claim. A
    /// replacement is a rename over a regular file, checked again just before.
    /// On failure `partial` is left for the caller to remove.
    static func place(_ partial: String, at path: String, overwrite: Bool) throws(StoreError) {
        var status = stat()
        if overwrite, StandInPaths.withSystemPath(path, { lstat($0, &status) }) == 0 {
            try replace(path, with: partial)
            return
        }
        if StandInPaths.withSystemPath(path, { hark_rename_noreplace(partial, $0) }) == 0 { return }
        let error = errno
        if error == EEXIST {
            try check(path, overwrite: overwrite)  // not a regular file, or not to be replaced: says so
            return try replace(path, with: partial)  // appeared since the check, and may be replaced
        }
        guard error == EINVAL || error == ENOSYS || error == EOPNOTSUPP else {
            throw .file(path: path, detail: String(cString: strerror(error)))
        }
        try placeByClaiming(path, with: partial, overwrite: overwrite)
    }

    private static func replace(_ path: String, with partial: String) throws(StoreError) {
        try check(path, overwrite: true)
        guard StandInPaths.withSystemPath(path, { rename(partial, $0) }) == 0 else {
            throw .file(path: path, detail: String(cString: strerror(errno)))
        }
    }

    /// For file systems that cannot rename without replacing: an empty file
    /// made with `O_EXCL` holds the name, then the partial replaces it. Only
    /// that claim is ever replaced (its inode is checked just before).
    private static func placeByClaiming(_ path: String, with partial: String, overwrite: Bool) throws(StoreError) {
        let claim = StandInPaths.withSystemPath(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard claim >= 0 else {
            let error = errno
            if error == EEXIST {
                try check(path, overwrite: overwrite)
                return try replace(path, with: partial)
            }
            throw .file(path: path, detail: String(cString: strerror(error)))
        }
        var claimed = stat(), named = stat()
        fstat(claim, &claimed)
        close(claim)
        func stillClaimed() -> Bool {
            StandInPaths.withSystemPath(path, { lstat($0, &named) }) == 0
                && named.st_ino == claimed.st_ino && named.st_dev == claimed.st_dev
        }
        guard stillClaimed() else {
            throw .file(path: path, detail: tr("was taken by another program while it was being written"))
        }
        guard StandInPaths.withSystemPath(path, { rename(partial, $0) }) == 0 else {
            let error = errno
            if stillClaimed() { _ = StandInPaths.withSystemPath(path) { unlink($0) } }  // the empty claim, still ours
            throw .file(path: path, detail: String(cString: strerror(error)))
        }
    }
}

extension String {
    fileprivate func leftPadded(to count: Int) -> String {
        String(repeating: "0", count: max(0, count - self.count)) + self
    }
}
