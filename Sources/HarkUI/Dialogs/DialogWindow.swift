import CAdwaita
import CGtk
import GtkSupport

/// The frame of Hark's own dialogs (Transcribe Messages, Matrix Account): a
/// modal window over the main one with a header bar, its content in a clamp,
/// closed by Escape as GNOME's dialogs are.
@MainActor
enum DialogWindow {
    /// A new dialog window titled `title`, showing `content` at most `width` wide.
    static func make(title: String, over parent: UnsafeMutablePointer<GtkWindow>?, width: Int32,
                     content: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWindow> {
        let dialog = adw_window_new()!
        let window = hark_window(dialog)!
        gtk_window_set_title(window, title)
        gtk_window_set_modal(window, 1)
        gtk_window_set_transient_for(window, parent)
        gtk_window_set_destroy_with_parent(window, 1)
        gtk_window_set_default_size(window, width, -1)
        let keys = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(keys,
                                             gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                              gtk_named_action_new("window.close")))
        gtk_widget_add_controller(Widget.widget(window), keys)

        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let header = adw_header_bar_new()!
        adw_header_bar_set_title_widget(OpaquePointer(header), adw_window_title_new(title, nil))
        gtk_box_append(hark_box(box), header)
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(OpaquePointer(clamp), width)
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
                     gtk_widget_set_margin_end] { side(clamp, 18) }
        gtk_box_append(hark_box(box), clamp)
        adw_window_set_content(UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: AdwWindow.self), box)
        adw_clamp_set_child(OpaquePointer(clamp), content)
        return window
    }
}
