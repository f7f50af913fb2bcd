import Foundation
import Levels

extension MessageStore {
    /// Where a shortened copy of `message`'s audio is written before
    /// `replaceAudio` puts it in its place: beside it (a rename, never a
    /// copy), hidden, so the folder's comparison never adopts it.
    public func replacementPath(of message: Message) -> String {
        messagesFolder.appendingPathComponent(".trimming-" + message.fileName).path
    }

    /// Puts the audio at `path` (from `replacementPath(of:)`) in place of
    /// message `id`'s, with its duration and levels: the message is that
    /// audio from now on, here and wherever it is sent.
    public func replaceAudio(_ id: String, from path: String, duration: Double, levels: LevelTrack) throws(StoreError) {
        let message = try message(id)
        try checkWritable()
        let target = audioPath(of: message)
        chmod(path, 0o600)
        try changingFolder { () throws(StoreError) in
            guard Glibc.rename(path, target) == 0 else {
                throw .file(path: target, detail: String(cString: strerror(errno)))
            }
        }
        try inTransaction {
            try database.query("UPDATE messages SET duration = ? WHERE id = ?", [.real(duration), .text(id)])
            try storeLevels(id, levels)
        }
    }
}
