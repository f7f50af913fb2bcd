import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// The search bar over the history: opened by Ctrl+F, the header's
/// magnifier, or by typing (outside text fields); Esc (or the magnifier)
/// closes it. What is typed is understood by `SearchQuery`
/// (title words, and a day such as "yesterday" or "1 dec").
@MainActor
final class HistorySearch {
    let bar: UnsafeMutablePointer<GtkWidget>
    let entry: UnsafeMutablePointer<GtkWidget>
    /// The header bar's magnifier, bound to the bar.
    let toggle: UnsafeMutablePointer<GtkWidget>
    /// The query as typed (nil once the bar closes).
    var onQuery: @MainActor (SearchQuery?) -> Void = { _ in }

    init() {
        bar = gtk_search_bar_new()!
        entry = gtk_search_entry_new()!
        gtk_widget_set_hexpand(entry, 1)
        gtk_editable_set_width_chars(OpaquePointer(entry), 24)
        hark_object_set_string(UnsafeMutableRawPointer(entry), "placeholder-text", tr("Search by title or day"))
        hark_accessible_set_label(UnsafeMutableRawPointer(entry), tr("Search messages"))
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(OpaquePointer(clamp), 480)
        adw_clamp_set_child(OpaquePointer(clamp), entry)
        gtk_search_bar_set_child(OpaquePointer(bar), clamp)
        gtk_search_bar_connect_entry(OpaquePointer(bar), OpaquePointer(entry))

        toggle = gtk_toggle_button_new()!
        gtk_button_set_icon_name(hark_button(toggle), "system-search-symbolic")
        gtk_widget_set_tooltip_text(toggle, tr("Search (Ctrl+F)"))
        hark_accessible_set_label(UnsafeMutableRawPointer(toggle), tr("Search"))
        g_object_bind_property(UnsafeMutableRawPointer(toggle), "active", UnsafeMutableRawPointer(bar), "search-mode-enabled",
                               GBindingFlags(rawValue: G_BINDING_BIDIRECTIONAL.rawValue | G_BINDING_SYNC_CREATE.rawValue))

        Signal.connect(UnsafeMutableRawPointer(entry), "search-changed") { [weak self] in
            guard let self, self.isOpen else { return }
            self.onQuery(SearchQuery(self.text))
        }
        Signal.connectPointer(UnsafeMutableRawPointer(bar), "notify::search-mode-enabled") { [weak self] _ in
            guard let self, !self.isOpen else { return }
            // Closed from its field: the keyboard leaves it for nowhere, as
            // the window starts. GTK would hand it on to the next widget,
            // at times the list's first row, scrolling the list to its top.
            if let root = gtk_widget_get_root(self.bar), let focus = gtk_root_get_focus(root),
               gtk_widget_is_ancestor(focus, self.bar) != 0 {
                gtk_root_set_focus(root, nil)
            }
            gtk_editable_set_text(OpaquePointer(self.entry), "")
            self.onQuery(nil)
        }
    }

    var isOpen: Bool { gtk_search_bar_get_search_mode(OpaquePointer(bar)) != 0 }

    var text: String {
        gtk_editable_get_text(OpaquePointer(entry)).map { String(cString: $0) } ?? ""
    }

    /// Typing in `widget` (the window) opens the bar with what was typed.
    func captureKeys(from widget: UnsafeMutablePointer<GtkWidget>) {
        gtk_search_bar_set_key_capture_widget(OpaquePointer(bar), widget)
    }

    func open() {
        gtk_search_bar_set_search_mode(OpaquePointer(bar), 1)
        gtk_widget_grab_focus(entry)
    }

    func close() {
        gtk_search_bar_set_search_mode(OpaquePointer(bar), 0)
    }
}
