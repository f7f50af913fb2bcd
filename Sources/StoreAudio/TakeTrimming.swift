import AudioEngine
import Foundation
import Levels
import MessageStore

extension MessageStore {
    /// Cuts the silence at a take's ends (`TakeTrim`, from its stored
    /// levels): the part kept is transcoded to Ogg Opus on a thread of its
    /// own, then replaces the take's audio, its levels and its duration.
    /// Returns what was cut (nil when nothing needed cutting, or the take
    /// has no levels, or is no Ogg Opus); a failure leaves the take whole.
    @MainActor
    public func trimSilence(of id: String) async throws(StoreError) -> TakeTrim? {
        let message = try message(id)
        guard let levels = try levels(of: id) else { return nil }
        let trim = TakeTrim(levels: levels, duration: message.duration)
        let source = audioPath(of: message)
        // Written back as Ogg Opus, into the same file name: only such audio (a take) is trimmed.
        guard trim.cutsAnything, AudioContent(path: source).format == .opus else { return nil }
        let output = replacementPath(of: message)
        try? FileManager.default.removeItem(atPath: output)  // left by a crash
        let kept = trim.kept
        let failure = await withCheckedContinuation { (continuation: CheckedContinuation<AudioError?, Never>) in
            let thread = Thread {
                do throws(AudioError) {
                    try Transcoder.transcode(source, to: output, format: .opus, keeping: kept)
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: error)
                }
            }
            thread.name = "hark-trim"
            thread.start()
        }
        if let failure { throw .file(path: source, detail: failure.description) }
        do {
            try replaceAudio(id, from: output, duration: kept.upperBound - kept.lowerBound, levels: trim.levels(of: levels))
        } catch {
            try? FileManager.default.removeItem(atPath: output)
            throw error
        }
        return trim
    }
}
