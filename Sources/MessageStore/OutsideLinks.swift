import Foundation

extension MessageStore {
    /// Whether `path` is a symbolic link whose file (after every link) is not
    /// in `folder`, or is nowhere. Recovery does not adopt those: the store
    /// would hand out, and its exports read, a file it does not own.
    static func isLinkLeadingOutside(_ path: String, folder: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return false }
        guard let resolved = Self.resolved(path), let base = Self.resolved(folder) else { return true }
        return !resolved.hasPrefix(base + "/")
    }

    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
