import AudioEngine
import Foundation
import GLibSupport
import Localization
import MessageStore
import StoreAudio

/// Writes messages out (Export…): a copy of the original, or a transcoding
/// on a thread of its own with its progress in the strip, one at a time.
/// Nothing of the store is touched off the main thread: the source path is
/// looked up before.
@MainActor
final class Exporter {
    private let progress: ProgressStrip
    private var waiting: [Job] = []
    private var busy = false
    /// A message was written to a path.
    var onExported: @MainActor (_ title: String, _ path: String) -> Void = { _, _ in }
    var onError: @MainActor (String) -> Void = { _ in }

    private struct Job {
        let source: String
        let title: String
        let path: String
        let format: AudioFormat
        let overwrite: Bool
    }

    init(progress: ProgressStrip) {
        self.progress = progress
    }

    func export(source: String, title: String, to path: String, format: AudioFormat, overwrite: Bool) {
        waiting.append(Job(source: source, title: title, path: path, format: format, overwrite: overwrite))
        if !busy { startNext() }
    }

    /// Stops every export: the window is closing. What waits is dropped, and
    /// the half-written file of the one running is removed at once (its
    /// thread then stops); the user's path is left as it was.
    func cancelAll() {
        waiting.removeAll()
        ExportWriter.abandonAll()
    }

    /// `path`, or the first of "name (2).ext", "name (3).ext"… that does not exist.
    nonisolated static func unused(_ path: String) -> String {
        guard FileManager.default.fileExists(atPath: path) else { return path }
        let url = URL(fileURLWithPath: path)
        let base = url.deletingPathExtension().path, suffix = url.pathExtension
        for number in 2... {
            let candidate = "\(base) (\(number))" + (suffix.isEmpty ? "" : ".\(suffix)")
            if !FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return path
    }

    private func startNext() {
        guard !waiting.isEmpty else {
            busy = false
            progress.hide()
            return
        }
        busy = true
        let job = waiting.removeFirst()
        let label = tr("Exporting “{title}” as {format}…", ["title": job.title, "format": job.format.displayName])
        progress.show(label)
        let thread = Thread { [weak self] in
            var lastReport = -1.0
            var failure: String?
            do {
                try MessageStore.writeExport(from: job.source, to: job.path, format: job.format, overwrite: job.overwrite) { fraction in
                    guard fraction - lastReport >= 0.01 || fraction >= 1 else { return }
                    lastReport = fraction
                    MainLoop.post { self?.progress.show(label, fraction: fraction) }
                }
            } catch {
                failure = tr("“{title}” could not be exported: {reason}", ["title": job.title, "reason": "\(error)"])
            }
            MainLoop.post {
                guard let self else { return }
                if let failure { self.onError(failure) } else { self.onExported(job.title, job.path) }
                self.startNext()
            }
        }
        thread.name = "hark-exporter"
        thread.start()
    }
}
