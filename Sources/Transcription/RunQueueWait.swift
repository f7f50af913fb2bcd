/// How long a process waited on a run queue for a core since a first
/// reading: between each two readings, the longest any one of its threads
/// waited. Not their sum: threads that share too few cores wait for each
/// other (two busy threads on one core each wait half the time), and that is
/// the process running, slowly, not starved; a process starved by other work
/// has every thread waiting nearly all the time. Each reading is every live
/// thread's own total wait in nanoseconds by thread id (the second field of
/// Linux's /proc/PID/task/TID/schedstat, `run_delay`). A thread first seen
/// later was started later, so all its wait counts, and so does a thread id
/// seen again with less than before (Linux reuses ids: a new thread). Pure:
/// no /proc here.
struct RunQueueWait: Sendable, Equatable {
    private var last: [Int32: UInt64]
    /// The wait since the first reading, in nanoseconds.
    private(set) var nanoseconds: UInt64 = 0

    init(firstReading: [Int32: UInt64]) {
        last = firstReading
    }

    mutating func add(_ reading: [Int32: UInt64]) {
        let longest = reading.map { (thread, total) -> UInt64 in
            let before = last[thread] ?? 0
            return total >= before ? total - before : total
        }.max() ?? 0
        nanoseconds += longest
        last = reading
    }

    var seconds: Double { Double(nanoseconds) / 1e9 }
}
