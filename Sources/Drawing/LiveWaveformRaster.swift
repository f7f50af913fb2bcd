import CCairo

/// Draws a `LiveWaveform` as `LiveWaveform.draw` does, from a strip of bars
/// rasterised once each: a new level costs one bar's stroke, and a frame one
/// blit of the strip through a mask of the fades, however many bars show.
/// Stroking every visible bar anew was most of a recording window's frame
/// (about 1.4 % of a core at 20 frames a second, profiled under Xvfb).
///
/// The strip holds room for as many bars again as the area shows; once the
/// newest would fall off its end, it starts over from the first visible bar.
/// It is made again when the size, scale, colour or layout change, and when
/// the waveform changes other than by bars added at its end.
public final class LiveWaveformRaster {
    private struct Key: Equatable {
        var width: Double
        var height: Double
        var scale: Double
        var color: RGBA
        var layout: WaveformLayout
        var rewrites: Int
    }

    private struct FadeKey: Equatable {
        var width: Double
        var height: Double
        var scale: Double
        var layout: WaveformLayout
        var fadeCount: Int
        var overflowing: Bool
    }

    private var strip: OpaquePointer?
    private var key: Key?
    /// The strip's first bar, counted from the recording's start, and the
    /// bar after its last one drawn.
    private var first = 0
    private var end = 0
    private var capacity = 0
    private var fade: OpaquePointer?
    private var fadeKey: FadeKey?
    /// How many bars were stroked into a strip: for tests and the benchmark.
    public private(set) var barsRasterised = 0
    /// How many strips were started.
    public private(set) var strips = 0

    public init() {}

    deinit {
        if let strip { cairo_surface_destroy(strip) }
        if let fade { cairo_surface_destroy(fade) }
    }

    /// Draws `waveform` in `color` into a `width` × `height` area; `scale`
    /// is the display's scale factor, for a strip as sharp as direct drawing.
    public func draw(_ cairo: OpaquePointer, waveform: LiveWaveform, width: Double, height: Double,
                     scale: Double = 1, color: RGBA) {
        let count = waveform.visible(width: width).count
        guard count > 0, height >= 1 else { return }
        let scale = max(1, scale)
        let total = waveform.dropped + waveform.fractions.count
        let visibleFirst = total - count
        // The strip moves by whole bars: only where a bar's pitch is whole
        // pixels does it land on them unblurred. Elsewhere, and where a strip
        // cannot be had (wider than cairo's images go), bar by bar.
        let pitchPixels = waveform.layout.pitch * scale
        guard pitchPixels == pitchPixels.rounded(),
              let strip = strip(for: waveform, width: width, height: height, scale: scale, color: color,
                                visibleFirst: visibleFirst, total: total),
              let fade = fade(for: waveform, width: width, height: height, scale: scale) else {
            return waveform.draw(cairo, width: width, height: height, color: color)
        }
        cairo_save(cairo)
        cairo_rectangle(cairo, 0, 0, width, height)
        cairo_clip(cairo)
        cairo_set_source_surface(cairo, strip, -Double(visibleFirst - first) * waveform.layout.pitch, 0)
        cairo_mask_surface(cairo, fade, 0, 0)
        cairo_restore(cairo)
    }

    private func strip(for waveform: LiveWaveform, width: Double, height: Double, scale: Double, color: RGBA,
                       visibleFirst: Int, total: Int) -> OpaquePointer? {
        let wanted = Key(width: width, height: height, scale: scale, color: color, layout: waveform.layout,
                         rewrites: waveform.rewrites)
        let barsShown = waveform.layout.barCount(width: width)
        if strip == nil || key != wanted || visibleFirst < first || total - first > capacity || end < visibleFirst {
            if let strip { cairo_surface_destroy(strip) }
            strip = nil
            key = nil
            capacity = barsShown * 2
            let pixels = Double(capacity) * waveform.layout.pitch * scale
            guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixels.rounded(.up)),
                                                           Int32((height * scale).rounded(.up))),
                  cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
            cairo_surface_set_device_scale(surface, scale, scale)
            strip = surface
            key = wanted
            first = visibleFirst
            end = visibleFirst
            strips += 1
        }
        guard let strip else { return nil }
        if end < total {
            let context = cairo_create(strip)!
            color.set(on: context)
            for bar in end..<total {
                waveform.addBar(context, waveform.fractions[bar - waveform.dropped], at: bar - first, height: height)
                barsRasterised += 1
            }
            cairo_stroke(context)
            cairo_destroy(context)
            cairo_surface_flush(strip)
            end = total
        }
        return strip
    }

    private func fade(for waveform: LiveWaveform, width: Double, height: Double, scale: Double) -> OpaquePointer? {
        let overflowing = waveform.isOverflowing(width: width)
        let wanted = FadeKey(width: width, height: height, scale: scale, layout: waveform.layout,
                             fadeCount: waveform.fadeCount, overflowing: overflowing)
        if let fade, fadeKey == wanted { return fade }
        if let fade { cairo_surface_destroy(fade) }
        fade = nil
        fadeKey = nil
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32((width * scale).rounded(.up)),
                                                       Int32((height * scale).rounded(.up))),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        cairo_surface_set_device_scale(surface, scale, scale)
        let context = cairo_create(surface)!
        // Each bar's column in its opacity: a bar and its antialiased edge
        // stay inside the column (a pitch wide) that starts at its left edge.
        let pitch = waveform.layout.pitch
        let alphas = waveform.fadeAlphas(count: waveform.layout.barCount(width: width), overflowing: overflowing)
        for (index, alpha) in alphas.enumerated() {
            cairo_set_source_rgba(context, 0, 0, 0, alpha)
            cairo_rectangle(context, Double(index) * pitch, 0, index == alphas.count - 1 ? width : pitch, height)
            cairo_fill(context)
        }
        cairo_destroy(context)
        cairo_surface_flush(surface)
        fade = surface
        fadeKey = wanted
        return surface
    }
}
