/// How wide a message's waveform is drawn, as in messengers: a short message
/// is a short waveform, growing with its duration until it fills the row, so
/// a 2 s message and a 19 s one no longer look the same length.
public enum WaveformWidth {
    /// The narrowest waveform, whatever the duration (room to seek in).
    public static let minimum = 120.0
    /// The share of the row a zero-length message gets…
    public static let shortestShare = 0.35
    /// …growing linearly to the whole row at this many seconds.
    public static let fullAt = 30.0

    /// The width for a message of `duration` seconds in `available` pixels.
    public static func width(duration: Double, available: Double) -> Double {
        guard available.isFinite, available > 0 else { return 0 }
        let seconds = duration.isFinite ? max(0, duration) : 0
        let share = min(1, shortestShare + (1 - shortestShare) * seconds / fullAt)
        return min(available, max(minimum, (available * share).rounded()))
    }
}
