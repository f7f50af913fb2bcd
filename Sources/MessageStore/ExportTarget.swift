import Foundation

/// Where an export (or any file Hark writes for the user) may go, and how it
/// gets there. Only regular files are written: a device, a pipe, a socket, a
/// symbolic link or a folder at the path is refused, even when replacing is
/// asked for (`hark export ID /dev/null --force` as root would otherwise make
/// /dev/null a regular file). The content is written beside the target under
/// a temporary name and moved into place in one step, so a failed write
/// leaves whatever was there untouched.
public enum ExportTarget {
    /// Throws unless `path` can be written: its folder exists, and nothing is
    /// there, or a regular file is and `overwrite` allows replacing it.
    /// (A stand-in for a name that is not UTF-8 is checked by that name:
    /// `StandInPaths`.)
    public static func check(_ path: String, overwrite: Bool) throws(StoreError) {
        var status = stat()
        guard StandInPaths.withSystemPath(path, { lstat($0, &status) }) == 0 else {
            guard errno == ENOENT else { throw .file(path: path, detail: String(cString: strerror(errno))) }
            let folder = StandInPaths.folder(of: path)
            var folderStatus = stat()
            guard stat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
                throw .file(path: path, detail: "the folder \(folder) does not exist")
            }
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            guard overwrite else { throw .exists(path: path) }
        case S_IFDIR:
            throw .file(path: path, detail: "is a folder")
        case S_IFLNK:
            throw .file(path: path, detail: "is a symbolic link; only a regular file is replaced")
        default:
            throw .file(path: path, detail: "is a special file (a device, pipe or socket); only a regular file is replaced")
        }
    }

    /// A name beside `path` for the content on its way there: same folder, so
    /// the final move is a rename on one file system.
    public static func temporaryPath(beside path: String) -> String {
        let target = URL(fileURLWithPath: path)
        return URL(fileURLWithPath: StandInPaths.folder(of: path))
            .appendingPathComponent(".\(target.lastPathComponent).hark-export-\(UUID().uuidString.prefix(8))").path
    }

    /// Moves the finished `partial` to `path`: a new name is linked, never
    /// replacing what may have appeared there since the check; a replacement
    /// is a rename over a regular file, checked again just before. `partial`
    /// is gone afterwards, whatever happens.
    public static func place(_ partial: String, at path: String, overwrite: Bool) throws(StoreError) {
        defer { unlink(partial) }
        if overwrite {
            var status = stat()
            if StandInPaths.withSystemPath(path, { lstat($0, &status) }) == 0 {
                try check(path, overwrite: true)
                guard StandInPaths.withSystemPath(path, { rename(partial, $0) }) == 0 else {
                    throw .file(path: path, detail: String(cString: strerror(errno)))
                }
                return
            }
        }
        guard StandInPaths.withSystemPath(path, { link(partial, $0) }) == 0 else {
            let error = errno
            if error == EEXIST { try check(path, overwrite: overwrite) }
            throw .file(path: path, detail: String(cString: strerror(error)))
        }
    }
}
