import AudioEngine
import Foundation
import Localization
import MessageStore
import StoreAudio

/// Imports audio files one after another: each is analysed on a thread of
/// its own (the window never waits) with its progress in the strip, then
/// copied into the store. Failures name the file and change nothing.
@MainActor
final class Importer {
    private let store: MessageStore
    private let progress: ProgressStrip
    private var waiting: [String] = []
    private var current: Task<Void, Never>?
    /// For "2 of 5" while a batch runs.
    private var batchSize = 0
    private var batchDone = 0
    /// Which import is current: progress posted late by an earlier one is dropped.
    private var generation = 0

    var onImported: @MainActor (Message) -> Void = { _ in }
    var onError: @MainActor (String) -> Void = { _ in }

    var isBusy: Bool { current != nil }

    init(store: MessageStore, progress: ProgressStrip) {
        self.store = store
        self.progress = progress
    }

    func enqueue(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        if current == nil { batchSize = 0; batchDone = 0 }
        waiting += paths
        batchSize += paths.count
        if current == nil { startNext() }
    }

    /// Stops the analysis under way and forgets the rest of the queue.
    func cancelAll() {
        waiting.removeAll()
        current?.cancel()
    }

    private func startNext() {
        guard !waiting.isEmpty else {
            current = nil
            generation += 1
            progress.hide()
            return
        }
        let path = waiting.removeFirst()
        let name = URL(fileURLWithPath: path).lastPathComponent
        let label = batchSize > 1
            ? tr("Importing “{name}” ({number} of {total})…",
                 ["name": name, "number": LocaleNumbers.integer(batchDone + 1), "total": LocaleNumbers.integer(batchSize)])
            : tr("Importing “{name}”…", ["name": name])
        progress.show(label)
        generation += 1
        let mine = generation
        current = Task { [weak self] in
            do {
                let analysis = try await Analyzer.analyze(path: path) { fraction in
                    guard let self, self.generation == mine, self.current != nil else { return }
                    self.progress.show(label, fraction: fraction)
                }
                guard let self else { return }
                let message = try self.store.importFile(path, analysis: analysis)
                self.onImported(message)
            } catch AudioError.cancelled {
                // Closing the window: nothing to report.
            } catch let error as AudioError {
                self?.onError(tr("“{name}” could not be imported: {reason}.", ["name": name, "reason": MessageStore.reason(error)]))
            } catch {
                self?.onError(tr("“{name}” could not be imported: {reason}", ["name": name, "reason": "\(error)"]))
            }
            guard let self else { return }
            self.batchDone += 1
            self.startNext()
        }
    }
}
