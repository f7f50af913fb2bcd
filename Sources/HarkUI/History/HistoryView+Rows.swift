import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// The history's rows: made once per list item, shown a message each time
/// GTK binds the item to one (the rows are recycled as the list scrolls).
extension HistoryView {
    /// The rows of one list (each list has its own factory, so an item
    /// knows its list).
    func makeFactory(_ owner: ListOwner) -> OpaquePointer {
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectPointer(UnsafeMutableRawPointer(factory), "setup") { [weak self] item in
            guard let self, let item else { return }
            self.justUnbound = nil  // a new item, perhaps where one torn down was
            let row = MessageRow(store: self.store, playback: self.playback)
            row.actions = self.actions
            row.canSend = self.canSendToRooms
            row.transcriptContext = self.transcripts
            let header = gtk_label_new("")!
            gtk_label_set_xalign(hark_label(header), 0)
            gtk_widget_add_css_class(header, "heading")
            gtk_widget_add_css_class(header, "dim-label")
            gtk_widget_add_css_class(header, "hark-day")
            for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(header, 12) }
            gtk_widget_set_margin_top(header, 12)
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            gtk_box_append(hark_box(box), header)
            gtk_box_append(hark_box(box), row.widget)
            let placeholder = gtk_label_new(tr("Recording a new message…"))!
            gtk_label_set_xalign(hark_label(placeholder), 0)
            gtk_widget_add_css_class(placeholder, "dim-label")
            gtk_widget_add_css_class(placeholder, "hark-recording-placeholder")
            for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(placeholder, 12) }
            for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { side(placeholder, 12) }
            gtk_widget_set_visible(placeholder, 0)
            gtk_box_append(hark_box(box), placeholder)
            self.items[item] = HistoryListItem(item: item, row: row, header: header, placeholder: placeholder, list: owner.list)
            gtk_list_item_set_child(OpaquePointer(item), box)
        }
        Signal.connectPointer(UnsafeMutableRawPointer(factory), "bind") { [weak self] item in
            guard let self, let listItem = item, let item = self.items[listItem] else { return }
            defer { self.justUnbound = nil }
            let row = item.row
            let key = gtk_list_item_get_item(OpaquePointer(listItem))
                .flatMap { gtk_string_object_get_string(OpaquePointer($0)) }.map { String(cString: $0) }
            item.key = key
            self.makeListItem(item)
            gtk_widget_set_visible(item.placeholder, key == HistoryItem.recordingKey ? 1 : 0)
            self.showHeader(of: item)
            let isMessage = key.map { HistoryItem(key: $0) != .recording } ?? false
            // The take being recorded can be focused (the arrows end on it,
            // a screen reader says what it is) but does nothing: it is no message.
            gtk_list_item_set_activatable(OpaquePointer(listItem), isMessage ? 1 : 0)
            gtk_widget_set_visible(row.widget, isMessage ? 1 : 0)
            switch key.map(HistoryItem.init(key:)) {
            case .recording:
                row.clear()
                self.setItemLabel(item, tr("Recording a new message"), keys: RowDescription.keys(for: nil))
            case .message(let id):
                guard let message = try? self.store.message(id) else {
                    row.clear()  // never act on the message a recycled row showed before
                    self.setItemLabel(item, tr("A message that could not be read"))
                    return
                }
                if let last = self.justUnbound, last.item == listItem, last.message == message,
                   last.placedAt == self.time(of: message) {
                    row.actOnAgain(message)
                } else {
                    self.show(message, in: item)
                }
            case nil:
                row.clear()
                self.setItemLabel(item, "")
            }
        }
        Signal.connectPointer(UnsafeMutableRawPointer(factory), "unbind") { [weak self] item in
            guard let item, let record = self?.items[item] else { return }
            self?.noteUnbound(item, record.row)
            record.row.clear()
            record.key = nil
        }
        Signal.connectPointer(UnsafeMutableRawPointer(factory), "teardown") { [weak self] item in
            guard let item else { return }
            self?.justUnbound = nil
            self?.items[item] = nil
        }
        return factory
    }

    /// Keeps what the row of `item` showed as it is unbound, until the main loop goes on.
    private func noteUnbound(_ item: UnsafeMutableRawPointer, _ row: MessageRow) {
        let noted = justUnbound != nil
        justUnbound = row.message.map { (item, $0, row.placedAt) }
        guard !noted, justUnbound != nil else { return }
        lifetime.idle(priority: G_PRIORITY_HIGH) { [weak self] in
            self?.justUnbound = nil
            return false
        }
    }
}
