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
    func describe(_ item: HistoryListItem, _ message: Message) {
        let row = item.row
        let transcript = RowDescription.transcript(of: message, transcriptionOn: message.transcriptState == .queued
                                                   && row.store.transcribesNewMessages)
        setItemLabel(item, RowDescription.name(of: message, at: row.placedAt, from: row.shownSender,
                                                     sendState: row.shownSendState),
                     keys: RowDescription.description(keys: RowDescription.keys(for: message), transcript: transcript,
                                                      unverifiedDevice: message.unverifiedDevice))
    }

    func setItemLabel(_ item: HistoryListItem, _ label: String, keys: String? = nil) {
        guard let itemWidget = item.widget else { return }
        hark_accessible_set_label(UnsafeMutableRawPointer(itemWidget), label)
        if let keys, item.description != keys {
            item.description = keys
            hark_accessible_set_description(UnsafeMutableRawPointer(itemWidget), keys)
        }
    }

    /// A list item to a screen reader (a grid view's are grid cells). Its
    /// widget exists from the first bind on (not
    /// yet in "setup"), and GTK takes a role only before the widget is
    /// first read, so once, at that first bind.
    func makeListItem(_ item: HistoryListItem) {
        guard let itemWidget = item.widget,
              gtk_accessible_get_accessible_role(OpaquePointer(itemWidget)) != GTK_ACCESSIBLE_ROLE_LIST_ITEM else { return }
        hark_accessible_set_role(UnsafeMutableRawPointer(itemWidget), GTK_ACCESSIBLE_ROLE_LIST_ITEM)
    }
}
