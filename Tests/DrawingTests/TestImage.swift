import CCairo

/// What `draw` paints on a fresh transparent ARGB32 surface of `width` ×
/// `height` units at `scale` device pixels each, as its pixels (0xAARRGGBB,
/// premultiplied), row after row.
func drawnPixels(width: Int, height: Int, scale: Double = 1, _ draw: (OpaquePointer) -> Void) -> [UInt32] {
    let wide = Int(Double(width) * scale), high = Int(Double(height) * scale)
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(wide), Int32(high))!
    defer { cairo_surface_destroy(surface) }
    cairo_surface_set_device_scale(surface, scale, scale)
    let cairo = cairo_create(surface)!
    draw(cairo)
    cairo_destroy(cairo)
    cairo_surface_flush(surface)
    let data = cairo_image_surface_get_data(surface)!
    let stride = Int(cairo_image_surface_get_stride(surface))
    return (0..<high).flatMap { y in
        (0..<wide).map { x in UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self) }
    }
}
