/// A message's deadline counted in the time its helper could have run: the
/// time since the message started less the time the helper's threads waited
/// for a core (`RunQueueWait`). A helper in Linux's idle class waits that way
/// for as long as other work keeps every core busy: starved, not hung, its
/// deadline does not pass. One that hangs asleep or stopped does not wait, nor
/// does one spinning on cores nobody else wants: its deadline passes on time.
///
/// What was waited is never taken for more than the time that passed.
/// Linux adds a wait to a thread's total when the thread gets its core, so a
/// wait still going on is not counted yet (the idle class gets a core now and
/// then, a fraction of a second apart). Pure: times are given, not read.
struct EffectiveDeadline: Sendable, Equatable {
    /// The deadline, in seconds the helper could have run.
    let seconds: Double
    /// When the message started, in seconds of a monotonic clock.
    let start: Double
    private var wait: RunQueueWait

    /// `reading`: the helper's threads' waits as the message started.
    init(seconds: Double, start: Double, reading: [Int32: UInt64]) {
        self.seconds = seconds
        self.start = start
        wait = RunQueueWait(firstReading: reading)
    }

    /// The time the helper could have run, of `elapsed` seconds of which it
    /// waited `waited`: never below zero.
    static func effectiveElapsed(elapsed: Double, waited: Double) -> Double {
        elapsed - min(elapsed, max(0, waited))
    }

    /// The seconds of the deadline left at `now`, given the helper's threads'
    /// waits read then; 0 once it passed.
    mutating func remaining(at now: Double, reading: [Int32: UInt64]) -> Double {
        wait.add(reading)
        return max(0, seconds - Self.effectiveElapsed(elapsed: now - start, waited: wait.seconds))
    }
}
