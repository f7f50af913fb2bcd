import Foundation

/// The audio a message had when some work began on it (the transcriber
/// given its file): that file as the system knows it. `replaceAudio` renames
/// a new file into place (a take cut, a take recorded on), so what was made
/// from the old audio is told from what belongs to the new, whichever
/// process replaced it. The time of the last write, to the nanosecond, tells
/// a later file that was given an old file's freed inode.
public struct AudioIdentity: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    /// The file at `path` now; nil when there is none.
    init?(path: String) {
        var found = stat()
        guard stat(path, &found) == 0 else { return nil }
        device = UInt64(found.st_dev)
        inode = UInt64(found.st_ino)
        size = Int64(found.st_size)
        modifiedSeconds = found.st_mtim.tv_sec
        modifiedNanoseconds = found.st_mtim.tv_nsec
    }
}

extension MessageStore {
    /// The identity of `message`'s audio file as it is now (nil when it is not there).
    public func audioIdentity(of message: Message) -> AudioIdentity? {
        AudioIdentity(path: audioPath(of: message))
    }

    /// Whether message `id`'s audio is still the one `audio` names (true when
    /// nothing is named: the caller did not work from the file).
    func audioIsStill(_ audio: AudioIdentity?, of id: String) throws(StoreError) -> Bool {
        guard let audio else { return true }
        return AudioIdentity(path: audioPath(of: try message(id))) == audio
    }
}
