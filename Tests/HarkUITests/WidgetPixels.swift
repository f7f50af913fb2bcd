import CCairo
import CGtk

/// What a shown widget looks like, as GTK would paint it: its render node
/// drawn by cairo into memory (no GPU, no screen grab).
struct WidgetPixels {
    let width: Int
    let height: Int
    private let argb: [UInt32]

    @MainActor
    init(_ widget: UnsafeMutablePointer<GtkWidget>) {
        width = Int(gtk_widget_get_width(widget))
        height = Int(gtk_widget_get_height(widget))
        let paintable = gtk_widget_paintable_new(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()!
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        if let node = gtk_snapshot_free_to_node(snapshot) {
            let cairo = cairo_create(surface)!
            gsk_render_node_draw(node, cairo)
            cairo_destroy(cairo)
            gsk_render_node_unref(node)
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface)) / 4
        let data = cairo_image_surface_get_data(surface)!.withMemoryRebound(to: UInt32.self, capacity: stride * height) { $0 }
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width { pixels.append(data[y * stride + x]) }
        }
        argb = pixels
    }

    /// How many pixels in columns `columns` satisfy `test(red, green, blue, alpha)`.
    func count(columns: Range<Int>, where test: (Int, Int, Int, Int) -> Bool) -> Int {
        var found = 0
        for y in 0..<height {
            for x in columns where x >= 0 && x < width {
                let pixel = argb[y * width + x]
                if test(Int(pixel >> 16 & 0xff), Int(pixel >> 8 & 0xff), Int(pixel & 0xff), Int(pixel >> 24)) { found += 1 }
            }
        }
        return found
    }
}
