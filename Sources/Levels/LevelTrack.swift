/// The loudness of a message over time: one RMS and one peak value (dBFS,
/// clamped to `Decibels.floor`) per fixed interval. The recorder produces it
/// while recording and the analyser from a file; it is stored with the
/// message and drawn as its waveform, never recomputed.
public struct LevelTrack: Sendable, Equatable {
    /// The interval every Hark track uses: 50 ms.
    public static let standardIntervalMilliseconds = 50

    public var intervalMilliseconds: Int
    public private(set) var rms: [Double]
    public private(set) var peak: [Double]

    public init(intervalMilliseconds: Int = LevelTrack.standardIntervalMilliseconds,
                rms: [Double] = [], peak: [Double] = []) {
        precondition(rms.count == peak.count, "one peak per RMS value")
        self.intervalMilliseconds = intervalMilliseconds
        self.rms = rms.map(Decibels.clamp)
        self.peak = peak.map(Decibels.clamp)
    }

    public var count: Int { rms.count }
    public var isEmpty: Bool { rms.isEmpty }

    /// The time the levels cover, in seconds.
    public var coveredSeconds: Double { Double(count * intervalMilliseconds) / 1000 }

    public mutating func append(rms rmsDB: Double, peak peakDB: Double) {
        rms.append(Decibels.clamp(rmsDB))
        peak.append(Decibels.clamp(peakDB))
    }
}
