import CGLib
import Foundation
import GLibSupport
import Localization

/// A program Hark runs beside itself (a helper, an installer): spawned
/// through GIO with the pipes asked for, the rest inherited (so a helper's
/// standard error reaches Hark's). Everything about it is asynchronous on
/// GLib's main loop; nothing here waits for it.
@MainActor
public final class Subprocess {
    /// Which of its standard streams are pipes to Hark.
    public struct Pipes: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let input = Pipes(rawValue: 1)
        public static let output = Pipes(rawValue: 2)
        public static let errors = Pipes(rawValue: 4)
        /// Its standard output goes nowhere (neither a pipe nor Hark's).
        public static let silentOutput = Pipes(rawValue: 8)
    }

    /// How it ended.
    public enum Exit: Equatable, Sendable {
        case exited(status: Int32)
        case signalled(Int32)

        public var succeeded: Bool { self == .exited(status: 0) }
    }

    /// Its process id.
    public let identifier: pid_t
    private let process: ObjectRef
    private let leadsGroup: Bool
    private let cancellable = ObjectRef(owning: UnsafeMutableRawPointer(g_cancellable_new()!))
    public private(set) var exit: Exit?

    /// Starts `arguments` (the program first) with `environment` set over
    /// Hark's own; `ownProcessGroup` makes it lead a group, so `terminate`
    /// ends what it started too (pip under an installer).
    public init(arguments: [String], environment: [String: String] = [:], pipes: Pipes,
                ownProcessGroup: Bool = false) throws(SubprocessError) {
        // A child that died with a write on its way would otherwise kill Hark
        // by SIGPIPE (the default action) at the next write: with the signal
        // ignored, the write fails and the end of its output tells the rest.
        signal(SIGPIPE, SIG_IGN)
        var flags = G_SUBPROCESS_FLAGS_NONE.rawValue
        if pipes.contains(.input) { flags |= G_SUBPROCESS_FLAGS_STDIN_PIPE.rawValue }
        if pipes.contains(.output) { flags |= G_SUBPROCESS_FLAGS_STDOUT_PIPE.rawValue }
        if pipes.contains(.silentOutput) { flags |= G_SUBPROCESS_FLAGS_STDOUT_SILENCE.rawValue }
        if pipes.contains(.errors) { flags |= G_SUBPROCESS_FLAGS_STDERR_PIPE.rawValue }
        let launcher = g_subprocess_launcher_new(GSubprocessFlags(rawValue: flags))!
        defer { g_object_unref(UnsafeMutableRawPointer(launcher)) }
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
            g_subprocess_launcher_setenv(launcher, name, value, 1)
        }
        if ownProcessGroup { g_subprocess_launcher_set_child_setup(launcher, ownProcessGroupChildSetup, nil, nil) }
        var cStrings = arguments.map { strdup($0) }
        cStrings.append(nil)
        defer { cStrings.forEach { free($0) } }
        let spawned: OpaquePointer?
        do {
            spawned = try withGError { error in
                cStrings.withUnsafeBufferPointer { argv in
                    g_subprocess_launcher_spawnv(
                        launcher, argv.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: argv.count) { $0 },
                        error)
                }
            }
        } catch {
            throw SubprocessError(program: arguments.first ?? "", reason: error.message)
        }
        guard let spawned else { throw SubprocessError(program: arguments.first ?? "", reason: nil) }
        process = ObjectRef(owning: UnsafeMutableRawPointer(spawned))
        identifier = g_subprocess_get_identifier(spawned).flatMap { pid_t(String(cString: $0)) } ?? 0
        leadsGroup = ownProcessGroup
    }

    /// Its standard input, when it is a pipe.
    public var input: UnsafeMutablePointer<GOutputStream>? { g_subprocess_get_stdin_pipe(process.opaque) }
    /// Its standard output, when it is a pipe.
    public var output: UnsafeMutablePointer<GInputStream>? { g_subprocess_get_stdout_pipe(process.opaque) }
    /// Its standard error, when it is a pipe.
    public var errors: UnsafeMutablePointer<GInputStream>? { g_subprocess_get_stderr_pipe(process.opaque) }

    /// Writes `line` and a newline to its standard input; false when that
    /// failed (it exited: the end of its output tells the rest).
    @discardableResult
    public func write(line: String) -> Bool {
        guard let input, exit == nil else { return false }
        let bytes = Array((line + "\n").utf8)
        return bytes.withUnsafeBytes { buffer in
            g_output_stream_write_all(input, buffer.baseAddress, gsize(buffer.count), nil, nil, nil) != 0
        }
    }

    /// Closes its standard input: a helper reading requests ends.
    public func closeInput() {
        if let input { g_output_stream_close(input, nil, nil) }
    }

    /// Ends it now (SIGKILL), and what it started when it leads a group.
    public func terminate() {
        if leadsGroup, identifier > 0 { kill(-identifier, SIGTERM) }
        g_subprocess_force_exit(process.opaque)
    }

    /// `done` once it has ended, with how (from the main loop).
    public func waitForExit(_ done: @escaping @MainActor (Exit) -> Void) {
        let box = HandlerBox<AsyncReadyHandler> { [weak self] _, result in
            guard let self, let result else { return }
            _ = g_subprocess_wait_finish(self.process.opaque, result, nil)
            let exit: Exit = g_subprocess_get_if_exited(self.process.opaque) != 0
                ? .exited(status: g_subprocess_get_exit_status(self.process.opaque))
                : .signalled(g_subprocess_get_term_sig(self.process.opaque))
            self.exit = exit
            done(exit)
        }
        g_subprocess_wait_async(process.opaque, cancellable.as(GCancellable.self), asyncReadyTrampoline, box.retainedPointer())
    }

    isolated deinit {
        g_cancellable_cancel(cancellable.as(GCancellable.self))
        if exit == nil { terminate() }
    }
}

/// A program that could not be started.
public struct SubprocessError: Error, Sendable, Equatable, CustomStringConvertible {
    public let program: String
    public let reason: String?

    public var description: String {
        guard let reason else { return tr("{program} could not be started", ["program": program]) }
        return tr("{program} could not be started: {reason}", ["program": program, "reason": reason])
    }
}
