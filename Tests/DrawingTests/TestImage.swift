import CCairo

/// What `draw` paints on a fresh transparent ARGB32 surface, as its pixels
/// (0xAARRGGBB, premultiplied), row after row.
func drawnPixels(width: Int, height: Int, _ draw: (OpaquePointer) -> Void) -> [UInt32] {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
    defer { cairo_surface_destroy(surface) }
    let cairo = cairo_create(surface)!
    draw(cairo)
    cairo_destroy(cairo)
    cairo_surface_flush(surface)
    let data = cairo_image_surface_get_data(surface)!
    let stride = Int(cairo_image_surface_get_stride(surface))
    return (0..<height).flatMap { y in
        (0..<width).map { x in UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self) }
    }
}
