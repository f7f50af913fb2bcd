import CAdwaita
import CGLib
import CGtk
import MessageStore

/// The history's items as a screen reader meets them: list items named
/// after their message and described by how they are used.
extension HistoryView {
    /// What a screen reader says for a list item (GTK's list item widget
    /// holds the row's box, and has no name of its own) and, when given, how
    /// it is used: a recycled item may have been another kind of row.
    /// A row's item as a screen reader reads it: the message as the row shows it, and its keys.
    func describe(_ item: UnsafeMutableRawPointer, _ row: MessageRow, _ message: Message) {
        let transcript = RowDescription.transcript(of: message, transcriptionOn: message.transcriptState == .queued
                                                   && row.store.transcribesNewMessages)
        setItemLabel(item, RowDescription.name(of: message, at: row.placedAt, from: row.shownSender,
                                                     sendState: row.shownSendState),
                     keys: RowDescription.description(keys: RowDescription.keys(for: message), transcript: transcript))
    }

    func setItemLabel(_ item: UnsafeMutableRawPointer, _ label: String, keys: String? = nil) {
        guard let itemWidget = Self.itemWidget(of: item) else { return }
        hark_accessible_set_label(UnsafeMutableRawPointer(itemWidget), label)
        if let keys, itemKeys[item] != keys {
            itemKeys[item] = keys
            hark_accessible_set_description(UnsafeMutableRawPointer(itemWidget), keys)
        }
    }

    /// A list item to a screen reader (a grid view's are grid cells). Its
    /// widget exists from the first bind on (not
    /// yet in "setup"), and GTK takes a role only before the widget is
    /// first read, so once, at that first bind.
    func makeListItem(_ item: UnsafeMutableRawPointer) {
        guard let itemWidget = Self.itemWidget(of: item),
              gtk_accessible_get_accessible_role(OpaquePointer(itemWidget)) != GTK_ACCESSIBLE_ROLE_LIST_ITEM else { return }
        hark_accessible_set_role(UnsafeMutableRawPointer(itemWidget), GTK_ACCESSIBLE_ROLE_LIST_ITEM)
    }

    /// GTK's widget for a list item: the one that takes the focus.
    static func itemWidget(of item: UnsafeMutableRawPointer) -> UnsafeMutablePointer<GtkWidget>? {
        gtk_list_item_get_child(OpaquePointer(item)).flatMap { gtk_widget_get_parent($0) }
    }
}
