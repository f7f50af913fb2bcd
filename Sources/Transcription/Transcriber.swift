import Foundation
import GLibSupport
import HelperProcesses
import Localization
import MessageStore

/// Works through the store's transcription queue, newest first, one message
/// at a time, with the helper program (started when there is work, ended
/// after `idleSeconds` without any and by `stop()`). Each message has a
/// deadline, counted in the time the helper could have run (`EffectiveDeadline`:
/// one starved of CPU by other work is not hung): a helper that hangs past it
/// is ended, one that crashes or is killed ends on its own, and either way
/// that message is marked failed and the queue goes on with a new helper.
/// One process at a time works a store's queue (`QueueLock`, held while its
/// helper runs): another waits, trying again every few seconds, while the
/// one that holds it transcribes. Everything happens in callbacks on GLib's
/// main loop: the caller (the window) never waits.
@MainActor
public final class Transcriber {
    public enum Event: Equatable, Sendable {
        /// A helper process started (its pid).
        case helperStarted(Int32)
        /// A message's request went to the helper.
        case started(messageID: String)
        /// A message is transcribed (`done` or `empty`) or `failed`; `queued`
        /// again when its audio was replaced while the helper worked on the old.
        case finished(messageID: String, state: TranscriptState)
        /// The helper ended (idle, stopped, crashed or killed).
        case helperStopped
        /// Nothing left in the queue.
        case idle
        /// Another process works the queue (the window, or a command): this
        /// one waits for it, and tries again every few seconds.
        case waitingForOtherProcess
    }

    private let store: MessageStore
    private let engine: Engine
    /// Transcribe just these messages (the command line's), leaving the rest
    /// of the queue waiting; nil for the whole queue. A command adds to it as
    /// it queues more (`hark sync`), then calls `wake()`.
    public var only: Set<String>?
    private let deadline: (Double) -> Double
    private let idleSeconds: Double
    private var helper: HelperProcess?
    private var current: Message?
    /// The current message's audio as the helper was given it: a take cut or
    /// recorded on meanwhile has other audio, and what the helper says of the old is dropped.
    private var currentAudio: AudioIdentity?
    /// The message whose failure waits for the engine's check.
    private var checking: Message?
    /// Whether the engine's files were checked (after a first failure).
    private var engineChecked = false
    private var deadlineTimer: Source?
    private var idleTimer: Source?
    private let lock: QueueLock
    private var retryTimer: Source?
    private var waitingForOther = false
    private static let retryMilliseconds: UInt32 = 2_000
    private var helperCPUAtStart: Double = 0
    /// Called on the main loop with what happens.
    public var onEvent: (Event) -> Void = { _ in }
    /// The last helper's peak memory (bytes), read before it ended.
    public private(set) var peakMemory: Int?
    /// CPU seconds the helper spent on the last message, and on all of them.
    public private(set) var lastCPUSeconds: Double?
    public private(set) var totalCPUSeconds: Double = 0

    /// `only`: transcribe just these messages (the command line's
    /// `hark transcribe ID…`), leaving the rest of the queue waiting.
    /// `deadline`: seconds allowed for a message of the given duration
    /// (helper start included: the first one loads the model).
    public init(store: MessageStore, engine: Engine = .standard, only: Set<String>? = nil,
                deadline: @escaping (Double) -> Double = { 60 + 3 * $0 }, idleSeconds: Double = 60) {
        self.store = store
        self.engine = engine
        self.only = only
        self.deadline = deadline
        self.idleSeconds = idleSeconds
        lock = QueueLock(folder: store.folder)
    }

    /// Whether a message is in the helper's hands now.
    public var isBusy: Bool { current != nil || checking != nil }

    /// Looks at the queue and starts on its newest message if idle. Call it
    /// when something was queued; cheap when there is nothing to do.
    public func wake() {
        guard current == nil, checking == nil else { return }
        let next: Message?
        do { next = try nextMessage() } catch {
            return
        }
        guard let next else {
            scheduleIdleStop()
            onEvent(.idle)
            return
        }
        idleTimer?.remove()
        idleTimer = nil
        guard engine.isReady(for: language) else {
            fail(next, reason: engine.damagedFiles.map { EngineCheck.damaged($0).description }
                 ?? (engine.isInstalled ? tr("the multilingual model is not installed")
                                        : tr("the transcription engine is not installed")))
            return
        }
        if helper == nil {
            guard lock.take() else {
                waitForOtherProcess()
                return
            }
            do { try startHelper() } catch {
                lock.release()
                fail(next, reason: error.description)
                return
            }
        }
        waitingForOther = false
        begin(next)
    }

