import CGLib
import CGtk
import GLibSupport
import GtkSupport

/// An undone deletion: the message comes back where it was on screen, the
/// list around it not moving, and the keyboard focus on it (not on the
/// neighbour that took it when the message went).
extension HistoryView {
    /// Where `id`'s row is in the viewport (its top, in pixels), while on screen.
    func place(of id: String) -> Double? {
        guard lifetime.isAlive, let itemWidget = itemWidget(showing: id), placement(of: itemWidget) != .outside else { return nil }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(itemWidget, scroller, &bounds) != 0 else { return nil }
        return Double(bounds.origin.y)
    }

    /// Moves `id`, back in the lists, to `place` in the viewport when it was
    /// on screen (else scrolls to it), and gives it the focus unless the
    /// focus is in a text field (see HistoryChange.restored).
    func bringBack(_ id: String, to place: Double?) {
        guard let index = shownIndex(of: id), let clock = gtk_widget_get_frame_clock(widget) else { return }
        // Its row built and in view (GTK keeps the list's anchor where it
        // was, and a message back at the end would be below it); then moved
        // to its place.
        scrollToItem(index)
        // Once GTK has laid the list out with it, before the frame is drawn
        // (a layout asked for there is done in the same frame).
        let watch = LayoutWatch()
        watch.handler = Signal.connect(UnsafeMutableRawPointer(clock), "layout") { [weak self] in
            watch.layouts += 1
            guard let self, self.lifetime.isAlive else { return }
            if self.settleRestored(id, at: place) || watch.layouts > 30 {
                Signal.disconnect(UnsafeMutableRawPointer(clock), watch.handler)
            } else {
                gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_LAYOUT)  // again, until it is laid out
            }
        }
        gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_LAYOUT)
    }

    /// Moves the list so that `id`'s row is at `place`, and focuses it;
    /// false while its row is not laid out yet.
    private func settleRestored(_ id: String, at place: Double?) -> Bool {
        guard let itemWidget = itemWidget(showing: id), gtk_widget_get_mapped(itemWidget) != 0,
              gtk_widget_get_height(itemWidget) > 0, let adjustment = shown.adjustment else { return false }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(itemWidget, scroller, &bounds) != 0 else { return false }
        if let place, abs(Double(bounds.origin.y) - place) >= 1 {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + Double(bounds.origin.y) - place)
        }
        let focus = gtk_widget_get_root(widget).flatMap { gtk_root_get_focus($0) }
        let typing = focus.map { g_type_check_instance_is_a(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GTypeInstance.self),
                                                             gtk_editable_get_type()) != 0 } ?? false
        if !typing { gtk_widget_grab_focus(itemWidget) }
        return true
    }
}

/// A frame clock's "layout" handler, until it is done.
@MainActor
private final class LayoutWatch {
    var handler: UInt = 0
    var layouts = 0
}
