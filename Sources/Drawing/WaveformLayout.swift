import Levels

/// Where each bar of a message-mode waveform goes: pure geometry, no Cairo,
/// so that it is tested without drawing. Bars are `barWidth` wide with
/// `gap` between them, centred vertically, their round caps kept inside the
/// area by a margin of half a bar width.
public struct WaveformLayout: Sendable, Equatable {
    public var barWidth: Double = 2
    public var gap: Double = 2
    /// The height of a bar for silence: a dot, so the waveform never vanishes.
    public var minimumBarHeight: Double = 2

    public init(barWidth: Double = 2, gap: Double = 2, minimumBarHeight: Double = 2) {
        self.barWidth = max(0.5, barWidth)
        self.gap = max(0, gap)
        self.minimumBarHeight = max(0, minimumBarHeight)
    }

    public var pitch: Double { barWidth + gap }

    /// How many whole bars fit in `width`.
    public func barCount(width: Double) -> Int {
        guard width.isFinite, width >= barWidth else { return 0 }
        return Int(((width + gap) / pitch).rounded(.down))
    }

    /// How far the bars reach from the left edge in `width`: the played
    /// part is this times the played fraction.
    public func extent(width: Double) -> Double {
        let count = barCount(width: width)
        return count > 0 ? Double(count - 1) * pitch + barWidth : 0
    }

    /// One bar: its left edge, top and height (the caps' room included).
    public struct Bar: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var height: Double
    }

    /// The bars for `fractions` (0…1, anything else clamped; NaN is silence)
    /// in a `width` × `height` area: the values re-binned to the bars that
    /// fit, each bar the maximum of its bin.
    public func bars(for fractions: [Double], width: Double, height: Double) -> [Bar] {
        let count = barCount(width: width)
        guard count > 0, height.isFinite, height > 0, !fractions.isEmpty else { return [] }
        let binned = rebinMaximum(fractions, into: count)
        let margin = barWidth / 2
        let room = max(0, height - 2 * margin)
        let floor = min(minimumBarHeight, room)
        return binned.enumerated().map { index, value in
            let fraction = value.isNaN ? 0 : min(1, max(0, value))
            let barHeight = floor + fraction * (room - floor)
            return Bar(x: Double(index) * pitch, y: (height - barHeight) / 2, height: barHeight)
        }
    }
}
