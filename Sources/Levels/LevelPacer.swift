/// Shows live level readings one at a time, a reading's interval apart, when
/// they arrive in bursts: the sound server hands over 100 ms of capture at
/// once (fewer wake-ups for the recording), which holds two 50 ms readings.
/// Drawn as they arrive, the live waveform would jump two bars ten times a
/// second; paced, it moves one bar twenty times a second, at most one
/// interval later than the sound.
///
/// The caller shows what `arrive` and `tick` return, runs a timer of one
/// interval while `isTicking`, and calls `tick` from it. The first reading of
/// a burst is shown at once; each tick shows the next. Readings that pile up
/// (a main loop held up) are shown together, all but the newest, so the
/// picture never lags by more than one interval for long.
public struct LevelPacer<Reading> {
    private var waiting: [Reading] = []
    /// True while the caller's timer should run.
    public private(set) var isTicking = false

    public init() {}

    /// Readings not shown yet.
    public var waitingCount: Int { waiting.count }

    /// A reading arrived: returns it when it is to be shown now (no timer
    /// runs: the caller shows it and starts one), nil when it waits its turn.
    public mutating func arrive(_ reading: Reading) -> Reading? {
        guard isTicking else {
            isTicking = true
            return reading
        }
        waiting.append(reading)
        return nil
    }

    /// An interval passed: the readings to show now, oldest first. Once none
    /// waits, the ticking ends (`isTicking` false: the caller stops its
    /// timer, and the next burst's first reading shows as it arrives, an
    /// interval after this one when the bursts come on time).
    public mutating func tick() -> [Reading] {
        let count = waiting.count > 2 ? waiting.count - 1 : min(1, waiting.count)
        let due = Array(waiting.prefix(count))
        waiting.removeFirst(count)
        if waiting.isEmpty { isTicking = false }
        return due
    }

    /// Forgets what waits and stops the ticking (a recording ended).
    public mutating func reset() {
        waiting.removeAll()
        isTicking = false
    }
}

extension LevelPacer: Sendable where Reading: Sendable {}
