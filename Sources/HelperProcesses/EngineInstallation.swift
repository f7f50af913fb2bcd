import Foundation
import Localization

/// An engine's installer (`install-transcriber`, `install-crypto-engine`: the
/// pinned-venv installers) running in the background: a `Subprocess` whose
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

    public private(set) var progress: InstallProgress
    public private(set) var outcome: Outcome?
    public var onProgress: (InstallProgress) -> Void = { _ in }
    public var onFinish: (Outcome) -> Void = { _ in }

    private let process: Subprocess
    private var errors: LineReader?  // its standard error, where it tells its progress
    private var cancelled = false

    /// The longest line of the installer's taken (pip's progress lines are short).
    static let longestLine = 64 * 1024

    /// Starts the installer: `arguments`, its path first (its file name is
    /// how its progress lines start). Throws, in a sentence, when it is
    /// missing or cannot even be started.
    public init(arguments: [String]) throws(InstallStartFailure) {
        let installer = arguments.first ?? ""
        progress = InstallProgress(installer: URL(fileURLWithPath: installer).lastPathComponent)
        guard FileManager.default.isExecutableFile(atPath: installer) else {
            throw InstallStartFailure(reason: tr("the installer {path} is missing", ["path": installer]))
        }
        do {
            // Its own process group: Cancel ends pip with it.
            process = try Subprocess(arguments: arguments, pipes: [.silentOutput, .errors], ownProcessGroup: true)
        } catch {
            throw InstallStartFailure(reason: tr("the installer could not be started: {reason}", ["reason": error.reason ?? error.program]))
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

/// Why an installer did not start, as a clause ("the installer … is missing").
public struct InstallStartFailure: Error, Equatable, Sendable {
    public let reason: String
}
