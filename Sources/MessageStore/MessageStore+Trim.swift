import Foundation
import Levels

extension MessageStore {
    /// Where new audio for `message` is written before `replaceAudio` puts
    /// it in its place: beside it (a rename, never a copy), hidden, so the
    /// folder's comparison never adopts it (see `beginReplacement`).
    public func replacementPath(of message: Message) -> String {
        messagesFolder.appendingPathComponent(AudioReplacement.prefix + message.fileName).path
    }

    /// How a take's new audio came from its old: its transcript follows (TranscriptEdits.swift).
    public enum AudioChange: Sendable, Equatable {
        /// Cut to the part kept (seconds of the old audio).
        case cut(ClosedRange<Double>)
        /// Take `next` joined after it, `offset` seconds in.
        case joined(next: String, offset: Double)
    }

    /// Puts the audio at `path` (from `replacementPath(of:)`) in place of
    /// message `id`'s, with its duration and levels: the message is that
    /// audio from now on, here and wherever it is sent.
    public func replaceAudio(_ id: String, from path: String, duration: Double, levels: LevelTrack,
                             change: AudioChange? = nil) throws(StoreError) {
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
            switch change {
            case .cut(let kept): try cutTranscript(id, to: kept)
            case .joined(let next, let offset): try joinTranscript(id, then: next, offset: offset)
            case nil: break
            }
        }
    }
}
