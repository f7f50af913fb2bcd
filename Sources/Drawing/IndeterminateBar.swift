import CCairo

/// A short segment travelling across a track, over and over, for work whose
/// length is unknown.
public struct IndeterminateBar: Sendable, Equatable {
    /// The segment's length as a fraction of the track's.
    public var segmentFraction = 0.3
    public var thickness = 4.0
    public var trackColor = RGBA(0, 0, 0, 0.1)
    public var segmentColor = RGBA(hex: 0x3584E4)
    public var secondsPerPass = 1.2

    public init() {}

    /// Where the segment is at `time` (seconds): its start and end, in
    /// 0…1 of the track, clipped to it. It enters from the left edge and
    /// leaves by the right one, then starts again.
    public func segment(at time: Double) -> (start: Double, end: Double) {
        guard secondsPerPass > 0, time.isFinite else { return (0, segmentFraction) }
        let phase = time.truncatingRemainder(dividingBy: secondsPerPass) / secondsPerPass
        let phasePositive = phase < 0 ? phase + 1 : phase
        let head = phasePositive * (1 + segmentFraction)  // travels from 0 to 1 + its length
        return (max(0, head - segmentFraction), min(1, head))
    }

    /// The still picture shown when animations are off: the segment in the middle.
    public var staticSegment: (start: Double, end: Double) {
        ((1 - segmentFraction) / 2, (1 + segmentFraction) / 2)
    }

    public func draw(_ cairo: OpaquePointer, width: Double, height: Double, segment: (start: Double, end: Double)) {
        let y = height / 2
        let inset = thickness / 2
        let usable = max(0, width - thickness)
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_width(cairo, thickness)
        trackColor.set(on: cairo)
        cairo_move_to(cairo, inset, y)
        cairo_line_to(cairo, inset + usable, y)
        cairo_stroke(cairo)
        guard segment.end > segment.start else { return }
        segmentColor.set(on: cairo)
        cairo_move_to(cairo, inset + segment.start * usable, y)
        cairo_line_to(cairo, inset + segment.end * usable, y)
        cairo_stroke(cairo)
    }
}
