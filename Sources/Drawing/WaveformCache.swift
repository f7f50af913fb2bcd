import CCairo
import Levels

/// A message's waveform rasterised once into an alpha mask, then drawn on
/// every frame as up to three fills of the played, preview and unplayed
/// colours through that mask, each clipped to its span: a frame of a playing
/// message costs a few blits, however many bars and levels it has. The mask
/// is made again when the size, scale, layout or style change, and after
/// `invalidate()` (the levels changed). Colours are applied at draw time, so
/// a theme change costs nothing.
public final class WaveformCache {
    private struct Key: Equatable {
        var width: Double
        var height: Double
        var scale: Double
        var layout: WaveformLayout
        var style: WaveformStyle
    }

    private var mask: OpaquePointer?
    private var key: Key?
    /// How many times the mask was made: for tests and the benchmark.
    public private(set) var rasterisations = 0

    public init() {}

    deinit {
        if let mask { cairo_surface_destroy(mask) }
    }

    /// Forgets the mask: the next draw makes it from the levels it is given.
    public func invalidate() {
        key = nil
    }

    /// Draws like `WaveformPainter.draw`; `scale` is the display's scale
    /// factor (2 on HiDPI), for a mask as sharp as direct drawing.
    public func draw(_ cairo: OpaquePointer, width: Double, height: Double, scale: Double = 1, fractions: [Double],
                     played: Double, hover: Double? = nil, layout: WaveformLayout = WaveformLayout(),
                     colors: WaveformColors = .light, style: WaveformStyle = .bars) {
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        WaveformPainter.paintBackground(cairo, colors)
        guard width >= 1, height >= 1, !fractions.isEmpty,
              let mask = mask(width: width, height: height, scale: max(1, scale), fractions: fractions,
                              layout: layout, style: style) else { return }
        let zones = WaveformPainter.zones(width: width, extent: layout.extent(width: width), played: played,
                                          hover: hover, colors: colors)
        for zone in zones {
            cairo_save(cairo)
            cairo_rectangle(cairo, zone.left, 0, zone.right - zone.left, height)
            cairo_clip(cairo)
            zone.color.set(on: cairo)
            cairo_mask_surface(cairo, mask, 0, 0)
            cairo_restore(cairo)
        }
    }

    private func mask(width: Double, height: Double, scale: Double, fractions: [Double], layout: WaveformLayout,
                      style: WaveformStyle) -> OpaquePointer? {
        let wanted = Key(width: width, height: height, scale: scale, layout: layout, style: style)
        if let mask, key == wanted { return mask }
        if let mask { cairo_surface_destroy(mask) }
        mask = nil
        key = nil
        let bars = layout.bars(for: fractions, width: width, height: height)
        guard !bars.isEmpty,
              let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32((width * scale).rounded(.up)),
                                                       Int32((height * scale).rounded(.up))),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        cairo_surface_set_device_scale(surface, scale, scale)
        let context = cairo_create(surface)!
        WaveformPainter.addShape(context, bars, all: bars, layout: layout, height: height, style: style)
        cairo_set_source_rgba(context, 0, 0, 0, 1)
        cairo_fill(context)
        cairo_destroy(context)
        cairo_surface_flush(surface)
        mask = surface
        key = wanted
        rasterisations += 1
        return surface
    }
}
