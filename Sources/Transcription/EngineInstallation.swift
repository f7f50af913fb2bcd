import Foundation
import HelperProcesses
import Localization

/// `install-transcriber` running in the background: a `Subprocess` whose
/// standard error is read asynchronously on GLib's main loop, line by line,
/// into an `InstallProgress`, so the window shows how far it is and never
/// waits for it. `onProgress` follows each line that moved it; `onFinish`
/// comes once, with the outcome.
@MainActor
public final class EngineInstallation {
    public enum Outcome: Equatable, Sendable {
        case ready
        case failed(InstallFailure)
        case cancelled
    }

    public private(set) var progress = InstallProgress()
    public private(set) var outcome: Outcome?
    /// Whether it installs the multilingual model too.
    public let multilingual: Bool
    public var onProgress: (InstallProgress) -> Void = { _ in }
    public var onFinish: (Outcome) -> Void = { _ in }

    private let process: Subprocess
    private var errors: LineReader?  // its standard error, where it tells its progress
    private var cancelled = false

    /// The longest line of the installer's taken (pip's progress lines are short).
    static let longestLine = 64 * 1024

    /// Starts the installer for `engine` (its folder), `multilingual` to add
    /// the multilingual model. Throws when it cannot even be started.
    public init(engine: Engine, multilingual: Bool) throws(TranscriptionError) {
        self.multilingual = multilingual
        guard FileManager.default.isExecutableFile(atPath: engine.installer) else {
            throw .notInstallable(tr("the installer {path} is missing", ["path": engine.installer]))
        }
        do {
            // Its own process group: Cancel ends pip with it.
            process = try Subprocess(arguments: engine.installerArguments(multilingual: multilingual),
                                     pipes: [.silentOutput, .errors], ownProcessGroup: true)
        } catch {
            throw .notInstallable(tr("the installer could not be started: {reason}", ["reason": error.reason ?? error.program]))
        }
        errors = LineReader(process.errors!, owner: process, longestLine: Self.longestLine) { [weak self] line in
            self?.read(line)
        } onEnd: { [weak self] end in
            // An installer writing a line without end is broken: it is stopped.
            if end != .closed { self?.process.terminate() }
            self?.waitForExit()
        }
    }

    /// Ends the installer and the pip it runs; `onFinish(.cancelled)` follows
    /// from the main loop. What it left half done, the next run starts over.
    public func cancel() {
        guard outcome == nil, !cancelled else { return }
        cancelled = true
        process.terminate()
    }

    private func read(_ line: String) {
        let before = progress
        progress.read(line)
        if progress != before { onProgress(progress) }
    }

    /// Its standard error ended (or a line of it was too long to be one of
    /// the installer's): the exit status says how it went.
    private func waitForExit() {
        errors = nil
        process.waitForExit { [weak self] exit in
            guard let self else { return }
            let outcome: Outcome = self.cancelled ? .cancelled : exit.succeeded ? .ready : .failed(self.progress.failure)
            self.outcome = outcome
            self.onFinish(outcome)
        }
    }

    isolated deinit {
        if outcome == nil { process.terminate() }
    }
}
