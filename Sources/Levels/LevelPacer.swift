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
///
/// Inlinable: called for each reading from the window, it is then
/// specialised for the caller's reading type instead of running generic code.
public struct LevelPacer<Reading> {
    @usableFromInline var waiting: [Reading] = []
    @usableFromInline var ticking = false
    /// True while the caller's timer should run.
    @inlinable public var isTicking: Bool { ticking }

    @inlinable public init() {}

    /// Readings not shown yet.
    @inlinable public var waitingCount: Int { waiting.count }

    /// A reading arrived: returns it when it is to be shown now (no timer
    /// runs: the caller shows it and starts one), nil when it waits its turn.
    @inlinable public mutating func arrive(_ reading: Reading) -> Reading? {
        guard ticking else {
            ticking = true
            return reading
        }
        waiting.append(reading)
        return nil
    }

    /// An interval passed: the readings to show now, oldest first. Once none
    /// waits, the ticking ends (`isTicking` false: the caller stops its
    /// timer, and the next burst's first reading shows as it arrives, an
    /// interval after this one when the bursts come on time).
    @inlinable public mutating func tick() -> [Reading] {
        let count = waiting.count > 2 ? waiting.count - 1 : min(1, waiting.count)
        let due = Array(waiting.prefix(count))
        waiting.removeFirst(count)
        if waiting.isEmpty { ticking = false }
        return due
    }

    /// Forgets what waits and stops the ticking (a recording ended).
    @inlinable public mutating func reset() {
        waiting.removeAll()
        ticking = false
    }
}

extension LevelPacer: Sendable where Reading: Sendable {}
