import Foundation

/// A take's new audio while it is made (a cut, a join): written beside the
/// take under a hidden name (`messages/.trimming-<file>`), then renamed into
/// place by `replaceAudio`. Meanwhile the process making it holds an
/// exclusive `flock` on the take's audio file, so that recovery in any
/// process tells a replacement under way (locked) from the leftover of one
/// that was killed (unlocked), and removes only the leftover. The kernel
/// drops the lock however the process dies.
public final class AudioReplacement {
    static let prefix = ".trimming-"

    /// Where the new audio is to be written (nothing is there yet).
    public let path: String
    private let descriptor: Int32

    fileprivate init(store: MessageStore, message: Message) throws(StoreError) {
        path = store.replacementPath(of: message)
        let audio = store.audioPath(of: message)
        descriptor = open(audio, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .file(path: audio, detail: String(cString: strerror(errno))) }
        // Not waited for: the holder may be this very process (the same take
        // cut twice at once), whose main loop waiting would never free it.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            throw .file(path: audio, detail: String(cString: strerror(reason)))
        }
        unlink(path)  // left by a replacement that was killed
    }

    deinit { close(descriptor) }

    /// Removes the replacements among `names` (the listing of `folder`) that
    /// nobody is making: their take's file is not locked, or is gone.
    static func removeAbandoned(in folder: String, names: [String]) {
        for name in names where name.hasPrefix(prefix) && name.count > prefix.count {
            let audio = open(folder + "/" + name.dropFirst(prefix.count), O_RDONLY | O_CLOEXEC)
            if audio >= 0 {
                defer { close(audio) }
                guard flock(audio, LOCK_EX | LOCK_NB) == 0 else { continue }
                unlink(folder + "/" + name)  // under the lock: a replacement cannot begin meanwhile
            } else {
                unlink(folder + "/" + name)
            }
        }
    }
}

extension MessageStore {
    /// Begins replacing `message`'s audio: write the new audio at the
    /// replacement's `path`, give that to `replaceAudio`, and keep the
    /// replacement until then. Fails when the take's file is not there, or
    /// another replacement of it is under way.
    public func beginReplacement(of message: Message) throws(StoreError) -> AudioReplacement {
        try AudioReplacement(store: self, message: message)
    }
}
