/// Turns raw samples into a LevelTrack: RMS and peak over consecutive
/// intervals, the same reduction GStreamer's `level` element makes, for audio
/// that arrives as sample buffers (the analyser's appsink).
///
/// Interval k ends at sample round((k+1)·rate·interval), counted from the
/// start, so rates whose interval is not a whole number of samples (22,050 Hz:
/// 1,102.5) neither drift nor gain intervals over a long file.
public struct LevelMeter: Sendable {
    public let sampleRate: Int
    public let intervalMilliseconds: Int
    public private(set) var track: LevelTrack
    public private(set) var sampleCount = 0

    private var sumOfSquares = 0.0
    private var peak = 0.0
    private var inInterval = 0
    /// Samples in the interval being filled.
    private var intervalLength: Int

    public init(sampleRate: Int, intervalMilliseconds: Int = LevelTrack.standardIntervalMilliseconds) {
        precondition(sampleRate > 0 && intervalMilliseconds > 0)
        self.sampleRate = sampleRate
        self.intervalMilliseconds = intervalMilliseconds
        track = LevelTrack(intervalMilliseconds: intervalMilliseconds)
        intervalLength = Self.boundary(1, sampleRate, intervalMilliseconds)
    }

    /// The sample at which interval `index` (from 1) ends.
    private static func boundary(_ index: Int, _ rate: Int, _ milliseconds: Int) -> Int {
        max(index, Int((Double(index * milliseconds) * Double(rate) / 1000).rounded()))
    }

    /// True when no interval is half filled: what follows may be measured
    /// by another meter and its track appended without a seam.
    public var isAtIntervalBoundary: Bool { inInterval == 0 }

    /// The audio measured so far, in seconds.
    public var seconds: Double { Double(sampleCount) / Double(sampleRate) }

    /// Adds samples scaled to -1…1.
    public mutating func add<C: Collection>(_ samples: C) where C.Element == Float {
        for sample in samples {
            let value = Double(sample)
            sumOfSquares += value * value
            peak = max(peak, abs(value))
            inInterval += 1
            if inInterval == intervalLength { closeInterval() }
        }
        sampleCount += samples.count
    }

    /// Adds signed 16-bit samples.
    public mutating func add(int16 samples: UnsafeBufferPointer<Int16>) {
        let scale = 1.0 / 32768.0
        for sample in samples {
            let value = Double(sample) * scale
            sumOfSquares += value * value
            peak = max(peak, abs(value))
            inInterval += 1
            if inInterval == intervalLength { closeInterval() }
        }
        sampleCount += samples.count
    }

    /// Closes the last, partial interval (if it holds any sample) and returns
    /// the track.
    public mutating func finish() -> LevelTrack {
        if inInterval > 0 { closeInterval() }
        return track
    }

    private mutating func closeInterval() {
        let rms = (sumOfSquares / Double(inInterval)).squareRoot()
        track.append(rms: Decibels.fromLinear(rms), peak: Decibels.fromLinear(peak))
        sumOfSquares = 0
        peak = 0
        inInterval = 0
        let closed = track.count
        intervalLength = Self.boundary(closed + 1, sampleRate, intervalMilliseconds)
            - Self.boundary(closed, sampleRate, intervalMilliseconds)
    }
}
