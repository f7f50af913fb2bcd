import HelperProcesses
import Localization
import MessageStore
import Subscriptions
import Transcription

/// The app's side of local transcription: when it is on, the store's queue
/// is worked through in the background (a helper process, see `Transcriber`),
/// woken when a message is saved, imported or queued by another process; the
/// window never waits for it. Off, nothing runs. The helper ends after a
/// minute idle, and when the window goes; it starts when a recording starts,
/// so that its model is loaded by the time the recording is saved.
///
/// Turning it on installs what the language needs first (the engine, and the
/// multilingual model for a language other than English), in the background
/// (`EngineInstallation`): the settings are stored once that is done. The
/// window, its rows and the dialog subscribe to what it tells.
@MainActor
public final class TranscriptionService {
    /// Setting the engine up.
    public enum Setup: Equatable, Sendable {
        case idle
        case installing(InstallProgress)
        case failed(InstallFailure)
    }

    private let store: MessageStore
    private var transcriber: Transcriber?
    private var installation: EngineInstallation?
    /// The language the running installation is for.
    private var installingLanguage: TranscriptionLanguage?
    public private(set) var setup: Setup = .idle
    /// The message sent was transcribed, or its transcription failed: its
    /// row shows it (and the new title).
    public let transcribed = Observers<String>()
    /// The setup changed, or the language chosen (the dialog shows it).
    public let setupChanges = Observers<Void>()

    public init(store: MessageStore) {
        self.store = store
    }

    /// Whether new messages are transcribed.
    public var isOn: Bool { store.transcribesNewMessages }

    /// On, with the engine installed for the language: what is queued will be transcribed here.
    public var canTranscribe: Bool { isOn && Engine.standard.isReady(for: language) }

    /// On, or on its way (installing).
    public var isWanted: Bool { isOn || installation != nil }

    /// The language chosen (the one being installed, while it is).
    public var language: TranscriptionLanguage {
        installingLanguage ?? TranscriptionLanguage(storedSetting: store.transcriptionLanguage)
    }

    /// Starts on the queue if transcription is on and the engine installed.
    public func wake() {
        guard let transcriber = readyTranscriber() else { return }
        transcriber.wake()
    }

    /// A recording started: the helper starts too, so its model is loaded
    /// when the recording is saved.
    public func prepare() {
        readyTranscriber()?.prepare()
    }

    private func readyTranscriber() -> Transcriber? {
        guard store.transcribesNewMessages, Engine.standard.isReady(for: language) else { return nil }
        if let transcriber { return transcriber }
        let made = Transcriber(store: store)
        made.onEvent = { [weak self] event in
            if case .finished(let id, _) = event { self?.transcribed.send(id) }
        }
        transcriber = made
        return made
    }

    /// Turns transcription on in `language`, installing first what it needs
    /// (progress and failure through `setup`).
    public func turnOn(language: TranscriptionLanguage) {
        if installation != nil, installingLanguage?.needsMultilingualModel == language.needsMultilingualModel {
            installingLanguage = language  // the same install serves it
            setupChanges.send()
            return
        }
        cancelInstallation()
        let engine = Engine.standard
        if engine.isReady(for: language) {
            apply(language)
            return
        }
        let started: EngineInstallation
        do {
            started = try EngineInstallation.start(engine: engine, multilingual: language.needsMultilingualModel)
        } catch {
            change(to: .failed(.other(error.description)))
            return
        }
        installation = started
        installingLanguage = language
        started.onProgress = { [weak self, weak started] progress in
            guard let self, started === self.installation else { return }
            self.change(to: .installing(progress))
        }
        started.onFinish = { [weak self, weak started] outcome in
            guard let self, started === self.installation else { return }
            let language = self.installingLanguage ?? language
            self.installation = nil
            self.installingLanguage = nil
            switch outcome {
            case .ready: self.apply(language)
            case .failed(let failure): self.change(to: .failed(failure))
            case .cancelled: self.change(to: .idle)
            }
        }
        change(to: .installing(started.progress))
    }

    /// Turns it off: an install under way stops, the helper ends; the queue
    /// and the transcripts made stay.
    public func turnOff() {
        cancelInstallation()
        try? store.setSetting(MessageStore.transcriptionSetting, nil)
        stopTranscriber()
        change(to: .idle)
    }

    /// The dialog's Language: when transcription is on (or being turned on),
    /// it installs what the language needs; when off, it is only kept.
    public func choose(_ language: TranscriptionLanguage) {
        if isWanted {
            turnOn(language: language)
        } else {
            try? store.setSetting(MessageStore.transcriptionLanguageSetting, language.setting)
            setupChanges.send()
        }
    }

    private func apply(_ language: TranscriptionLanguage) {
        do {
            try store.setSetting(MessageStore.transcriptionLanguageSetting, language.setting)
            try store.setSetting(MessageStore.transcriptionSetting, "on")
        } catch {
            change(to: .failed(.other(tr("the setting could not be saved: {reason}", ["reason": "\(error)"]))))
            return
        }
        // A helper started for another language loads the other model when asked.
        change(to: .idle)
        wake()
    }

    private func cancelInstallation() {
        installation?.cancel()
        installation = nil
        installingLanguage = nil
    }

    private func change(to setup: Setup) {
        self.setup = setup
        setupChanges.send()
    }

    private func stopTranscriber() {
        transcriber?.stop()
        transcriber = nil
    }

    public func stop() {
        cancelInstallation()
        stopTranscriber()
    }
}
