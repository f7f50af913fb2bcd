/// The part of a draft the user keeps, between its two handles: where each
/// handle may go (never closer to the other than `shortest`, never past the
/// take's ends), a key's step, and the mapping between a handle's place over
/// the waveform and the take's time.
public struct TrimSelection: Sendable, Equatable {
    public enum Edge: Sendable { case start, end }

    /// The take's whole length (seconds).
    public let duration: Double
    public private(set) var start: Double
    public private(set) var end: Double

    /// The handles never come closer than this (seconds), unless the take is shorter.
    public static let shortest = 0.5
    /// How far a key (Left/Right) moves a handle.
    public static let keyStep = 0.1

    /// The whole take, with the handles at `kept` (clamped).
    public init(duration: Double, kept: ClosedRange<Double>) {
        self.duration = max(0, duration)
        start = 0
        end = self.duration
        move(.start, to: kept.lowerBound)
        move(.end, to: kept.upperBound)
    }

    /// The handles where the default trim put them.
    public init(_ trim: TakeTrim) {
        self.init(duration: trim.duration, kept: trim.kept)
    }

    public var kept: ClosedRange<Double> { start...end }
    public var length: Double { end - start }
    /// Whether anything lies outside the handles.
    public var cutsAnything: Bool { start > 0 || end < duration }

    /// The shortest the kept part can be: `shortest`, or the whole of a shorter take.
    private var minimumLength: Double { min(Self.shortest, duration) }

    /// Where `edge` may go with the other handle where it is.
    public func allowed(_ edge: Edge) -> ClosedRange<Double> {
        switch edge {
        case .start: return 0...max(0, end - minimumLength)
        case .end: return min(duration, start + minimumLength)...duration
        }
    }

    public func seconds(of edge: Edge) -> Double { edge == .start ? start : end }

    /// Puts `edge` at `seconds`, or as near as it may go.
    public mutating func move(_ edge: Edge, to seconds: Double) {
        let range = allowed(edge)
        let clamped = min(range.upperBound, max(range.lowerBound, seconds.isFinite ? seconds : range.lowerBound))
        switch edge {
        case .start: start = clamped
        case .end: end = clamped
        }
    }

    /// Moves `edge` by `steps` key steps (negative: towards the start).
    public mutating func step(_ edge: Edge, by steps: Int) {
        // On the grid of steps from the take's start, so steps add up without drift.
        let current = (seconds(of: edge) / Self.keyStep).rounded() * Self.keyStep
        move(edge, to: current + Double(steps) * Self.keyStep)
    }

    /// The time at `along` points from the waveform's leading edge, over `extent` points for the whole take.
    public func seconds(along: Double, extent: Double) -> Double {
        guard extent > 0 else { return 0 }
        return min(duration, max(0, along / extent * duration))
    }

    /// How far from the leading edge `seconds` is drawn, over `extent` points for the whole take.
    public func along(_ seconds: Double, extent: Double) -> Double {
        guard duration > 0 else { return 0 }
        return min(1, max(0, seconds / duration)) * extent
    }
}
