import Foundation

/// Linear amplitude as decibels relative to full scale (dBFS), and
/// the floor every level in Hark is clamped to.
public enum Decibels {
    /// The quietest level Hark stores or shows: digital silence (-700 dB from
    /// GStreamer's `level`, -inf from log10(0)) and NaN all become this.
    public static let floor: Double = -100

    /// 20·log10(amplitude), clamped to [floor, +∞).
    public static func fromLinear(_ amplitude: Double) -> Double {
        guard amplitude.isFinite, amplitude > 0 else { return floor }
        return clamp(20 * log10(amplitude))
    }

    /// A level fit to keep: NaN and anything below the floor become the floor;
    /// +inf (never a real level) becomes 0 dBFS.
    public static func clamp(_ decibels: Double) -> Double {
        if decibels.isNaN || decibels < floor { return floor }
        if decibels == .infinity { return 0 }
        return decibels
    }
}
