import CAdwaita
import CGtk
import Drawing

extension ReadingDirection {
    /// The direction GTK lays WIDGET out in (the locale's, unless set).
    @MainActor
    static func of(_ widget: UnsafeMutablePointer<GtkWidget>) -> ReadingDirection {
        gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL ? .rightToLeft : .leftToRight
    }
}
