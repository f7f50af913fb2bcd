/// Where a message pauses, judged from its stored levels against its own
/// noise floor: a room's hum or a laptop fan is a pause, the quiet end of a
/// word is speech. Skipping silences while playing and trimming a take's
/// ends both ask this, so neither ever cuts a word.
public struct Pauses: Sendable, Equatable {
    /// The quiet stretches, in seconds, oldest first.
    public let spans: [ClosedRange<Double>]
    /// The level (dBFS RMS) below which an interval counts as quiet.
    public let threshold: Double

    /// Quiet must stand this far (dB) above the noise floor before speech is
    /// told from it at all; a message with less contrast has no pauses.
    static let minimumContrast = 12.0
    /// How far between the noise floor and the speech level the line is drawn.
    static let thresholdShare = 0.3
    /// The line is never closer to the floor than this (dB): noise wavers.
    static let minimumHeadroom = 6.0

    public init(in track: LevelTrack, duration: Double? = nil) {
        let length = duration ?? track.coveredSeconds
        let sorted = track.rms.sorted()
        guard let floor = Self.percentile(0.1, of: sorted), let speech = Self.percentile(0.95, of: sorted),
              speech - floor >= Self.minimumContrast else {
            spans = []
            threshold = Decibels.floor
            return
        }
        threshold = floor + max(Self.minimumHeadroom, (speech - floor) * Self.thresholdShare)
        let step = Double(track.intervalMilliseconds) / 1000
        var found: [ClosedRange<Double>] = []
        var start: Int?
        for (index, level) in track.rms.enumerated() {
            if level < threshold {
                if start == nil { start = index }
            } else if let quietFrom = start {
                found.append(Double(quietFrom) * step...min(length, Double(index) * step))
                start = nil
            }
        }
        if let quietFrom = start, Double(quietFrom) * step < length {
            found.append(Double(quietFrom) * step...length)
        }
        spans = found.filter { $0.upperBound > $0.lowerBound }
    }

    /// The pauses longer than `seconds`.
    public func longer(than seconds: Double) -> [ClosedRange<Double>] {
        spans.filter { $0.upperBound - $0.lowerBound > seconds }
    }

    private static func percentile(_ share: Double, of sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        return sorted[min(sorted.count - 1, Int(share * Double(sorted.count)))]
    }
}
