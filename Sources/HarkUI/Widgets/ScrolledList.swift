import CAdwaita
import CGtk

/// A dialog's list (Send to…'s rooms, New Conversation's people): as tall
/// as its rows up to `maxHeight`, then scrolling; never sideways.
@MainActor
enum ScrolledList {
    static func wrap(_ list: UnsafeMutablePointer<GtkWidget>, maxHeight: Int32 = 320) -> UnsafeMutablePointer<GtkWidget> {
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(OpaquePointer(scroller), 1)
        gtk_scrolled_window_set_max_content_height(OpaquePointer(scroller), maxHeight)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), list)
        return scroller
    }
}
