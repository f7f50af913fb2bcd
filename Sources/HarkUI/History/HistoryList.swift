import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport

/// One list of the history: the items' keys (see `HistoryItem`) in a
/// GtkStringList, the one-column grid view showing them, clamped to a
/// readable column, and the scroller holding it. The history has two: every
/// message, and a search's results, so a search never touches the whole
/// list (with 10,000 messages, taking it apart and putting it back cost
/// 100-200 ms each way) and Esc shows it again as it was left.
@MainActor
final class HistoryList {
    let model: OpaquePointer  // GtkStringList
    let view: UnsafeMutablePointer<GtkWidget>
    let scroller: UnsafeMutablePointer<GtkWidget>
    /// The model's strings, as Swift holds them: reading 10,000 of them back
    /// from GTK to find what changed took longer than the change.
    private(set) var keys: [String] = []
    /// The day (its start) of every item, for the headers.
    private(set) var days: [String: Date] = [:]

    init(factory: OpaquePointer, name: String) {
        // Ownership passes down the chain (transfer full): the selection owns
        // the list of ids, the list view owns the selection and the factory.
        model = gtk_string_list_new(nil)!
        let selection = gtk_no_selection_new(model)!
        // A one-column GtkGridView, not a GtkListView: GTK 4.8's list view
        // keeps 200 rows alive whatever its height (building them made a
        // long history three times slower to open); the grid keeps about 33.
        view = gtk_grid_view_new(selection, factory)!
        gtk_grid_view_set_max_columns(OpaquePointer(view), 1)
        gtk_widget_add_css_class(view, "hark-history")
        // A list to a screen reader, as it is to the eye: GTK makes a grid
        // view a grid, and a role can be changed only before it is read.
        hark_accessible_set_role(UnsafeMutableRawPointer(view), GTK_ACCESSIBLE_ROLE_LIST)
        hark_accessible_set_label(UnsafeMutableRawPointer(view), name)
        // A readable column, as GNOME Sound Recorder's, however wide the
        // window; the scrollable clamp keeps the grid's recycling of rows.
        let clamp = adw_clamp_scrollable_new()!
        adw_clamp_scrollable_set_maximum_size(OpaquePointer(clamp), HistoryView.maximumWidth)
        adw_clamp_scrollable_set_tightening_threshold(OpaquePointer(clamp), HistoryView.maximumWidth * 3 / 4)
        adw_clamp_scrollable_set_child(OpaquePointer(clamp), view)
        scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(OpaquePointer(scroller), clamp)
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scroller, 1)
    }

    var count: Int { keys.count }

    func key(at index: Int) -> String? {
        index >= 0 && index < keys.count ? keys[index] : nil
    }

    func index(of key: String) -> Int? {
        keys.firstIndex(of: key)
    }

    var adjustment: UnsafeMutablePointer<GtkAdjustment>? {
        gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))
    }

    /// Shows `items` (keys, with their days), replacing only what changed
    /// (a new message at the end, a take's placeholder, an undone deletion,
    /// the messages around a result): GTK keeps every other row as it is,
    /// with the keyboard focus on it.
    func show(_ items: [String], days: [String: Date]) {
        self.days = days
        let old = keys
        guard old != items else { return }
        let change = ListChange(from: old, to: items)
        let splices = ListChange.splices(from: old, to: items)
            ?? [ListChange.Splice(start: change.start, removed: change.removed, inserted: change.inserted)]
        // Emptied while scrolled, GTK's grid would look for a row where its scroller clamps to.
        if items.isEmpty, let adjustment { gtk_adjustment_set_value(adjustment, 0) }
        keys = items
        for splice in splices where splice.removed > 0 || !splice.inserted.isEmpty {
            var strings = items[splice.inserted].map { strdup($0) }
            strings.append(nil)
            defer { strings.forEach { free($0) } }
            strings.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                    gtk_string_list_splice(model, guint(splice.start), guint(splice.removed), $0)
                }
            }
        }
    }

    /// Makes the item at `index` the list's anchor, in view (GTK scrolls as
    /// little as shows it).
    func scrollToItem(_ index: Int) {
        guard index >= 0, index < keys.count else { return }
        let target = g_variant_ref_sink(g_variant_new_uint32(guint32(index)))
        gtk_widget_activate_action_variant(view, "list.scroll-to-item", target)
        g_variant_unref(target)
    }
}
