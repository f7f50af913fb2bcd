import AudioEngine
import Foundation
import Levels
import MessageStore

extension MessageStore {
    /// Take `id` goes on with take `next`, recorded after it (Record in a
    /// draft): both are joined into one Ogg Opus stream on a thread of its
    /// own, which replaces `id`'s audio, with the levels of both one after the
    /// other and the sum of their durations; `next` is then gone. A failure
    /// leaves both takes as they were. Returns `id`'s message as it now is.
    @MainActor
    public func append(_ next: String, to id: String) async throws(StoreError) -> Message {
        let first = try message(id), second = try message(next)
        let levels = LevelTrack.joined(try levels(of: id) ?? LevelTrack(), lasting: first.duration,
                                       then: try levels(of: next) ?? LevelTrack())
        let inputs = [audioPath(of: first), audioPath(of: second)]
        let replacement = try beginReplacement(of: first)
        let output = replacement.path
        do throws(AudioError) {
            try await Transcoder.onThread(named: "hark-join") { () throws(AudioError) in
                try Transcoder.join(inputs, to: output)
            }
        } catch {
            throw .file(path: inputs[0], detail: error.description)
        }
        do {
            try replaceAudio(id, from: output, duration: first.duration + second.duration, levels: levels,
                             change: .joined(next: next, offset: first.duration))
        } catch {
            try? FileManager.default.removeItem(atPath: output)
            throw error
        }
        withExtendedLifetime(replacement) {}
        // Its audio is in the take now: the part recorded on goes for good.
        try? delete(next)
        try? purge(next)
        return try message(id)
    }
}
