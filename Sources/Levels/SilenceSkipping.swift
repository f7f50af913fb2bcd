/// What Skip Silence leaves out of a message: the middle of every pause
/// longer than half a second, so that about 0.3 s of it is still heard (half
/// at each end, the margin around the words on either side).
public struct SilenceSkipping: Sendable, Equatable {
    /// The stretches left out, in the message's own time, oldest first.
    public let skipped: [ClosedRange<Double>]

    /// Pauses up to this long are played whole.
    public static let longestKeptPause = 0.5
    /// What is left of a longer pause.
    public static let keptOfAPause = 0.3

    public init(_ pauses: Pauses) {
        let keptEachSide = Self.keptOfAPause / 2
        skipped = pauses.longer(than: Self.longestKeptPause).map {
            ($0.lowerBound + keptEachSide)...($0.upperBound - keptEachSide)
        }
    }

    public init(levels: LevelTrack, duration: Double? = nil) {
        self.init(Pauses(in: levels, duration: duration))
    }

    /// The time saved, in seconds.
    public var savedSeconds: Double {
        savedSeconds(before: .infinity)
    }

    /// The time saved by a player that got as far as `position`.
    public func savedSeconds(before position: Double) -> Double {
        skipped.reduce(0) { $0 + max(0, min($1.upperBound, position) - $1.lowerBound) }
    }

    /// The left-out stretch a player at `position`, playing forward, jumps
    /// over next: the one it is in, or the next one ahead.
    public func nextSkip(after position: Double) -> ClosedRange<Double>? {
        skipped.first { $0.upperBound > position }
    }
}