    private func waitForOtherProcess() {
        if !waitingForOther {
            waitingForOther = true
            onEvent(.waitingForOtherProcess)
        }
        guard retryTimer == nil else { return }
        retryTimer = MainLoop.timeout(milliseconds: Self.retryMilliseconds) { [weak self] in
            self?.retryTimer = nil
            self?.wake()
            return false
        }
    }

    /// Starts the helper ahead of its work (a recording began), so its model
    /// is loaded by the time the message is saved; it ends after `idleSeconds`
    /// if no work comes. Does nothing when one runs or the engine is missing.
    public func prepare() {
        guard helper == nil, engine.isReady(for: language), lock.take() else { return }
        do { try startHelper() } catch {
            lock.release()
            return
        }
        if current == nil { scheduleIdleStop() }
    }

    private var language: TranscriptionLanguage { TranscriptionLanguage(storedSetting: store.transcriptionLanguage) }

    /// Ends the helper now (when Hark quits); the queue stays in the store.
    /// A message in progress goes back to the queue.
    public func stop() {
        idleTimer?.remove()
        idleTimer = nil
        retryTimer?.remove()
        retryTimer = nil
        waitingForOther = false
        deadlineTimer?.remove()
        deadlineTimer = nil
        current = nil
        endHelper()
    }

