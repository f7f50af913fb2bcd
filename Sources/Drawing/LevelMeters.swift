import CCairo
import Foundation
import Levels

/// The seed's three-line level meter: a main centre line and two shorter
/// side lines, round-capped, whose heights follow the level between a minimum
/// and a maximum threshold (below the minimum they rest at a small height;
/// the side lines saturate earlier, so loud speech fills them first).
public struct ThreeLineMeter: Sendable, Equatable {
    public var minimumDecibels = -50.0
    public var mainMaximumDecibels = -6.0
    public var sideMaximumDecibels = -18.0
    /// The height of a line at rest, as a fraction of the full height.
    public var restFraction = 0.15
    /// The side lines' full height, as a fraction of the main line's.
    public var sideScale = 0.6

    public init() {}

    /// Heights (fractions of the available height) of the left, main and
    /// right lines for a level in dBFS.
    public func heights(decibels: Double) -> (side: Double, main: Double) {
        func fill(_ maximum: Double) -> Double {
            let level = Decibels.clamp(decibels)
            guard level > minimumDecibels else { return 0 }
            return min(1, (level - minimumDecibels) / (maximum - minimumDecibels))
        }
        let main = restFraction + (1 - restFraction) * fill(mainMaximumDecibels)
        let side = (restFraction + (1 - restFraction) * fill(sideMaximumDecibels)) * sideScale
        return (side, main)
    }

    public func draw(_ cairo: OpaquePointer, width: Double, height: Double, decibels: Double, color: RGBA) {
        let (side, main) = heights(decibels: decibels)
        let lineWidth = max(1, width / 5)
        let room = max(0, height - lineWidth)
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_width(cairo, lineWidth)
        color.set(on: cairo)
        for (x, fraction) in [(lineWidth / 2, side), (width / 2, main), (width - lineWidth / 2, side)] {
            let half = fraction * room / 2
            cairo_move_to(cairo, x, height / 2 - half)
            cairo_line_to(cairo, x, height / 2 + half)
        }
        cairo_stroke(cairo)
    }
}

/// The seed's pulse: two circles behind a round button (opacities 0.2 and
/// 0.8), scaled by the level and eased towards it over about 100 ms.
public struct LevelPulse: Sendable, Equatable {
    public var mapping = DisplayMapping(floorDecibels: -50, ceilingDecibels: -6)
    /// How far the circles reach beyond the button at full level, as a
    /// fraction of its radius.
    public var reach = 0.6
    public var easingSeconds = 0.1
    /// The eased level, 0…1.
    public private(set) var value = 0.0

    public init() {}

    /// Moves the eased value towards `decibels` for `seconds` of time passed:
    /// exponential easing, about 95% of the way after `easingSeconds`.
    public mutating func advance(towards decibels: Double, seconds: Double) {
        let target = mapping.fraction(decibels)
        guard easingSeconds > 0, seconds.isFinite, seconds > 0 else { value = target; return }
        let keep = pow(0.05, seconds / easingSeconds)
        value = target + (value - target) * keep
    }

    /// Puts the pulse at rest at `decibels` at once (a recording ended).
    public mutating func rest(at decibels: Double = -100) {
        value = mapping.fraction(decibels)
    }

    /// Whether the outer circle around a button of `radius` differs by a
    /// quarter of a pixel or more between eased values `old` and `new`.
    public func looksDifferent(_ old: Double, _ new: Double, buttonRadius radius: Double) -> Bool {
        abs(new - old) * reach * radius >= 0.25
    }

    /// The radii of the outer (0.2) and inner (0.8) circles around a button of `radius`.
    public func radii(buttonRadius radius: Double) -> (outer: Double, inner: Double) {
        (radius * (1 + reach * value), radius * (1 + reach * value * 0.5))
    }

    public func draw(_ cairo: OpaquePointer, centreX: Double, centreY: Double, buttonRadius: Double, color: RGBA) {
        let (outer, inner) = radii(buttonRadius: buttonRadius)
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        for (radius, opacity) in [(outer, 0.2), (inner, 0.8)] {
            cairo_new_path(cairo)
            cairo_arc(cairo, centreX, centreY, radius, 0, 2 * Double.pi)
            cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha * opacity)
            cairo_fill(cairo)
        }
    }
}
