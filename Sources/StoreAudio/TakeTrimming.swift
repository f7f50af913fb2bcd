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
        return try await cut(id, to: trim) ? trim : nil
    }

    /// Keeps only `kept` (seconds) of take `id`: what a draft's handles hold.
    /// False when that is all of it, or the take is no Ogg Opus with levels;
    /// a failure leaves the take whole.
    @MainActor
    public func trim(_ id: String, keeping kept: ClosedRange<Double>) async throws(StoreError) -> Bool {
        let message = try message(id)
        return try await cut(id, to: TakeTrim(kept: kept, duration: message.duration))
    }

    @MainActor
    private func cut(_ id: String, to trim: TakeTrim) async throws(StoreError) -> Bool {
        let message = try message(id)
        guard let levels = try levels(of: id) else { return false }
        let source = audioPath(of: message)
        // Written back as Ogg Opus, into the same file name: only such audio (a take) is trimmed.
        guard trim.cutsAnything, AudioContent(path: source).format == .opus else { return false }
        let replacement = try beginReplacement(of: message)
        let output = replacement.path
        let kept = trim.kept
        do throws(AudioError) {
            try await Transcoder.onThread(named: "hark-trim") { () throws(AudioError) in
                try Transcoder.transcode(source, to: output, format: .opus, keeping: kept)
            }
        } catch {
            throw .file(path: source, detail: error.description)
        }
        do {
            try replaceAudio(id, from: output, duration: kept.upperBound - kept.lowerBound, levels: trim.levels(of: levels),
                             change: .cut(kept))
        } catch {
            try? FileManager.default.removeItem(atPath: output)
            throw error
        }
        withExtendedLifetime(replacement) {}
        return true
    }
}
