import CCairo
import Foundation

/// A ring: a track, and an arc from 12 o'clock clockwise for the progress,
/// with round caps; optionally a label in the middle. Serves as the
/// recording-time ring and the play button's progress.
public struct CircularProgress: Sendable, Equatable {
    public var trackColor = RGBA(0, 0, 0, 0.1)
    public var progressColor = RGBA(hex: 0x3584E4)
    public var trackWidth = 4.0
    public var progressWidth = 4.0

    public init() {}

    /// The arc's end angle in Cairo's terms (0 = 3 o'clock, clockwise),
    /// starting at 12 o'clock (-π/2). Progress is clamped to 0…1.
    public static func endAngle(_ progress: Double) -> Double {
        let clamped = progress.isFinite ? min(1, max(0, progress)) : 0
        return -Double.pi / 2 + clamped * 2 * Double.pi
    }

    /// The radius of the track and the arc in a ring `size` across.
    public func radius(size: Double) -> Double { (size - max(trackWidth, progressWidth)) / 2 }

    /// Whether a ring `size` across looks different at `new` than at `old`:
    /// its arc's end moved by half a pixel or more. Smaller steps are not
    /// drawn (a 30-minute recording's ring moves a pixel every few seconds).
    public func looksDifferent(_ old: Double, _ new: Double, size: Double) -> Bool {
        abs(Self.endAngle(new) - Self.endAngle(old)) * max(0, radius(size: size)) >= 0.5
    }

    public func draw(_ cairo: OpaquePointer, size: Double, progress: Double) {
        let radius = radius(size: size)
        guard radius > 0 else { return }
        let centre = size / 2
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        cairo_new_path(cairo)
        cairo_arc(cairo, centre, centre, radius, 0, 2 * Double.pi)
        cairo_set_line_width(cairo, trackWidth)
        trackColor.set(on: cairo)
        cairo_stroke(cairo)
        let end = Self.endAngle(progress)
        guard end > -Double.pi / 2 else { return }
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_width(cairo, progressWidth)
        cairo_arc(cairo, centre, centre, radius, -Double.pi / 2, end)
        progressColor.set(on: cairo)
        cairo_stroke(cairo)
    }

    /// "42%", the label for a fraction.
    public static func percentLabel(_ progress: Double) -> String {
        "\(Int(((progress.isFinite ? min(1, max(0, progress)) : 0) * 100).rounded()))%"
    }
}

/// A linear animation of a value from one number to another over a duration,
/// evaluated at any time: the widget asks it on each frame-clock tick.
public struct LinearAnimation: Sendable, Equatable {
    public var from: Double
    public var to: Double
    public var duration: Double
    public var start: Double

    public init(from: Double, to: Double, duration: Double, start: Double) {
        self.from = from
        self.to = to
        self.duration = max(0, duration)
        self.start = start
    }

    public func value(at time: Double) -> Double {
        guard duration > 0 else { return to }
        let t = min(1, max(0, (time - start) / duration))
        return from + (to - from) * t
    }

    public func isFinished(at time: Double) -> Bool { time >= start + duration }
}
