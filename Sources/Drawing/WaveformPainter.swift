import CCairo
import Levels

/// A colour with alpha, components 0…1.
public struct RGBA: Sendable, Equatable {
    public var red, green, blue, alpha: Double
    public init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// From 0xRRGGBB.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255, alpha)
    }
    public func set(on cairo: OpaquePointer) { cairo_set_source_rgba(cairo, red, green, blue, alpha) }
}

/// The colours of a waveform, from the libadwaita palette.
public struct WaveformColors: Sendable, Equatable {
    public var played: RGBA
    public var unplayed: RGBA
    public var background: RGBA?

    public init(played: RGBA, unplayed: RGBA, background: RGBA? = nil) {
        self.played = played
        self.unplayed = unplayed
        self.background = background
    }

    /// Adwaita's accent blue for the played part; the text colour at 0.55
    /// (GNOME Sound Recorder's choice) for the rest.
    public static let light = WaveformColors(played: RGBA(hex: 0x3584E4), unplayed: RGBA(0, 0, 0, 0.8 * 0.55),
                                             background: RGBA(hex: 0xFAFAFA))
    public static let dark = WaveformColors(played: RGBA(hex: 0x78AEED), unplayed: RGBA(1, 1, 1, 0.55),
                                            background: RGBA(hex: 0x242424))
}

public enum WaveformStyle: String, Sendable, CaseIterable {
    /// Round-capped vertical bars.
    case bars
    /// A smooth envelope mirrored around the centre line, filled.
    case line
}

/// Draws a message-mode waveform into any cairo context: the whole message
/// fitted to the width, played part in the played colour up to `played`
/// (0…1, at sub-bar precision: the bar under the playhead is split).
public enum WaveformPainter {
    /// `hover` (0…1), when the pointer is over the waveform: from the played
    /// part up to it, bars take a lighter played colour — where a click would seek.
    public static func draw(_ cairo: OpaquePointer, width: Double, height: Double, fractions: [Double],
                            played: Double, hover: Double? = nil, layout: WaveformLayout = WaveformLayout(),
                            colors: WaveformColors = .light, style: WaveformStyle = .bars) {
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        paintBackground(cairo, colors)
        let bars = layout.bars(for: fractions, width: width, height: height)
        guard !bars.isEmpty else { return }
        // Each zone's path holds only the bars that reach into it, so every
        // bar is rasterised once (twice where a boundary splits it).
        for zone in zones(width: width, extent: layout.extent(width: width), played: played, hover: hover, colors: colors) {
            cairo_save(cairo)
            cairo_rectangle(cairo, zone.left, 0, zone.right - zone.left, height)
            cairo_clip(cairo)
            addShape(cairo, bars.filter { $0.x < zone.right && $0.x + layout.barWidth > zone.left }, all: bars,
                     layout: layout, height: height, style: style)
            zone.color.set(on: cairo)
            cairo_fill(cairo)
            cairo_restore(cairo)
        }
    }

    static func paintBackground(_ cairo: OpaquePointer, _ colors: WaveformColors) {
        guard let background = colors.background else { return }
        background.set(on: cairo)
        cairo_paint(cairo)
    }

    /// A span of the waveform and the colour its bars take there.
    struct Zone {
        var left: Double
        var right: Double
        var color: RGBA
    }

    /// The three zones, left to right: played, from there to the pointer
    /// (a lighter played colour: where a click would seek), and the rest;
    /// empty ones left out.
    static func zones(width: Double, extent: Double, played: Double, hover: Double?, colors: WaveformColors) -> [Zone] {
        let playedX = min(1, max(0, played.isNaN ? 0 : played)) * extent
        let hoverX = hover.map { min(1, max(0, $0.isNaN ? 0 : $0)) * extent } ?? playedX
        var preview = colors.played
        preview.alpha *= 0.45
        return [Zone(left: 0, right: playedX, color: colors.played),
                Zone(left: playedX, right: hoverX, color: preview),
                Zone(left: max(playedX, hoverX), right: width, color: colors.unplayed)].filter { $0.right > $0.left }
    }

    /// The path of the waveform: `bars` as bars, or the envelope of `all`.
    static func addShape(_ cairo: OpaquePointer, _ bars: [WaveformLayout.Bar], all: [WaveformLayout.Bar],
                         layout: WaveformLayout, height: Double, style: WaveformStyle) {
        switch style {
        case .bars: addBars(cairo, bars, layout: layout)
        case .line: addEnvelope(cairo, all, layout: layout, height: height)
        }
    }

    /// Each bar a rectangle with half-disc caps, all in one path.
    private static func addBars(_ cairo: OpaquePointer, _ bars: [WaveformLayout.Bar], layout: WaveformLayout) {
        let radius = layout.barWidth / 2
        for bar in bars {
            // Cap centres a radius inside the bar's ends; a bar shorter than
            // its width is a dot.
            let centre = bar.x + radius
            let middle = bar.y + bar.height / 2
            let top = min(bar.y + radius, middle)
            let bottom = max(bar.y + bar.height - radius, middle)
            cairo_new_sub_path(cairo)
            cairo_arc(cairo, centre, top, radius, Double.pi, 0)
            cairo_arc(cairo, centre, bottom, radius, 0, Double.pi)
            cairo_close_path(cairo)
        }
    }

    /// A smooth outline through the bar tops, mirrored below the centre.
    private static func addEnvelope(_ cairo: OpaquePointer, _ bars: [WaveformLayout.Bar], layout: WaveformLayout,
                                    height: Double) {
        let centreY = height / 2
        let points = bars.map { (x: $0.x + layout.barWidth / 2, half: $0.height / 2) }
        func curve(_ sign: Double, _ sequence: [(x: Double, half: Double)]) {
            for index in 1..<sequence.count {
                let previous = sequence[index - 1], current = sequence[index]
                let middleX = (previous.x + current.x) / 2
                cairo_curve_to(cairo, middleX, centreY - sign * previous.half, middleX, centreY - sign * current.half,
                               current.x, centreY - sign * current.half)
            }
        }
        cairo_move_to(cairo, points[0].x, centreY - points[0].half)
        if points.count > 1 { curve(1, points) }
        cairo_line_to(cairo, points.last!.x, centreY + points.last!.half)
        if points.count > 1 { curve(-1, points.reversed()) }
        cairo_close_path(cairo)
    }
}
