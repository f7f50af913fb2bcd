import Foundation

/// One process at a time works a store's transcription queue: the one whose
/// helper runs holds an exclusive `flock` on `transcriber.lock` in the store's
/// folder (the window, or a command such as `hark record`), so that the
/// window and a command never transcribe the same message side by side. The
/// kernel drops the lock when the process dies, however it dies. The file
/// stays (removing it could let two processes lock two different files).
final class QueueLock {
    private let path: String
    private var descriptor: Int32 = -1

    init(folder: URL) {
        path = folder.appendingPathComponent("transcriber.lock").path
    }

    /// Takes the lock if it is free; false only when another process holds
    /// it. A store folder where no lock can be made (read-only) is worked as
    /// if this process held it: there is nobody to share it with there.
    func take() -> Bool {
        guard descriptor < 0 else { return true }
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard opened >= 0 else { return true }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(opened)
            return !busy
        }
        descriptor = opened
        return true
    }

    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
