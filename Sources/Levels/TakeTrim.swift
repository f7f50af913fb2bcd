/// Which part of a take to keep: silence longer than `longest` at either end
/// is cut down to `kept`, judged by `Pauses` against the take's own noise
/// floor, so a word is never cut (a take with no pause at an end keeps that end).
public struct TakeTrim: Sendable, Equatable {
    /// The part kept, in seconds of the original take.
    public let kept: ClosedRange<Double>
    /// The take's whole length.
    public let duration: Double

    /// Silence at an end is trimmed only when longer than this (seconds).
    public static let longestKept = 0.5
    /// How much silence stays before the first sound and after the last.
    public static let margin = 0.25

    public init(kept: ClosedRange<Double>, duration: Double) {
        self.kept = kept
        self.duration = duration
    }

    /// The default trim of a take from its stored levels.
    public init(levels: LevelTrack, duration: Double) {
        self.duration = duration
        let pauses = Pauses(in: levels, duration: duration).spans
        let step = Double(levels.intervalMilliseconds) / 1000
        var start = 0.0
        var end = duration
        // Only a pause that begins the take (or ends it) is its silence; a
        // take all quiet has no speech to keep and is left whole.
        if let first = pauses.first, first.lowerBound < step / 2, first.upperBound < duration,
           first.upperBound - first.lowerBound > Self.longestKept {
            start = first.upperBound - Self.margin
        }
        if let last = pauses.last, last.upperBound > duration - step / 2, last.lowerBound > 0,
           last.upperBound - last.lowerBound > Self.longestKept {
            end = last.lowerBound + Self.margin
        }
        kept = end > start ? start...end : 0...duration
    }

    /// Whether anything is cut at all.
    public var cutsAnything: Bool { kept.lowerBound > 0 || kept.upperBound < duration }

    /// Seconds cut off the start and off the end.
    public var cutAtStart: Double { kept.lowerBound }
    public var cutAtEnd: Double { duration - kept.upperBound }

    /// The levels of the part kept (whole intervals, from the one the cut falls in).
    public func levels(of track: LevelTrack) -> LevelTrack {
        let step = Double(track.intervalMilliseconds) / 1000
        let first = min(track.count, max(0, Int((kept.lowerBound / step).rounded(.down))))
        let last = min(track.count, max(first, Int((kept.upperBound / step).rounded(.up))))
        return LevelTrack(intervalMilliseconds: track.intervalMilliseconds,
                          rms: Array(track.rms[first..<last]), peak: Array(track.peak[first..<last]))
    }
}
