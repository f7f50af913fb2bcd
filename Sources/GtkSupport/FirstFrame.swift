import CGLib
import CGtk
import GLibSupport

/// Work that waits for a widget's first painted frame: what the user waits
/// for at start-up comes first, and whatever can come later (a store's checks)
/// does not compete with it for the cores.
@MainActor
public enum FirstFrame {
    /// Runs `body` once, in an idle after the frame clock of `widget` has
    /// painted a frame with it mapped; never when the widget is destroyed
    /// first (`lifetime` is the widget's), nor while it is never shown.
    public static func after(_ widget: UnsafeMutablePointer<GtkWidget>, lifetime: WidgetLifetime,
                             _ body: @escaping @MainActor () -> Void) {
        let instance = UnsafeMutableRawPointer(widget)
        var handler: UInt = 0
        let watch: @MainActor () -> Void = {
            guard handler != 0, let clock = gtk_widget_get_frame_clock(widget) else { return }
            Signal.disconnect(instance, handler)
            handler = 0
            afterPaint(of: clock, lifetime: lifetime, body)
            gtk_widget_queue_draw(widget)  // a frame is coming anyway as it maps; an already mapped one paints again
        }
        handler = Signal.connect(instance, "map", watch)
        if gtk_widget_get_mapped(widget) != 0 { watch() }
    }

    private static func afterPaint(of clock: OpaquePointer, lifetime: WidgetLifetime,
                                   _ body: @escaping @MainActor () -> Void) {
        let instance = UnsafeMutableRawPointer(clock)
        var handler: UInt = 0
        handler = Signal.connect(instance, "after-paint") {
            guard handler != 0 else { return }
            Signal.disconnect(instance, handler)
            handler = 0
            lifetime.idle {
                body()
                return false
            }
        }
    }
}