    private func nextMessage() throws(StoreError) -> Message? {
        guard let only else { return try store.nextQueuedTranscription() }
        return only.compactMap { id -> Message? in
            let message = try? store.message(id)
            return message?.transcriptState == .queued && message?.state == .ready ? message : nil
        }.max { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    private func startHelper() throws(TranscriptionError) {
        let started = try HelperProcess(arguments: engine.helperArguments(language: language))
        started.onExit = { [weak self, weak started] failure in
            guard let self, let started, started === self.helper else { return }
            self.helperEnded(failure)
        }
        helper = started
        helperCPUAtStart = 0
        onEvent(.helperStarted(started.identifier))
    }

    private func begin(_ message: Message) {
        guard let helper else { return }
        current = message
        currentAudio = store.audioIdentity(of: message)
        helperCPUAtStart = helper.cpuSeconds ?? 0
        let request = HelperRequest(id: message.id, path: store.audioPath(of: message),
                                    language: language.setting)
        let seconds = deadline(message.duration)
        currentDeadline = seconds
        effectiveDeadline = helper.threadWaits.map {
            EffectiveDeadline(seconds: seconds, start: ProcessInfo.processInfo.systemUptime, reading: $0)
        }
        deadlineExtensions = 0
        armDeadline(seconds: seconds)
        onEvent(.started(messageID: message.id))
        helper.send(request) { [weak self] answer in
            // No answer (the helper ended): `helperEnded` says why.
            guard case .success(let line) = answer else { return }
            self?.received(line)
        }
    }

    private func received(_ line: Data) {
        guard let message = current, let reply = HelperReply.decode(line), reply.id == message.id else { return }
        deadlineTimer?.remove()
        deadlineTimer = nil
        current = nil
        notePeaks()
        if let error = reply.error {
            failChecking(message, reason: error, madeFrom: currentAudio)
            return
        }
        do {
            // False when the audio changed meanwhile: the message stays queued for the new one.
            try store.storeTranscript(message.id, segments: reply.segments ?? [], madeFrom: currentAudio)
            let state = (try? store.message(message.id).transcriptState) ?? .done
            onEvent(.finished(messageID: message.id, state: state))
        } catch {
            onEvent(.finished(messageID: message.id, state: .failed))
        }
        wake()
    }

    /// The current message's deadline, in seconds.
    private var currentDeadline: Double = 0
    /// That deadline in the time the helper could have run; nil where Linux
    /// does not tell how long its threads waited for a core.
    private var effectiveDeadline: EffectiveDeadline?
    /// Without that: how many times the current message's deadline was put off.
    private var deadlineExtensions = 0
    /// Without that, a helper starved of CPU gets its deadline again this many times.
    private static let starvedExtensions = 3

    private func armDeadline(seconds: Double) {
        deadlineTimer = MainLoop.timeout(milliseconds: UInt32(max(1, seconds * 1000))) { [weak self] in
            self?.deadlineTimer = nil
            self?.missedDeadline()
            return false
        }
    }

    /// The deadline's timer went off: the deadline passed, unless the helper
    /// spent some of that time waiting for a core (it runs in the idle class,
    /// so on a machine busy with other work it waits as long as the work
    /// lasts): then the timer waits for the rest of it.
    private func missedDeadline() {
        guard let message = current else { return }
        if var clock = effectiveDeadline, let waits = helper?.threadWaits {
            let left = clock.remaining(at: ProcessInfo.processInfo.systemUptime, reading: waits)
            effectiveDeadline = clock
            if left > 0 {
                armDeadline(seconds: left)
                return
            }
        } else if let helper, helper.isRunnable, deadlineExtensions < Self.starvedExtensions,
                  let cpu = helper.cpuSeconds,
                  cpu - helperCPUAtStart < 0.25 * currentDeadline * Double(deadlineExtensions + 1) {
            // Where Linux does not tell: a helper that is runnable with its
            // CPU time hardly grown is taken for starved, a few times. A hung
            // one sleeps, is stopped, or spins (its CPU time grows with the clock).
            deadlineExtensions += 1
            armDeadline(seconds: currentDeadline)
            return
        }
        current = nil
        endHelper()
        fail(message, reason: tr("the transcriber took longer than its deadline and was stopped"), madeFrom: currentAudio)
    }

    /// The helper's output ended on its own: crashed, killed, or exited.
    private func helperEnded(_ failure: JSONLinesChannel.Failure) {
        helper = nil
        lock.release()
        onEvent(.helperStopped)
        deadlineTimer?.remove()
        deadlineTimer = nil
        guard let message = current else { return }
        current = nil
        if case .lineTooLong(let limit) = failure {
            fail(message, reason: tr("the transcriber wrote an answer longer than {size} and was stopped",
                                     ["size": ByteCountFormatter.string(fromByteCount: Int64(limit), countStyle: .binary)]),
                 madeFrom: currentAudio)
        } else {
            failChecking(message, reason: tr("the transcriber stopped while working on it"), madeFrom: currentAudio)
        }
    }

    /// A helper that failed a message (it ended, or answered an error) may
    /// stand on a damaged engine: checked once per transcriber, in the
    /// background, and if so the message says that and how to repair it.
    private func failChecking(_ message: Message, reason: String, madeFrom audio: AudioIdentity?) {
        guard !engineChecked else { return fail(message, reason: reason, madeFrom: audio) }
        engineChecked = true
        checking = message
        engine.check { [weak self] found in
            guard let self else { return }
            self.checking = nil
            if case .damaged(let files) = found {
                self.engine.markDamaged(files)
                self.endHelper()
                self.fail(message, reason: found.description, madeFrom: audio)
            } else {
                self.fail(message, reason: reason, madeFrom: audio)
            }
        }
    }

    /// `audio`: what the helper was given, when it was (a failure on audio since replaced is dropped).
    private func fail(_ message: Message, reason: String, madeFrom audio: AudioIdentity? = nil) {
        let failed = (try? store.markTranscriptFailed(message.id, reason: reason, madeFrom: audio)) ?? true
        onEvent(.finished(messageID: message.id, state: failed ? .failed : .queued))
        // The next one, from the main loop: a helper that cannot start fails
        // each queued message in turn without recursing.
        MainLoop.post { [weak self] in self?.wake() }
    }

    private func notePeaks() {
        guard let helper else { return }
        if let memory = helper.peakMemory { peakMemory = max(peakMemory ?? 0, memory) }
        if let cpu = helper.cpuSeconds {
            lastCPUSeconds = cpu - helperCPUAtStart
            totalCPUSeconds += cpu - helperCPUAtStart
        }
    }

    private func endHelper() {
        guard let ending = helper else { return }
        if let memory = ending.peakMemory { peakMemory = max(peakMemory ?? 0, memory) }
        helper = nil
        ending.stop()
        lock.release()
        onEvent(.helperStopped)
    }

    private func scheduleIdleStop() {
        guard helper != nil, idleTimer == nil else { return }
        idleTimer = MainLoop.timeout(milliseconds: UInt32(idleSeconds * 1000)) { [weak self] in
            self?.idleTimer = nil
            if self?.current == nil { self?.endHelper() }
            return false
        }
    }
}
