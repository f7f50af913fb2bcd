import Foundation
import GLibSupport
import Localization
import MessageStore
import Transcription

/// The command line's work on the store's transcription queue: the messages
/// a command names (`hark transcribe`) or queued itself as they arrived
/// (`record`, `import`, `sync` with transcription on: the store queues them
/// as the window's recordings are), transcribed by the same `Transcriber` the
/// window runs, newest first. Progress goes to standard error; each result to
/// `report`. Ctrl+C or SIGTERM while it waits ends the helper and leaves what
/// is not done in the queue, for `hark transcribe --all` or the window. While
/// another process works the queue (the window), it leaves the work to it and
/// reports each message as the store shows it done.
@MainActor
final class QueueWork {
    private let store: MessageStore
    private let engine: Engine
    private let transcriber: Transcriber
    private var pending: Set<String> = []
    private var added = 0
    private var started = 0
    private var storeWatch: Source?
    private(set) var failed = 0
    /// Each message done: its id and state (`done`, `empty` or `failed`).
    var report: (String, TranscriptState) -> Void = { _, _ in }

    init(store: MessageStore, engine: Engine = .standard) {
        self.store = store
        self.engine = engine
        transcriber = Transcriber(store: store, engine: engine, only: [])
        transcriber.onEvent = { [unowned self] in self.handle($0) }
    }

    var isDone: Bool { pending.isEmpty }

    /// Whether the engine can work the queue in the language chosen.
    var isReady: Bool { engine.isReady(for: TranscriptionLanguage(storedSetting: store.transcriptionLanguage)) }

    /// Transcribes `ids` (already queued) along with those added before.
    func add(_ ids: [String]) {
        let new = Set(ids).subtracting(transcriber.only ?? [])
        guard !new.isEmpty else { return }
        pending.formUnion(new)
        added += new.count
        transcriber.only = (transcriber.only ?? []).union(new)
        transcriber.wake()
    }

    /// Adds those of `ids` the store queued as they arrived, when transcription
    /// is on; when the engine cannot run, says how they will be transcribed
    /// instead. Returns whether there is work to wait for.
    @discardableResult
    func addArrived(_ ids: [String]) -> Bool {
        guard store.transcribesNewMessages else { return false }
        let queued = ids.filter { (try? store.message($0).transcriptState) == .queued }
        guard !queued.isEmpty else { return false }
        guard isReady else {
            printFailure(trn("{count} message is queued for transcription, but the engine is not ready: "
                             + "'hark transcriber enable' installs it, then 'hark transcribe --all' transcribes it",
                             "{count} messages are queued for transcription, but the engine is not ready: "
                             + "'hark transcriber enable' installs it, then 'hark transcribe --all' transcribes them",
                             queued.count))
            return false
        }
        add(queued)
        return true
    }

    /// Runs the main loop until every message added is done; false when
    /// Ctrl+C or SIGTERM came first (the rest stay queued, and it says so).
    func waitForAll() -> Bool {
        var interrupted = false
        let signals = InterruptSignals {
            interrupted = true
            return true
        }
        defer { signals.remove() }
        // Each message has its deadline: the wait ends.
        while !pending.isEmpty && !interrupted {
            MainLoop.iterate(until: { self.pending.isEmpty || interrupted }, timeout: 3600)
        }
        stop()
        return !interrupted
    }

    /// Ends the helper; what is not done stays queued (and is said to).
    func stop() {
        transcriber.stop()
        storeWatch?.remove()
        storeWatch = nil
        guard !pending.isEmpty else { return }
        printFailure(trn("{count} message stays queued for transcription ('hark transcribe --all' transcribes it)",
                         "{count} messages stay queued for transcription ('hark transcribe --all' transcribes them)",
                         pending.count))
        pending.removeAll()
    }

    private func handle(_ event: Transcriber.Event) {
        switch event {
        case .started(let id) where pending.contains(id):
            started += 1
            let title = (try? store.message(id).title) ?? id
            printFailure(tr("Transcribing “{title}” ({number} of {count})…",
                            ["title": terminalSafe(title), "number": LocaleNumbers.integer(started),
                             "count": LocaleNumbers.integer(added)]))
        // Queued again (its audio was replaced meanwhile): the transcriber takes it again.
        case .finished(let id, let state) where state != .queued && pending.remove(id) != nil:
            finished(id, state)
        case .waitingForOtherProcess where !pending.isEmpty:
            printFailure(tr("Another Hark is transcribing (its window, or another command): waiting for it…"))
            watchStore()
        default:
            break
        }
    }

    private func finished(_ id: String, _ state: TranscriptState) {
        if state == .failed { failed += 1 }
        report(id, state)
        fflush(nil)
    }

    /// Reports the messages the other process finishes, as the store shows them.
    private func watchStore() {
        guard storeWatch == nil else { return }
        storeWatch = MainLoop.timeout(milliseconds: 500) { [weak self] in
            guard let self else { return false }
            for id in self.pending.sorted() {
                guard let state = try? self.store.message(id).transcriptState,
                      [.done, .empty, .failed].contains(state) else { continue }
                self.pending.remove(id)
                self.finished(id, state)
            }
            if self.pending.isEmpty { self.storeWatch = nil }
            return !self.pending.isEmpty
        }
    }
}
