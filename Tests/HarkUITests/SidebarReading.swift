import CAdwaita
import CGLib
import CGtk
@testable import HarkUI

/// The sidebar as a screen reader reads it: its rows' accessible names.
extension RoomSidebar {
    /// Each row's accessible name, in order.
    var rowNames: [String] { rowsShown.map(\.name) }

    /// The row whose name is `room` (a room's, or "Recordings"), whatever
    /// the row then says of it (", 1 unread", …).
    func row(named room: String) -> UnsafeMutablePointer<GtkWidget>? {
        rowsShown.first { $0.name == room || $0.name.hasPrefix(room + ", ") }?.row
    }

    private var rowsShown: [(row: UnsafeMutablePointer<GtkWidget>, name: String)] {
        var found: [(row: UnsafeMutablePointer<GtkWidget>, name: String)] = []
        var child = gtk_widget_get_first_child(list)
        while let row = child {
            // GTK 4.8 reads a label back only where it differs from what is asked.
            if let name = hark_accessible_check_string(UnsafeMutableRawPointer(row), GTK_ACCESSIBLE_PROPERTY_LABEL, "\u{1}") {
                found.append((row, String(cString: name)))
                g_free(name)
            }
            child = gtk_widget_get_next_sibling(row)
        }
        return found
    }
}
