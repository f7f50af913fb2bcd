import CGLib
import CGtk

/// One of GTK's list items in a history list and what the history keeps for
/// it, from the factory's "setup" to its "teardown": the row, the day's
/// header above it, the take's placeholder, the list it belongs to, what it
/// shows now and what a screen reader was told of it last.
@MainActor
final class HistoryListItem {
    /// GTK's GtkListItem (borrowed: the factory's "teardown" ends this record).
    let item: UnsafeMutableRawPointer
    let row: MessageRow
    let header: UnsafeMutablePointer<GtkWidget>
    let placeholder: UnsafeMutablePointer<GtkWidget>
    /// Each list has its own factory, so an item knows its list.
    weak var list: HistoryList?
    /// What it shows now (see `HistoryItem`): nil while GTK has it unbound.
    var key: String?
    /// The accessible description it was given last (see HistoryView+Accessibility).
    var description: String?

    init(item: UnsafeMutableRawPointer, row: MessageRow, header: UnsafeMutablePointer<GtkWidget>,
         placeholder: UnsafeMutablePointer<GtkWidget>, list: HistoryList?) {
        self.item = item
        self.row = row
        self.header = header
        self.placeholder = placeholder
        self.list = list
    }

    /// GTK's widget for the list item: the one that takes the focus. It
    /// exists from the first bind on (not yet in "setup").
    var widget: UnsafeMutablePointer<GtkWidget>? {
        gtk_list_item_get_child(OpaquePointer(item)).flatMap { gtk_widget_get_parent($0) }
    }

    /// Where it stands in its list now.
    var position: Int { Int(gtk_list_item_get_position(OpaquePointer(item))) }
}
