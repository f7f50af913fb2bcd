import Localization
import MessageStore

/// The recording's progress as shown: the live waveform, the pulse, the
/// clock and the ring.
extension ComposerView {
    /// One level reading, in each part that shows it. Each redraws only when
    /// its picture changes: the live waveform with every level, the clock
    /// once a second, the ring when its arc moves by a visible step.
    func show(_ reading: PacedLevels.Reading) {
        live.append(decibels: reading.rms)
        pulse.level = reading.rms
        showClock(elapsed: reading.elapsed)
        ring.set(reading.elapsed / maximumDuration)
        ring.warning = reading.elapsed >= maximumDuration * 0.9
    }

    /// The recording clock, remade only when the second it shows changes
    /// (never back: a reading shown late is older than the recorder's own
    /// count). Paused says so in words: the clock alone looks like a stalled
    /// one; audio captured just before the pause may still add a second.
    /// Shows the recording's clock. It never goes back, not even when a pause
    /// keeps less than a reading already shown: what it says is what the
    /// discard question says would be lost.
    func showClock(elapsed: Double) {
        let second = max(DurationText.wholeSeconds(elapsed), clockShown?.second ?? 0)
        let paused = recorder?.state == .paused
        if let clockShown, clockShown.paused == paused, clockShown.second == second { return }
        clockShown = (second, paused)
        let time = DurationText.clock(Double(second))
        // TRANSLATORS: the recording's clock while it is paused, "Paused · 0:42".
        clock.set(paused ? tr("Paused · {time}", ["time": time]) : time)
    }
}
