import Conversations
import Encryption
import Foundation
import HelperProcesses
import Localization
import Subscriptions

/// Set Up Encryption in the window: the engine installed in the background
/// (by the installer `hark encryption install` runs, its progress read as
/// the transcription engine's is), then the running session's encryption set
/// up at once: encrypted rooms open, Record and Send to… reach them, with no
/// restart. Each step to every subscriber.
@MainActor
public final class EncryptionSetup {
    public enum State: Equatable, Sendable {
        case idle
        case installing(InstallProgress)
        /// Installed: the session's encryption is being set up.
        case settingUp
        /// Why it could not be set up, in sentences.
        case failed(String)
    }

    public private(set) var state: State = .idle {
        didSet { if state != oldValue { changes.send(state) } }
    }
    public let changes = Observers<State>()
    /// Where the engine goes (read each time: `HARK_CRYPTO_ENGINE_DIR`, as the session does).
    private var files: CryptoEngineFiles { .standard }
    /// Whether the engine is installed (set up or not).
    public var isInstalled: Bool { files.isInstalled }
    private var installation: EngineInstallation?

    public init() {}

    public var isBusy: Bool {
        switch state {
        case .installing, .settingUp: return true
        case .idle, .failed: return false
        }
    }

    /// Installs the engine (or checks it) and sets `session`'s encryption up.
    public func start(for session: ConversationSession) {
        guard !isBusy else { return }
        let started: EngineInstallation
        do {
            started = try files.startInstall()
        } catch {
            state = .failed(tr("The encryption engine could not be installed ({reason}). Try again.", ["reason": error.reason]))
            return
        }
        installation = started
        started.onProgress = { [weak self] progress in self?.state = .installing(progress) }
        started.onFinish = { [weak self, weak session] outcome in
            guard let self else { return }
            self.installation = nil
            switch outcome {
            case .ready:
                guard let session else { self.state = .idle; return }
                self.state = .settingUp
                Task { await self.setUp(session) }
            case .failed(let failure):
                self.state = .failed(failure.sentence(.encryption))
            case .cancelled:
                self.state = .idle
            }
        }
        state = .installing(started.progress)
    }

    private func setUp(_ session: ConversationSession) async {
        switch await session.setUpEncryptionNow() {
        case nil: state = .idle
        case .engineMissing: state = .failed(tr("Hark's encryption engine is not installed: run 'hark encryption install'."))
        case .keyring(let error): state = .failed(error.description)
        }
    }

    /// Stops an install under way (the window closes).
    public func cancel() {
        installation?.cancel()
    }
}
