import Foundation
import Localization

/// The hidden copy an import writes before its row exists
/// (`messages/.importing-<file>`). It is created 0600 and held under an
/// exclusive `flock` for as long as the import runs: another process opening
/// the store tells a running import (locked) from the leftover of one that
/// was killed (unlocked). The kernel drops the lock however the process dies.
final class ImportCopy {
    static let prefix = ".importing-"

    let path: String
    private let descriptor: Int32

    /// Creates the copy at `path`, a new file, empty and locked.
    init(creating path: String) throws(StoreError) {
        self.path = path
        descriptor = try Self.createLocked(path)
    }

    /// Fills the copy with `source`'s bytes. On failure the copy is left to
    /// `discard`.
    func fill(from source: String) throws(StoreError) {
        do {
            try Self.copyContents(of: source, into: descriptor)
        } catch {
            throw .file(path: source, detail: tr("could not be copied into the store ({reason})", ["reason": error.detail]))
        }
    }

    deinit { close(descriptor) }

    /// Gives the copy its real name; the lock stays with the file until this
    /// object goes.
    func move(to target: String) -> Bool { Glibc.rename(path, target) == 0 }

    func discard() { unlink(path) }

    /// Whether a running import holds the copy at `path`.
    static func isHeld(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) != 0
    }

    /// Removes the copies among `names` (the listing of `folder`) that no
    /// running import holds and that `isStillNeeded` (given the real file
    /// name) does not claim.
    static func removeAbandoned(in folder: String, names: [String], isStillNeeded: (String) -> Bool) {
        for name in names where name.hasPrefix(prefix) {
            let path = folder + "/" + name
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            // Unlinked while holding the lock: an import that just created the
            // file and is waiting for the lock sees its file gone, and retries.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            if !isStillNeeded(String(name.dropFirst(prefix.count))) { unlink(path) }
        }
    }

    private struct CopyFailure: Error { let detail: String }

    private static func createLocked(_ path: String) throws(StoreError) -> Int32 {
        while true {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw .file(path: path, detail: tr("cannot be created ({reason})", ["reason": String(cString: strerror(errno))]))
            }
            flock(descriptor, LOCK_EX)
            var opened = stat(), named = stat()
            if fstat(descriptor, &opened) == 0, stat(path, &named) == 0,
               opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                return descriptor
            }
            close(descriptor)  // removed as abandoned before it was locked: make it again
        }
    }

    private static func copyContents(of source: String, into target: Int32) throws(CopyFailure) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw CopyFailure(detail: String(cString: strerror(errno))) }
        defer { close(input) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer, size)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw CopyFailure(detail: String(cString: strerror(errno)))
            }
            var written = 0
            while written < count {
                let step = write(target, buffer + written, count - written)
                if step < 0 {
                    if errno == EINTR { continue }
                    throw CopyFailure(detail: String(cString: strerror(errno)))
                }
                written += step
            }
        }
    }
}
