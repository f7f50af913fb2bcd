import Foundation

/// Reads how long each thread of a process waited on a run queue for a core:
/// /proc/PID/task/TID/schedstat, whose three fields are the nanoseconds on a
/// core, the nanoseconds waiting for one (`run_delay`) and the timeslices.
enum ThreadWaits {
    /// Each live thread's total wait in nanoseconds, by thread id; nil when
    /// Linux does not give it (a kernel built without schedstat) or the
    /// process is gone. A thread that ends while it is read is left out.
    static func read(process: Int32) -> [Int32: UInt64]? {
        let folder = "/proc/\(process)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var waits: [Int32: UInt64] = [:]
        for name in threads {
            guard let thread = Int32(name),
                  let line = try? String(contentsOfFile: "\(folder)/\(name)/schedstat", encoding: .utf8) else { continue }
            guard let wait = runDelay(schedstat: line) else { return nil }
            waits[thread] = wait
        }
        return waits.isEmpty ? nil : waits
    }

    /// The wait (second field) of one schedstat line, e.g. "4000 2500 3\n".
    static func runDelay(schedstat line: String) -> UInt64? {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 3 else { return nil }
        return UInt64(fields[1])
    }
}
