import Foundation
import Localization
import Synchronization

/// One file on its way to a path the user chose (an export, a drag's or a
/// copy's outgoing file, a waveform PNG): written beside the target under a
/// short temporary name (`.hark-export-` and 8 hex digits, whatever the
/// target's length), then moved into place by `ExportTarget.place`. The file
/// is new, made by Hark (0666 less the umask: it is meant for someone else);
/// no other file's mode is ever changed.
///
/// While it writes, it holds a shared `flock` on the folder. Whoever gets the
/// folder's lock exclusively knows that no Hark is writing there, and removes
/// the temporary files a killed write left (`ExportTarget.removeLeftovers`):
/// each writer tries that first. `abandon()` (any thread: a signal, quitting)
/// removes the temporary file at once, and the write then fails.
public final class ExportWriter: Sendable {
    /// The user's path.
    public let target: String
    /// Where the content goes until it is placed.
    public let partialPath: String
    private let overwrite: Bool
    private let folderLock: Int32
    private let state = Mutex(State.writing)
    private enum State { case writing, placed, abandoned }

    /// Checks `target` (`ExportTarget.check`) and gets its folder ready.
    public init(to target: String, overwrite: Bool) throws(StoreError) {
        try ExportTarget.check(target, overwrite: overwrite)
        self.target = target
        self.overwrite = overwrite
        let folder = StandInPaths.folder(of: target)  // the real folder of a name that is not UTF-8
        partialPath = (folder.hasSuffix("/") ? folder : folder + "/") + ExportTarget.temporaryName()
        folderLock = Self.lockFolder(folder)
        Self.live.withLock { $0[ObjectIdentifier(self)] = Weak(writer: self) }
    }

    deinit {
        abandon()
        if folderLock >= 0 { close(folderLock) }
        Self.live.withLock { $0[ObjectIdentifier(self)] = nil }
    }

    /// Writes `body`'s content to a temporary file and puts it at `target`;
    /// on any failure the temporary file goes and `target` is as it was.
    public static func write(to target: String, overwrite: Bool,
                             _ body: (ExportWriter) throws(StoreError) -> Void) throws(StoreError) {
        let writer = try ExportWriter(to: target, overwrite: overwrite)
        do {
            try body(writer)
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Whether `abandon()` was called: the write is to stop.
    public var isAbandoned: Bool { state.withLock { $0 == .abandoned } }

    /// Removes the temporary file now (unless the file is already in place);
    /// the write then fails. Any thread.
    public func abandon() {
        state.withLock { state in
            guard state != .placed else { return }
            state = .abandoned
            unlink(partialPath)
        }
    }

    /// Abandons every write of this process still going: a signal, or the
    /// window closing.
    public static func abandonAll() {
        for writer in live.withLock({ $0.values.compactMap(\.writer) }) { writer.abandon() }
    }

    /// The audio's bytes, unchanged, into a new regular file. A symbolic link
    /// at `source` is followed: its target's content is copied, never the link.
    public func copy(from source: String, progress: (Double) -> Void = { _ in }) throws(StoreError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .file(path: source, detail: tr("cannot be read ({reason})", ["reason": Self.reason(errno)])) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .file(path: source, detail: tr("is not a regular file"))
        }
        if isAbandoned { throw interrupted }
        let output = open(partialPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard output >= 0 else { throw .file(path: target, detail: tr("cannot be written ({reason})", ["reason": Self.reason(errno)])) }
        defer { close(output) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var copied = 0
        while true {
            if isAbandoned { throw interrupted }
            let count = read(input, buffer, size)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .file(path: source, detail: tr("cannot be read ({reason})", ["reason": Self.reason(errno)]))
            }
            var written = 0
            while written < count {
                let step = Glibc.write(output, buffer + written, count - written)
                if step < 0 {
                    if errno == EINTR { continue }
                    throw writeFailure(errno)
                }
                written += step
            }
            copied += count
            if status.st_size > 0 { progress(min(1, Double(copied) / Double(status.st_size))) }
        }
        guard fsync(output) == 0 || errno == EINVAL else { throw writeFailure(errno) }
        progress(1)
    }

    /// Puts the finished temporary file at `target`.
    func finish() throws(StoreError) {
        try state.withLock { (state: inout State) throws(StoreError) in
            guard state == .writing else { throw interrupted }
            var status = stat()
            guard lstat(partialPath, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                throw .file(path: target, detail: tr("was not written: its content vanished while it was written"))
            }
            try ExportTarget.place(partialPath, at: target, overwrite: overwrite)
            state = .placed
        }
    }

    /// The failure of a write stopped by `abandon()`.
    public var interrupted: StoreError {
        .file(path: target, detail: tr("was not written: the export was interrupted"))
    }

    /// The failure of a write that got `errno` `error` (a full disk says so).
    public func writeFailure(_ error: Int32) -> StoreError {
        .file(path: target, detail: error == ENOSPC ? tr("cannot be written: the disk is full")
                                                    : tr("cannot be written ({reason})", ["reason": Self.reason(error)]))
    }

    private static func reason(_ error: Int32) -> String { String(cString: strerror(error)) }

    /// The folder's descriptor, holding a shared lock, after removing what
    /// killed writes left when no one else writes there; -1 when the folder
    /// cannot be opened (the write then fails on its own, saying why).
    private static func lockFolder(_ folder: String) -> Int32 {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { ExportTarget.removeLeftovers(in: folder) }
        flock(descriptor, LOCK_SH)  // waits only for another's removal of leftovers
        return descriptor
    }

    private struct Weak: Sendable { weak var writer: ExportWriter? }
    private static let live = Mutex<[ObjectIdentifier: Weak]>([:])
}
