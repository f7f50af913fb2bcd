import CGLib
import CGtk
import GLibSupport

/// Where the keyboard focus goes in the history, and the list following it.
extension HistoryView {
    /// Whether the keyboard focus `focus` is in the list (on a row).
    func holdsFocus(_ focus: UnsafeMutablePointer<GtkWidget>) -> Bool {
        gtk_widget_is_ancestor(focus, listView) != 0
    }

    private func item(holding focus: UnsafeMutablePointer<GtkWidget>) -> HistoryListItem? {
        items.values.first { $0.widget.map { focus == $0 || gtk_widget_is_ancestor(focus, $0) != 0 } ?? false }
    }

    /// Tab brought the focus into the list, onto `focus`: it lands where the
    /// eye is, as in a conversation — on the row focused last if it is wholly
    /// in view, else on the newest message wholly in view (GTK takes the row
    /// it remembers, the first until another was focused, however far away).
    /// `remembered` is `lastFocusedKey` from before the move (which updates it).
    func focusEnteredByTab(_ focus: UnsafeMutablePointer<GtkWidget>, remembered: String?) {
        guard let item = item(holding: focus), let itemWidget = item.widget else { return }
        let returning = item.key != nil && item.key == remembered && placement(of: itemWidget) == .whole
        if !returning, let shown = newestMessageInView(), shown != itemWidget { gtk_widget_grab_focus(shown) }
    }

    /// The keyboard focus moved to `focus`, in the list. GTK 4.8 leaves a
    /// focused row where it is, even off screen (Ctrl+Home, Page Up…): the
    /// list follows it.
    func focusMoved(to focus: UnsafeMutablePointer<GtkWidget>) {
        guard let item = item(holding: focus) else { return }
        lastFocusedKey = item.key
        // After GTK has laid the list out for the move; by then the focus
        // may have moved on and rows been recycled: it is looked up afresh.
        lifetime.idle { [weak self] in
            guard let self, let root = gtk_widget_get_root(self.listView), let focus = gtk_root_get_focus(root),
                  let item = self.item(holding: focus), let itemWidget = item.widget else { return false }
            self.bringIntoView(item, itemWidget)
            return false
        }
    }

    /// Scrolls as little as shows all of `itemWidget` (GTK scrolls to an
    /// item it has not laid out yet).
    private func bringIntoView(_ item: HistoryListItem, _ itemWidget: UnsafeMutablePointer<GtkWidget>) {
        guard gtk_widget_get_mapped(itemWidget) != 0 else {
            scrollToItem(item.position)
            return
        }
        var bounds = graphene_rect_t()
        guard let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller)),
              gtk_widget_compute_bounds(itemWidget, scroller, &bounds) != 0 else { return }
        let top = Double(bounds.origin.y), bottom = top + Double(bounds.size.height)
        let page = gtk_adjustment_get_page_size(adjustment)
        if top < 0 {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + top)
        } else if bottom > page {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + min(bottom - page, top))
        }
    }

    /// Puts the keyboard focus on `id`'s row in the list shown; the list
    /// follows it (see focusMoved). A row not built yet is scrolled to first.
    func focusMessage(_ id: String, attempts: Int = 20) {
        if let itemWidget = itemWidget(showing: id), gtk_widget_get_mapped(itemWidget) != 0 {
            gtk_widget_grab_focus(itemWidget)
            return
        }
        guard attempts > 0, let index = shownIndex(of: id) else { return }
        if attempts == 20 { scrollToItem(index) }
        lifetime.timeout(milliseconds: 15) { [weak self] in
            self?.focusMessage(id, attempts: attempts - 1)
            return false
        }
    }

    enum Placement { case whole, partly, outside }

    /// How much of a list item is on screen. GTK keeps the focused item's
    /// widget (mapped, allocated where it was) however far the list scrolls,
    /// so being mapped says nothing: its bounds in the viewport do.
    func placement(of itemWidget: UnsafeMutablePointer<GtkWidget>) -> Placement {
        var bounds = graphene_rect_t()
        guard gtk_widget_get_mapped(itemWidget) != 0,
              let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller)),
              gtk_widget_compute_bounds(itemWidget, scroller, &bounds) != 0 else { return .outside }
        let top = Double(bounds.origin.y), bottom = top + Double(bounds.size.height)
        let page = gtk_adjustment_get_page_size(adjustment)
        guard bottom > 0, top < page else { return .outside }
        return top >= -0.5 && bottom <= page + 0.5 ? .whole : .partly
    }

    /// The list item of the newest message wholly on screen (or partly, when
    /// none is); never the take being recorded, which is no message yet.
    private func newestMessageInView() -> UnsafeMutablePointer<GtkWidget>? {
        var whole: (position: Int, widget: UnsafeMutablePointer<GtkWidget>)?
        var partial: (position: Int, widget: UnsafeMutablePointer<GtkWidget>)?
        for item in items.values {
            guard let key = item.key, HistoryItem(key: key) != .recording, let itemWidget = item.widget,
                  holdsFocus(itemWidget) else { continue }
            let position = item.position
            switch placement(of: itemWidget) {
            case .whole where whole.map({ position > $0.position }) ?? true: whole = (position, itemWidget)
            case .partly where partial.map({ position > $0.position }) ?? true: partial = (position, itemWidget)
            default: break
            }
        }
        return (whole ?? partial)?.widget
    }

    /// The list's top edge moves down by `pixels` (a strip shown above it;
    /// up, when negative), before the next layout: the rows stay where they
    /// are on screen, as GTK keeps them at the list's end by itself. (GTK
    /// keeps its anchor row as far from the top: the list scrolls first.)
    func keepRowsInPlace(topMovedBy pixels: Double) {
        guard lifetime.isAlive, !isScrolledToEnd, let adjustment = shown.adjustment else { return }
        gtk_adjustment_set_value(adjustment, max(0, gtk_adjustment_get_value(adjustment) + pixels))
    }
}
