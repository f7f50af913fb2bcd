import Foundation

/// A real exFAT file system, as on a USB stick: an image file formatted by
/// `mkfs.exfat`, on a loop device, mounted through FUSE by `mount.exfat-fuse`
/// with the options a desktop uses for a stick (the kernel here has no FAT
/// driver). Needs root and /dev/fuse; elsewhere `init` throws
/// `ExFATStick.Unavailable`, which tests turn into a skip. Missing tools are
/// a failure: scripts/install-deps installs them. Call `unmount()` from the
/// test's tearDown (deinit does it too).
public final class ExFATStick {
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    private let scratch: ScratchFolder
    private var loopDevice: String?
    private var mounted = false
    /// Where the stick is mounted.
    public let folder: String

    public init(megabytes: Int = 64) throws {
        guard getuid() == 0 else { throw Unavailable(description: "mounting an exFAT image needs root") }
        guard access("/dev/fuse", R_OK | W_OK) == 0 else { throw Unavailable(description: "no /dev/fuse here") }
        scratch = try ScratchFolder()
        folder = scratch.path("stick")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let image = scratch.path("stick.img")
        guard FileManager.default.createFile(atPath: image, contents: nil), truncate(image, off_t(megabytes) << 20) == 0 else {
            throw Failed(description: "cannot make the image \(image)")
        }
        try Self.run("/usr/sbin/mkfs.exfat", ["-L", "STICK", image])
        loopDevice = try Self.run("/usr/sbin/losetup", ["--find", "--show", image]).trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            try Self.run("/usr/sbin/mount.exfat-fuse", ["-o", "rw,nosuid,nodev,uid=\(getuid()),gid=\(getgid())",
                                                        loopDevice ?? "", folder], detaching: true)
            mounted = true
        } catch {
            unmount()
            throw error
        }
    }

    deinit { unmount() }

    public func path(_ name: String) -> String { folder + "/" + name }

    /// Unmounts and frees the loop device; safe to call more than once.
    public func unmount() {
        if mounted {
            _ = try? ChildProcess.run("/bin/umount", [folder])
            mounted = false
        }
        if let device = loopDevice {
            _ = try? ChildProcess.run("/usr/sbin/losetup", ["--detach", device])
            loopDevice = nil
        }
    }

    /// Runs `tool` to completion. `detaching`: for a tool that leaves a
    /// daemon behind (mount.exfat-fuse stays as the file system's server).
    /// Started directly, the daemon would inherit the descriptor Foundation's
    /// Process watches to tell that its child ended, and the tool would seem
    /// never to end: a shell closes every descriptor but 0-2 first.
    @discardableResult
    private static func run(_ tool: String, _ arguments: [String], detaching: Bool = false) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw Failed(description: "\(tool) is missing: run scripts/install-deps (exfatprogs, exfat-fuse)")
        }
        let closeAndRun = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null; done; exec "$@""#
        let (status, output) = detaching ? try ChildProcess.run("/bin/bash", ["-c", closeAndRun, "bash", tool] + arguments)
                                         : try ChildProcess.run(tool, arguments)
        guard status == 0 else { throw Failed(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(output)") }
        return output
    }
}
