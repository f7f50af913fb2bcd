import CAdwaita
import CGLib
import CGtk
@testable import HarkUI

/// The sidebar as a screen reader reads it.
extension RoomSidebar {
    /// Each row's accessible name, in order.
    var rowNames: [String] {
        var names: [String] = []
        var child = gtk_widget_get_first_child(list)
        while let row = child {
            // GTK 4.8 reads a label back only where it differs from what is asked.
            if let name = hark_accessible_check_string(UnsafeMutableRawPointer(row), GTK_ACCESSIBLE_PROPERTY_LABEL, "\u{1}") {
                names.append(String(cString: name))
                g_free(name)
            }
            child = gtk_widget_get_next_sibling(row)
        }
        return names
    }
}
