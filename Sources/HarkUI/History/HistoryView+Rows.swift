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
            let row = MessageRow(store: self.store, playback: self.playback)
            row.onDelete = { [weak self] in self?.onDelete($0) }
            row.onRename = { [weak self] in self?.onRename($0) }
            row.onExport = { [weak self] in self?.onExport($0) }
            row.onCopy = { [weak self] in self?.onCopy($0) }
            row.onSendTo = { [weak self] in self?.onSendTo($0) }
            row.onDeleteForEveryone = { [weak self] in self?.onDeleteForEveryone($0) }
            row.onRetry = { [weak self] in self?.onRetry($0) }
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
            self.rows[item] = row
            self.lists[item] = owner.list
            self.headers[item] = header
            self.placeholders[item] = placeholder
            gtk_list_item_set_child(OpaquePointer(item), box)
        }
        Signal.connectPointer(UnsafeMutableRawPointer(factory), "bind") { [weak self] item in
            guard let self, let item, let row = self.rows[item] else { return }
            let key = gtk_list_item_get_item(OpaquePointer(item))
                .flatMap { gtk_string_object_get_string(OpaquePointer($0)) }.map { String(cString: $0) }
            self.boundKeys[item] = key
            self.makeListItem(item)
            self.placeholders[item].map { gtk_widget_set_visible($0, key == HistoryItem.recordingKey ? 1 : 0) }
            self.showHeader(of: item)
            let isMessage = key.map { HistoryItem(key: $0) != .recording } ?? false
            // The take being recorded can be focused (the arrows end on it,
            // a screen reader says what it is) but does nothing: it is no message.
            gtk_list_item_set_activatable(OpaquePointer(item), isMessage ? 1 : 0)
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
                row.show(message, at: self.time(of: message))
                self.describe(item, row, message)
            case nil:
                row.clear()
                self.setItemLabel(item, "")
            }
        }
        Signal.connectPointer(UnsafeMutableRawPointer(factory), "unbind") { [weak self] item in
            guard let item else { return }
            self?.rows[item]?.clear()
            self?.boundKeys[item] = nil
        }
        Signal.connectPointer(UnsafeMutableRawPointer(factory), "teardown") { [weak self] item in
            guard let item else { return }
            self?.rows[item] = nil
            self?.headers[item] = nil
            self?.placeholders[item] = nil
            self?.boundKeys[item] = nil
            self?.itemKeys[item] = nil
            self?.lists[item] = nil
        }
        return factory
    }

    /// Shows a message's new title (or state) in its row, if on screen.
    func update(_ id: String) {
        // Work that ends after the window closed (a download, a transcript) finds no list to show it in.
        guard lifetime.isAlive, let message = try? store.message(id) else { return }
        let wasAtEnd = isScrolledToEnd
        for (item, row) in rows where row.message?.id == id {
            row.show(message, at: time(of: message))
            describe(item, row, message)
        }
        // The last row grown by a line ("Not sent" with its Retry) would reach
        // under the composer: once laid out at its new height, it is shown whole.
        if wasAtEnd {
            FirstFrame.after(shown.scroller, lifetime: lifetime) { [weak self] in self?.scrollToEnd() }
        }
    }

    private var isScrolledToEnd: Bool {
        guard let adjustment = shown.adjustment else { return false }
        return gtk_adjustment_get_value(adjustment) + gtk_adjustment_get_page_size(adjustment)
            >= gtk_adjustment_get_upper(adjustment) - 1
    }
}
