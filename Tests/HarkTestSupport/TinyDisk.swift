import Foundation

/// A small tmpfs, nearly full: the honest way to fill a disk. Needs root
/// (CI and the dev machines run as root); elsewhere `init` throws
/// `TinyDisk.Unavailable`, which tests turn into a skip.
public final class TinyDisk {
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public let folder: ScratchFolder

    public init(kilobytes: Int, leaveFreeKilobytes: Int) throws {
        folder = try ScratchFolder()
        let (status, output) = try ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder.url.path])
        guard status == 0 else { throw Unavailable(description: "cannot mount a tmpfs here: \(output)") }
        // Fill all but `leaveFreeKilobytes`.
        let filler = Data(count: (kilobytes - leaveFreeKilobytes) * 1024 - 4096)
        _ = FileManager.default.createFile(atPath: folder.path("filler"), contents: filler)
    }

    /// Fills the disk further, to leave about `kilobytes` free (for a test
    /// that sets something up on it first).
    public func fill(leavingFreeKilobytes kilobytes: Int) {
        var stats = statvfs()
        guard statvfs(folder.url.path, &stats) == 0 else { return }
        let free = Int(stats.f_bavail) * Int(stats.f_frsize)
        guard free > kilobytes * 1024 else { return }
        _ = FileManager.default.createFile(atPath: folder.path("filler-\(UUID().uuidString)"),
                                           contents: Data(count: free - kilobytes * 1024))
    }

    deinit { _ = try? ChildProcess.run("/bin/umount", [folder.url.path]) }

    public func path(_ name: String) -> String { folder.path(name) }
}
