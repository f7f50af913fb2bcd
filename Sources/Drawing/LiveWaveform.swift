import CCairo
import Levels

/// The recording-time waveform: bars appended as levels arrive, newest at the
/// right; when they no longer fit, the oldest scroll off the left. The first
/// and last `fadeCount` bars fade linearly towards the edges — the left one
/// always, the right one only once bars overflow, to say "there is more".
public struct LiveWaveform: Sendable, Equatable {
    /// Bar heights as fractions 0…1 (non-finite values count as silence).
    public private(set) var fractions: [Double] = []
    public var layout: WaveformLayout
    public var fadeCount: Int
    /// Kept at most: enough for any width, without growing for ever.
    public var capacity: Int
    /// How many bars were let go from the front (beyond `capacity`): with
    /// an index into `fractions`, a bar's place in the whole recording.
    public private(set) var dropped = 0
    /// Counts the changes other than a bar added at the end (an insert
    /// before the last bar, a clear): what a raster of the bars so far
    /// (`LiveWaveformRaster`) cannot follow by drawing only the new ones.
    public private(set) var rewrites = 0

    public init(layout: WaveformLayout = WaveformLayout(barWidth: 3, gap: 3), fadeCount: Int = 9, capacity: Int = 4_096) {
        self.layout = layout
        self.fadeCount = max(0, fadeCount)
        self.capacity = max(1, capacity)
    }

    public mutating func append(_ fraction: Double) {
        insert(fraction, at: fractions.count)
    }

    /// Inserts a bar at `index` (clamped into range).
    public mutating func insert(_ fraction: Double, at index: Int) {
        let place = min(max(0, index), fractions.count)
        if place < fractions.count { rewrites += 1 }
        fractions.insert(fraction.isFinite ? min(1, max(0, fraction)) : 0, at: place)
        if fractions.count > capacity {
            dropped += fractions.count - capacity
            fractions.removeFirst(fractions.count - capacity)
        }
    }

    public mutating func removeAll() {
        fractions.removeAll()
        dropped = 0
        rewrites += 1
    }

    /// The bars that show in `width`: the latest ones.
    public func visible(width: Double) -> ArraySlice<Double> {
        let count = layout.barCount(width: width)
        return fractions.suffix(count)
    }

    public func isOverflowing(width: Double) -> Bool { fractions.count > layout.barCount(width: width) }

    /// The opacity of each visible bar, left to right.
    public func alphas(width: Double) -> [Double] {
        fadeAlphas(count: visible(width: width).count, overflowing: isOverflowing(width: width))
    }

    /// The opacity of `count` bars in a row, left to right: the first
    /// `fadeCount` fade in, and the last ones fade out when `overflowing`.
    public func fadeAlphas(count: Int, overflowing: Bool) -> [Double] {
        (0..<count).map { index in
            guard fadeCount > 0 else { return 1 }
            var alpha = min(1, Double(index + 1) / Double(fadeCount + 1))
            if overflowing { alpha = min(alpha, Double(count - index) / Double(fadeCount + 1)) }
            return alpha
        }
    }

    /// Draws the visible bars in `color`, each with its fade.
    public func draw(_ cairo: OpaquePointer, width: Double, height: Double, color: RGBA) {
        let shown = Array(visible(width: width))
        guard !shown.isEmpty else { return }
        let alphas = alphas(width: width)
        cairo_save(cairo)
        for (index, fraction) in shown.enumerated() {
            cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha * alphas[index])
            addBar(cairo, fraction, at: index, height: height)
            cairo_stroke(cairo)
        }
        cairo_restore(cairo)
    }

    /// Adds the bar for `fraction` at place `index` from the left to
    /// `cairo`'s path, as a round-capped line to be stroked.
    func addBar(_ cairo: OpaquePointer, _ fraction: Double, at index: Int, height: Double) {
        let room = max(0, height - layout.barWidth)
        let floor = min(layout.minimumBarHeight, room)
        let barHeight = floor + fraction * (room - floor)
        let x = Double(index) * layout.pitch + layout.barWidth / 2
        // A round-capped stroke: its caps add a radius at each end.
        let half = max(0, barHeight - layout.barWidth) / 2
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_width(cairo, layout.barWidth)
        cairo_move_to(cairo, x, height / 2 - half)
        cairo_line_to(cairo, x, height / 2 + half)
    }
}
