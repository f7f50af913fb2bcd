import GLibSupport
import Levels

/// The recording's live levels, shown one reading per interval even though
/// the sound server delivers them two at a time (see `LevelPacer`): the live
/// waveform, pulse, clock and ring move twenty times a second, not ten
/// times by two steps.
@MainActor
final class PacedLevels {
    struct Reading {
        let rms: Double
        let elapsed: Double
    }

    /// Shows one reading (the composer draws it).
    var show: @MainActor (Reading) -> Void = { _ in }
    private var pacer = LevelPacer<Reading>()
    private var timer: Source?
    private let milliseconds: UInt32

    init(intervalMilliseconds: Int) {
        milliseconds = UInt32(max(1, intervalMilliseconds))
    }

    func arrive(_ reading: Reading) {
        guard let now = pacer.arrive(reading) else { return }
        present([now])
        timer = MainLoop.timeout(milliseconds: milliseconds) { [weak self] in
            guard let self else { return false }
            self.present(self.pacer.tick())
            if self.pacer.isTicking { return true }
            self.timer = nil
            return false
        }
    }

    /// Forgets readings not shown yet (the recording ended or starts anew).
    func reset() {
        timer?.remove()
        timer = nil
        pacer.reset()
    }

    private func present(_ readings: [Reading]) {
        for reading in readings {
            show(reading)
        }
    }
}
