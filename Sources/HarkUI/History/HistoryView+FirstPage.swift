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
    /// The most older messages a step after the first frame puts in.
    static let fillStep = 500

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
        FirstFrame.after(window, lifetime: lifetime) { [weak self] in self?.fillIn() }
        return page
    }

    /// After the first frame, the older messages come in front of those
    /// shown, a step each idle, GTK laying out and painting between two:
    /// all of them at once held the window 80-130 ms, most of it making the
    /// rows GTK keeps beyond the first page (about 4 ms each), so the first
    /// steps are a few messages and each a third more, up to `fillStep`.
    /// Each step reads the list as any change does (see readAll), so a
    /// message added, a room shown or a search meanwhile is shown as ever;
    /// it ends when the store has no older message (readAll clears `firstPage`).
    private func fillIn() {
        fillsIn = true
        lifetime.idle { [weak self] in
            guard let self, let page = self.firstPage else { return false }
            let wasAtEnd = self.query == nil && self.isScrolledToEnd
            self.firstPage = page + min(max(page / 3, 4), Self.fillStep)
            self.readAll()
            if wasAtEnd { self.scrollToEnd() }
            return self.firstPage != nil
        }
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
