import Foundation

/// Held by the process recording a message, for as long as it records: an
/// exclusive `flock` on `messages/<id>.lock`. Recovery leaves alone any
/// `recording` row whose lock another process holds — the app recording while
/// a CLI opens the store must not have its recording "recovered" away. The
/// kernel drops the lock when the process dies, however it dies.
public final class RecordingLock {
    private let descriptor: Int32
    private let path: String
    private var held = false
    private let store: MessageStore
    /// Creating the lock file, then the recording's own file (`starting`):
    /// Hark's changes to `messages/`, which the next open need not compare.
    private var changes: OwnFolderChanges

    /// Takes the lock of message `id`; nil if another process holds it.
    public init?(store: MessageStore, id: String) {
        self.store = store
        path = store.messagesFolder.appendingPathComponent("\(id).lock").path
        changes = store.ownChanges()
        let path = path
        descriptor = changes.make { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return nil }
        held = true
    }

    /// Runs `start`, which creates the recording's file in `messages/` (the
    /// recorder's `start`), as one of Hark's own changes with the lock's.
    public func starting<T, E: Error>(_ start: () throws(E) -> T) throws(E) -> T {
        defer { store.noteOwn(changes) }
        return try changes.make(start)
    }

    /// Releases the lock (also done when the process ends). Only the holder
    /// removes the lock file: a failed attempt must not take it from under it.
    deinit {
        if held {
            let path = path
            store.changingFolder { _ = unlink(path) }
        }
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether some process holds the lock of message `id` right now.
    static func isHeld(store: MessageStore, id: String) -> Bool {
        let path = store.messagesFolder.appendingPathComponent("\(id).lock").path
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return true
    }
}
