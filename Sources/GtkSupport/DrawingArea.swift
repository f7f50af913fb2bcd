import CGtk
import GLibSupport

/// Draws a GtkDrawingArea with a Swift closure: (cairo context, width, height).
/// The context is borrowed for the call; draw into it, never keep it.
public typealias DrawHandler = @MainActor (_ cairo: OpaquePointer, _ width: Int, _ height: Int) -> Void

@MainActor
public enum DrawingArea {
    /// Sets (or replaces) the draw function; the previous closure is released.
    public static func setDraw(_ area: UnsafeMutablePointer<GtkDrawingArea>, _ draw: @escaping DrawHandler) {
        let box = HandlerBox(draw)
        gtk_drawing_area_set_draw_func(area, drawTrampoline, box.retainedPointer(), releaseHandlerBox)
    }
}
