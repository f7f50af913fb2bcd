import CGLib
import Foundation
import GLibSupport
import Localization

/// The running helper program: a `GSubprocess` spoken to in JSON lines
/// (stdin: requests, stdout: replies), read asynchronously on GLib's main
/// loop, so nothing ever waits for it. Its standard error is passed through.
/// `onLine` gets each reply line; `onExit` once, when its output ends (it
/// exited, crashed, or was killed).
@MainActor
final class HelperProcess {
    let identifier: Int32
    private let process: ObjectRef
    private let input: UnsafeMutablePointer<GOutputStream>
    private let output: ObjectRef  // the GDataInputStream over its stdout
    private let cancellable: ObjectRef
    private var exited = false
    var onLine: (String) -> Void = { _ in }
    var onExit: () -> Void = {}

    init(arguments: [String]) throws(TranscriptionError) {
        // A helper that died with a request on its way would otherwise kill
        // Hark itself by SIGPIPE (the default action) at the next write: with
        // the signal ignored, the write fails and the output's end tells the rest.
        signal(SIGPIPE, SIG_IGN)
        let launcher = g_subprocess_launcher_new(
            GSubprocessFlags(rawValue: G_SUBPROCESS_FLAGS_STDIN_PIPE.rawValue | G_SUBPROCESS_FLAGS_STDOUT_PIPE.rawValue))!
        defer { g_object_unref(UnsafeMutableRawPointer(launcher)) }
        // Nothing is ever fetched at run time; two threads at most.
        g_subprocess_launcher_setenv(launcher, "HF_HUB_OFFLINE", "1", 1)
        g_subprocess_launcher_setenv(launcher, "OMP_NUM_THREADS", "2", 1)
        g_subprocess_launcher_setenv(launcher, "PYTHONUNBUFFERED", "1", 1)
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
            throw .helper(tr("the helper could not be started: {reason}", ["reason": error.message]))
        }
        guard let spawned else { throw .helper(tr("the helper could not be started")) }
        process = ObjectRef(owning: UnsafeMutableRawPointer(spawned))
        identifier = g_subprocess_get_identifier(spawned).flatMap { Int32(String(cString: $0)) } ?? 0
        input = g_subprocess_get_stdin_pipe(spawned)
        let data = g_data_input_stream_new(g_subprocess_get_stdout_pipe(spawned))!
        output = ObjectRef(owning: UnsafeMutableRawPointer(data))
        cancellable = ObjectRef(owning: UnsafeMutableRawPointer(g_cancellable_new()!))
        readNextLine()
    }

    /// Sends one request line. A pipe whose reader is gone fails quietly:
    /// the output's end tells the rest.
    func send(_ line: String) {
        guard !exited else { return }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { buffer in
            g_output_stream_write_all(input, buffer.baseAddress, gsize(buffer.count), nil, nil, nil)
        }
    }

    /// Ends the helper: its input closed and the process killed (it holds no
    /// state worth a goodbye). `onExit` follows from the main loop.
    func stop() {
        g_output_stream_close(input, nil, nil)
        g_subprocess_force_exit(process.opaque)
    }

    /// The helper's peak resident memory (VmHWM), in bytes, while it runs.
    var peakMemory: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(identifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }

    /// Whether it is runnable, not sleeping or stopped: working, or waiting
    /// for a core (state R in /proc).
    var isRunnable: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(identifier)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: end)...].split(separator: " ").first == "R"
    }

    /// The CPU time (user + system) the helper used so far, in seconds.
    var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(identifier)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // After "pid (name) ": state is field 3; utime 14, stime 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// How long each of its threads waited for a core so far, in nanoseconds
    /// by thread id; nil where Linux does not tell. `chrt` execs the engine's
    /// Python, so this process is the one that computes (in its threads).
    var threadWaits: [Int32: UInt64]? { ThreadWaits.read(process: identifier) }

    private func readNextLine() {
        let box = HandlerBox<AsyncReadyHandler> { [weak self] source, result in
            guard let source, let result else { return }
            var length: Int = 0
            let line = g_data_input_stream_read_line_finish_utf8(
                UnsafeMutableRawPointer(source).assumingMemoryBound(to: GDataInputStream.self), result, &length, nil)
            guard let self else { g_free(line); return }
            guard let line else {
                self.finish()
                return
            }
            let text = String(cString: line)
            g_free(line)
            self.onLine(text)
            if !self.exited { self.readNextLine() }
        }
        g_data_input_stream_read_line_async(output.as(GDataInputStream.self), G_PRIORITY_DEFAULT,
                                            cancellable.as(GCancellable.self), asyncReadyTrampoline,
                                            box.retainedPointer())
    }

    private func finish() {
        guard !exited else { return }
        exited = true
        g_subprocess_force_exit(process.opaque)  // no-op for one that ended
        onExit()
    }

    isolated deinit {
        g_cancellable_cancel(cancellable.as(GCancellable.self))
        if !exited { g_subprocess_force_exit(process.opaque) }
    }
}
