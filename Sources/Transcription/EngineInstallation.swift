import CGLib
import Foundation
import GLibSupport
import Localization

/// `install-transcriber` running in the background: a `GSubprocess` whose
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
    /// Every line the installer wrote (for the record, and the tests).
    public private(set) var lines: [String] = []

    private let process: ObjectRef
    private let errors: ObjectRef  // a GDataInputStream over its standard error
    private let cancellable: ObjectRef
    private let processGroup: pid_t
    private var cancelled = false

    /// Starts the installer for `engine` (its folder), `multilingual` to add
    /// the multilingual model. Throws when it cannot even be started.
    public init(engine: Engine, multilingual: Bool) throws(TranscriptionError) {
        self.multilingual = multilingual
        guard FileManager.default.isExecutableFile(atPath: engine.installer) else {
            throw .notInstallable(tr("the installer {path} is missing", ["path": engine.installer]))
        }
        let launcher = g_subprocess_launcher_new(
            GSubprocessFlags(rawValue: G_SUBPROCESS_FLAGS_STDOUT_SILENCE.rawValue | G_SUBPROCESS_FLAGS_STDERR_PIPE.rawValue))!
        defer { g_object_unref(UnsafeMutableRawPointer(launcher)) }
        // Its own process group: Cancel ends pip with it.
        g_subprocess_launcher_set_child_setup(launcher, ownProcessGroupChildSetup, nil, nil)
        let arguments = engine.installerArguments(multilingual: multilingual)
        var cStrings = arguments.map { strdup($0) }
        cStrings.append(nil)
        defer { cStrings.forEach { free($0) } }
        let spawned: OpaquePointer?
        do {
            spawned = try withGError { error in
                cStrings.withUnsafeBufferPointer { argv in
                    g_subprocess_launcher_spawnv(launcher, argv.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: argv.count) { $0 }, error)
                }
            }
        } catch {
            throw .notInstallable(tr("the installer could not be started: {reason}", ["reason": error.message]))
        }
        guard let spawned else { throw .notInstallable(tr("the installer could not be started")) }
        process = ObjectRef(owning: UnsafeMutableRawPointer(spawned))
        processGroup = g_subprocess_get_identifier(spawned).flatMap { pid_t(String(cString: $0)) } ?? 0
        let data = g_data_input_stream_new(g_subprocess_get_stderr_pipe(spawned))!
        errors = ObjectRef(owning: UnsafeMutableRawPointer(data))
        cancellable = ObjectRef(owning: UnsafeMutableRawPointer(g_cancellable_new()!))
        readNextLine()
    }

    /// Whether it is still running.
    public var isRunning: Bool { outcome == nil }

    /// Ends the installer and the pip it runs; `onFinish(.cancelled)` follows
    /// from the main loop. What it left half done, the next run starts over.
    public func cancel() {
        guard outcome == nil, !cancelled else { return }
        cancelled = true
        if processGroup > 0 { kill(-processGroup, SIGTERM) }
        g_subprocess_force_exit(process.opaque)
    }

    private func readNextLine() {
        let box = HandlerBox<AsyncReadyHandler> { [weak self] source, result in
            guard let source, let result else { return }
            var length: Int = 0
            let line = g_data_input_stream_read_line_finish_utf8(
                UnsafeMutableRawPointer(source).assumingMemoryBound(to: GDataInputStream.self), result, &length, nil)
            guard let self else { g_free(line); return }
            guard let line else {
                self.waitForExit()
                return
            }
            let text = String(cString: line)
            g_free(line)
            self.lines.append(text)
            let before = self.progress
            self.progress.read(text)
            if self.progress != before { self.onProgress(self.progress) }
            self.readNextLine()
        }
        g_data_input_stream_read_line_async(errors.as(GDataInputStream.self), G_PRIORITY_DEFAULT,
                                            cancellable.as(GCancellable.self), asyncReadyTrampoline,
                                            box.retainedPointer())
    }

    /// Its standard error ended: the exit status says how it went.
    private func waitForExit() {
        let box = HandlerBox<AsyncReadyHandler> { [weak self] source, result in
            guard let self, let result else { return }
            _ = g_subprocess_wait_finish(self.process.opaque, result, nil)
            let succeeded = g_subprocess_get_if_exited(self.process.opaque) != 0
                && g_subprocess_get_exit_status(self.process.opaque) == 0
            let outcome: Outcome = self.cancelled ? .cancelled : succeeded ? .ready : .failed(self.progress.failure)
            self.outcome = outcome
            self.onFinish(outcome)
        }
        g_subprocess_wait_async(process.opaque, cancellable.as(GCancellable.self), asyncReadyTrampoline,
                                box.retainedPointer())
    }

    isolated deinit {
        g_cancellable_cancel(cancellable.as(GCancellable.self))
        if outcome == nil {
            if processGroup > 0 { kill(-processGroup, SIGTERM) }
            g_subprocess_force_exit(process.opaque)
        }
    }
}
