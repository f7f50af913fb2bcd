import Foundation
import HelperProcesses
import Localization

/// The running transcription helper: a JSON-lines channel (requests on its
/// standard input, answers on its standard output, matched by the message
/// id; its standard error passed through), with what is the transcriber's
/// own: its environment, and what /proc tells of its memory and CPU time.
/// `onExit` comes once, when its output ends (it exited, crashed, was
/// killed, or wrote a line past the limit).
@MainActor
final class HelperProcess {
    /// The longest answer line taken: a transcript of the longest message is
    /// well under it; a helper writing without newlines is stopped there.
    static let longestLine = 8 * 1024 * 1024
    let channel: JSONLinesChannel
    var identifier: Int32 { channel.process.identifier }
    var onExit: (JSONLinesChannel.Failure) -> Void = { _ in }

    init(arguments: [String]) throws(TranscriptionError) {
        do {
            // Nothing is ever fetched at run time; two threads at most.
            channel = try JSONLinesChannel(arguments: arguments,
                                           environment: ["HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "2", "PYTHONUNBUFFERED": "1"],
                                           longestLine: Self.longestLine)
        } catch {
            throw .helper(tr("the helper could not be started: {reason}", ["reason": error.reason ?? error.program]))
        }
        channel.onExit = { [weak self] in self?.onExit($0) }
    }

    /// Sends `request`; `answer` gets its reply line, or why none came.
    func send(_ request: HelperRequest, answer: @escaping @MainActor (Result<Data, JSONLinesChannel.Failure>) -> Void) {
        channel.send(request.data, id: request.id, answer: answer)
    }

    /// Ends the helper (it holds no state worth a goodbye); `onExit` follows
    /// from the main loop.
    func stop() {
        channel.stop()
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
}
