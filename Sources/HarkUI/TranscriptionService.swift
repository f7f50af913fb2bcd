import MessageStore
import Transcription

/// The window's side of local transcription: when it is on, the store's queue
/// is worked through in the background (a helper process, see `Transcriber`),
/// woken when a message is saved, imported or queued by another process; the
/// window never waits for it. Off, nothing runs. The helper ends after a
/// minute idle, and when the window goes.
@MainActor
final class TranscriptionService {
    private let store: MessageStore
    private var transcriber: Transcriber?
    /// A message's transcript was stored, or its transcription failed: its
    /// row shows it (and the new title).
    var onTranscribed: (_ id: String) -> Void = { _ in }

    init(store: MessageStore) {
        self.store = store
    }

    /// Starts on the queue if transcription is on and the engine installed.
    func wake() {
        guard store.transcribesNewMessages, Engine.standard.isInstalled else { return }
        if transcriber == nil {
            let made = Transcriber(store: store)
            made.onEvent = { [weak self] event in
                if case .finished(let id, _) = event { self?.onTranscribed(id) }
            }
            transcriber = made
        }
        transcriber?.wake()
    }

    func stop() {
        transcriber?.stop()
        transcriber = nil
    }
}
