import CAdwaita
import CGLib
import CGtk
import GtkSupport
@testable import HarkUI

/// The "Send to…" dialog shown over a window, read as the user sees it: the
/// rooms it offers by name, one chosen by activating its row.
@MainActor
struct ShownSendToDialog {
    let widget: UnsafeMutablePointer<GtkWidget>

    /// The dialog over `window` that offers rooms, while it is shown.
    static func over(_ window: MainWindow) -> ShownSendToDialog? {
        guard let list = gtk_window_get_toplevels() else { return nil }
        for index in 0..<g_list_model_get_n_items(list) {
            guard let item = g_list_model_get_item(list, index) else { continue }
            g_object_unref(item)  // the list keeps it
            let dialog = item.assumingMemoryBound(to: GtkWindow.self)
            let shown = ShownSendToDialog(widget: Widget.widget(dialog))
            if gtk_window_get_transient_for(dialog) == window.window, gtk_widget_get_visible(shown.widget) != 0,
               Widget.typeName(shown.widget) == "AdwMessageDialog", !shown.rows.isEmpty {
                return shown
            }
        }
        return nil
    }

    private var rows: [(row: UnsafeMutablePointer<GtkWidget>, title: String)] {
        Widget.descendants(of: widget).filter { Widget.typeName($0) == "AdwActionRow" }.map { row in
            let title = adw_preferences_row_get_title(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwPreferencesRow.self))
            return (row, title.map { String(cString: $0) } ?? "")
        }
    }

    /// The rooms offered, in the order shown.
    var roomNames: [String] { rows.map(\.title) }

    /// Activates the row of the room named `name` (a click on it).
    func choose(_ name: String) {
        guard let row = rows.first(where: { $0.title == name })?.row else { return }
        gtk_widget_activate(row)
    }
}
