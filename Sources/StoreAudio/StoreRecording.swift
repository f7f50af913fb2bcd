import AudioEngine
import Foundation
import MessageStore

/// A take recorded into the store, from its first moment to its message. The
/// window's composer and `hark record` both record so, and only word what
/// came of it.
///
/// The row exists (state `recording`) before the recorder starts, and the
/// take holds the message's lock (`RecordingLock`) for as long as this object
/// lives: a crash leaves a row and a file that recovery completes, and no
/// other process opening the store meanwhile "recovers" the take away. The
/// file the recorder creates is noted as Hark's own change to the folder and
/// made the user's alone (0600). A finished take completes its message
/// (duration, levels, and the transcription queue when transcription is on);
/// one that came to nothing (it failed, was cancelled, or never started)
/// leaves neither row nor file.
@MainActor
public final class StoreRecording {
    public enum Outcome {
        /// The message is complete. The recording may have been cut short
        /// (`interruption`): what was recorded until then is the message.
        case saved(Recording)
        /// The audio is in its file, but the message could not be completed
        /// (a full disk refuses the database's write): the store's recovery
        /// completes it the next time it is opened with room to write.
        case unfinished(Recording, StoreError)
        /// Nothing was recorded: the row and any file are gone.
        case failed(AudioError)
        case cancelled
    }

    public enum BeginError: Error {
        /// The store refused the row (it can only be read, the disk is full…).
        case store(StoreError)
        /// The message's lock could not be taken (another process holds it,
        /// or the folder refused its file): the row is gone again.
        case locked(id: String)
    }

    /// The take's message, as begun (state `recording`).
    public let message: Message
    public let recorder: Recorder
    private let store: MessageStore
    private let lock: RecordingLock
    private let followsReplacedDatabase: Bool
    private var onEvent: @MainActor (RecorderEvent) -> Void = { _ in }
    private var onEnd: @MainActor (Outcome) -> Void = { _ in }

    /// Begins the take's message and takes its lock; `start` records.
    /// `followingReplacedDatabase`: before saving, move to the database
    /// another connection salvaged meanwhile (the command line's check runs
    /// beside its recording; the window follows salvages itself).
    public init(store: MessageStore, title: String? = nil, roomID: String? = nil, source: RecorderSource,
                maximumDuration: Double?, voiceProcessing: Bool,
                followingReplacedDatabase: Bool = false) throws(BeginError) {
        let message: Message
        do { message = try store.beginRecording(title: title, voiceProcessed: voiceProcessing, roomID: roomID) } catch {
            throw .store(error)
        }
        guard let lock = RecordingLock(store: store, id: message.id) else {
            try? store.discardRecording(message.id)
            throw .locked(id: message.id)
        }
        let relay = EventRelay()
        self.message = message
        self.store = store
        self.lock = lock
        self.followsReplacedDatabase = followingReplacedDatabase
        recorder = Recorder(outputPath: store.audioPath(of: message), source: source,
                            maximumDuration: maximumDuration, voiceProcessing: voiceProcessing) { event in
            relay.take?.handle(event)
        }
        relay.take = self
    }

    /// Starts recording into the message's file. `onEvent` hears the
    /// recorder's events until the end (levels, input, pauses), `onEnd` what
    /// came of the take, once, after the store did its part. A recorder that
    /// cannot start leaves neither row nor file, and says why.
    public func start(onEvent: @escaping @MainActor (RecorderEvent) -> Void,
                      onEnd: @escaping @MainActor (Outcome) -> Void) throws(AudioError) {
        self.onEvent = onEvent
        self.onEnd = onEnd
        do {
            try lock.starting { () throws(AudioError) in try recorder.start() }
        } catch {
            discard()
            letGo()
            throw error
        }
        chmod(store.audioPath(of: message), 0o600)  // the file sink created it with the umask's mode
    }

    private func handle(_ event: RecorderEvent) {
        switch event {
        case .finished(let recording):
            if followsReplacedDatabase { _ = store.followReplacedDatabase() }
            let outcome: Outcome
            do {
                try store.finishRecording(message.id, duration: recording.duration, levels: recording.levels)
                outcome = .saved(recording)
            } catch {
                outcome = .unfinished(recording, error)
            }
            end(outcome)
        case .failed(let error):
            discard()
            end(.failed(error))
        case .cancelled:
            discard()
            end(.cancelled)
        case .started, .level, .input, .paused, .resumed:
            onEvent(event)
        }
    }

    private func discard() {
        try? store.discardRecording(message.id)
    }

    private func end(_ outcome: Outcome) {
        let onEnd = onEnd
        letGo()
        onEnd(outcome)
    }

    /// Drops the caller's closures once the take is over: one that holds the
    /// take (the command line's prints its id) must not keep it, its lock and
    /// its store alive for good.
    private func letGo() {
        onEvent = { _ in }
        onEnd = { _ in }
    }
}

/// The recorder's events reach the take through this, created before the take is.
@MainActor
private final class EventRelay {
    weak var take: StoreRecording?
}
