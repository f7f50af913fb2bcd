import CCairo

/// Which way time runs across a drawing: from the left, or (in Persian,
/// Arabic, Hebrew) from the right, as the text and GTK's sliders run. A
/// waveform starts at its leading edge, so its played part, its hover
/// preview and the live recording grow the way a line of text is read.
public enum ReadingDirection: Sendable, Equatable {
    case leftToRight
    case rightToLeft

    /// Where along a drawn part `drawnWidth` wide, starting at the leading
    /// edge of an area `areaWidth` wide, the point at `x` (from the area's
    /// left) falls: 0 at the start, 1 at the end; nil outside the drawn part.
    public func fraction(atX x: Double, areaWidth: Double, drawnWidth: Double) -> Double? {
        guard drawnWidth > 0 else { return nil }
        let along = self == .leftToRight ? x : areaWidth - x
        guard along >= 0, along <= drawnWidth else { return nil }
        return along / drawnWidth
    }

    /// Makes cairo's x run from the leading edge of an area `areaWidth`
    /// wide, so a drawing made for left to right comes out mirrored when
    /// text runs right to left.
    public func orient(_ cairo: OpaquePointer, areaWidth: Double) {
        guard self == .rightToLeft else { return }
        cairo_translate(cairo, areaWidth, 0)
        cairo_scale(cairo, -1, 1)
    }
}
