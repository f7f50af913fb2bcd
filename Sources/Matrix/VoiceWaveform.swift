import Levels

/// The waveform a Matrix voice message carries (`org.matrix.msc1767.audio`'s
/// `waveform`): 100 integers from 0 to 1024, as Element sends them.
///
/// Hark's own is made from the message's stored levels — the peak of each
/// hundredth of the message, drawn through the same dB mapping as Hark's
/// history — so the other person sees the bars Hark shows. A received
/// waveform goes back into a `LevelTrack` for drawing until Hark has analysed
/// the audio itself.
public enum VoiceWaveform {
    public static let count = 100
    public static let maximum = 1024

    /// The waveform of a message whose stored levels are `levels`: each
    /// value the loudest peak of its hundredth. An empty track (a message too
    /// short to have a level) gives a flat waveform.
    public static func values(from levels: LevelTrack,
                              mapping: DisplayMapping = .standard) -> [Int] {
        guard !levels.isEmpty else { return [Int](repeating: 0, count: count) }
        return rebinMaximum(levels.peak, into: count).map { decibels in
            let value = (mapping.fraction(decibels) * Double(maximum)).rounded()
            return min(maximum, max(0, Int(value)))
        }
    }

    /// A received waveform as levels for drawing: each value one interval of
    /// `durationMilliseconds / values.count` (at least 1 ms), mapped back
    /// through `mapping` (0 is silence, the floor). Values outside 0…1024
    /// are clamped; an empty waveform gives an empty track.
    public static func levels(from values: [Int], durationMilliseconds: Int,
                              mapping: DisplayMapping = .standard) -> LevelTrack {
        guard !values.isEmpty else { return LevelTrack() }
        let decibels = values.map { value -> Double in
            let fraction = Double(min(maximum, max(0, value))) / Double(maximum)
            if fraction == 0 { return Decibels.floor }
            return mapping.floorDecibels + fraction * (mapping.ceilingDecibels - mapping.floorDecibels)
        }
        let interval = max(1, durationMilliseconds / values.count)
        return LevelTrack(intervalMilliseconds: interval, rms: decibels, peak: decibels)
    }
}
