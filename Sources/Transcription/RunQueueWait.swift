/// How long a process's threads waited on a run queue for a core, all
/// together, since a first reading. Each reading is every live thread's own
/// total wait in nanoseconds by thread id (the second field of Linux's
/// /proc/PID/task/TID/schedstat, `run_delay`). A thread that ended keeps what
/// it added until it was last seen; a thread first seen later was started
/// later, so all its wait counts, and so does a thread id seen again with less
/// than before (Linux reuses ids: a new thread). Pure: no /proc here.
struct RunQueueWait: Sendable, Equatable {
    private var last: [Int32: UInt64]
    /// The wait added up since the first reading, in nanoseconds.
    private(set) var nanoseconds: UInt64 = 0

    init(firstReading: [Int32: UInt64]) {
        last = firstReading
    }

    mutating func add(_ reading: [Int32: UInt64]) {
        for (thread, total) in reading {
            let before = last[thread] ?? 0
            nanoseconds += total >= before ? total - before : total
        }
        last = reading
    }

    var seconds: Double { Double(nanoseconds) / 1e9 }
}
