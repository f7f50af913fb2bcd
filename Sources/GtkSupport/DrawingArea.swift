import CGLib
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

/// Called once per frame while the widget is mapped, with the frame time in
/// seconds; return true to keep ticking. Runs only while the widget shows: no
/// CPU spent on hidden animations.
public typealias TickHandler = @MainActor (_ frameTime: Double) -> Bool

@MainActor
public enum FrameClock {
    /// Adds a tick callback to `widget`; returns its id for `remove`.
    @discardableResult
    public static func addTick(_ widget: UnsafeMutablePointer<GtkWidget>, _ tick: @escaping TickHandler) -> UInt32 {
        let box = HandlerBox(tick)
        return gtk_widget_add_tick_callback(widget, tickTrampoline, box.retainedPointer(), releaseHandlerBox)
    }

    public static func remove(_ widget: UnsafeMutablePointer<GtkWidget>, _ id: UInt32) {
        gtk_widget_remove_tick_callback(widget, guint(id))
    }

    /// Whether the user wants animations (`gtk-enable-animations`). Asked
    /// at each frame while recording, so the setting is read once and then
    /// kept up to date by its change notification.
    public static var animationsEnabled: Bool {
        if let known = knownAnimationsEnabled { return known }
        guard let settings = gtk_settings_get_default() else { return true }
        let object = UnsafeMutableRawPointer(settings)
        Signal.connectPointer(object, "notify::gtk-enable-animations") { _ in readAnimationsEnabled(object) }
        return readAnimationsEnabled(object)
    }
    private static var knownAnimationsEnabled: Bool?

    @discardableResult
    private static func readAnimationsEnabled(_ settings: UnsafeMutableRawPointer) -> Bool {
        let enabled = hark_object_get_bool(settings, "gtk-enable-animations") != 0
        knownAnimationsEnabled = enabled
        return enabled
    }
}
