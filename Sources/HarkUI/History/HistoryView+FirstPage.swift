import CGLib
import CGtk
import GtkSupport

/// The window opening on a long history: its first frame shows the newest
/// messages, and the list holds only as many as can fill the window until
/// that frame is painted; the older ones come in front of them right after.
/// GTK makes and binds the rows around the list's anchor as the list is
/// filled (about 33 of them), each with its widgets styled and laid out for
/// the first frame, though a window shows fewer than half of them: with
/// 10,000 messages, the first frame came a third later than with 10.
extension HistoryView {
    /// The smallest a row is, in pixels: its play button and margins.
    static let smallestRowHeight: Int32 = 56

    /// How many messages the whole list reads now: the first page while the
    /// window has not painted its first frame (a list read before it is
    /// mapped, as the window opens), else nil for all of them.
    func pageBeforeFirstFrame() -> Int? {
        if let firstPage { return firstPage }
        guard all.keys.isEmpty, let root = gtk_widget_get_root(widget) else { return nil }
        let window = Widget.widget(root)
        guard gtk_widget_get_mapped(window) == 0 else { return nil }
        let page = Int(Self.tallest(window) / Self.smallestRowHeight) + 2
        firstPage = page
        FirstFrame.after(window, lifetime: lifetime) { [weak self] in
            guard let self else { return }
            self.firstPage = nil
            let wasAtEnd = self.isScrolledToEnd
            self.readAll()
            if wasAtEnd { self.scrollToEnd() }
        }
        return page
    }

    /// The height the window opens with: its default height, or the
    /// tallest monitor's when it opens maximized.
    private static func tallest(_ window: UnsafeMutablePointer<GtkWidget>) -> Int32 {
        var width: Int32 = 0, height: Int32 = 0
        let gtkWindow = UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self)
        gtk_window_get_default_size(gtkWindow, &width, &height)
        guard gtk_window_is_maximized(gtkWindow) != 0 || gtk_window_is_fullscreen(gtkWindow) != 0 || height <= 0,
              let monitors = gdk_display_get_monitors(gtk_widget_get_display(window)) else { return max(height, 0) }
        for index in 0..<g_list_model_get_n_items(monitors) {
            guard let monitor = g_list_model_get_item(monitors, index) else { continue }
            var geometry = GdkRectangle()
            gdk_monitor_get_geometry(OpaquePointer(monitor), &geometry)
            height = max(height, geometry.height)
            g_object_unref(monitor)
        }
        return height
    }
}
