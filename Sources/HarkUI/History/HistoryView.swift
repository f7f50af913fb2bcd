import CGLib
import CAdwaita
import Foundation
import CGtk
import GLibSupport
import GtkSupport
import MessageStore

/// The message history: a virtualised GtkListView (only the rows on screen
/// exist, so 10,000 messages scroll as smoothly as 10), oldest at the top and
/// newest at the bottom like a conversation, each day under its header
/// ("Today", "Yesterday", "Monday", "12 November"), which the day's first
/// message carries. Its model is the list of items' keys (message ids: see
/// `HistoryItem`); rows read their message from the store when they are bound.
///
/// For the keyboard the list is one stop: Tab leaves it (see
/// MainWindow+Keyboard), the arrows move between messages and the list
/// follows the focus (HistoryFocus), and a row's controls are no stops of
/// their own but keys on the focused row.
@MainActor
final class HistoryView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let ids: OpaquePointer  // GtkStringList
    let listView: UnsafeMutablePointer<GtkWidget>
    private let store: MessageStore
    private let playback: PlaybackController
    /// The rows alive now, by their GtkListItem.
    private(set) var rows: [UnsafeMutableRawPointer: MessageRow] = [:]
    private var headers: [UnsafeMutableRawPointer: UnsafeMutablePointer<GtkWidget>] = [:]
    private var placeholders: [UnsafeMutableRawPointer: UnsafeMutablePointer<GtkWidget>] = [:]
    /// What each list item shows now (its key), for headers and labels.
    private(set) var boundKeys: [UnsafeMutableRawPointer: String] = [:]
    /// The day (its start) of every item shown: a header shows above an item
    /// whose day differs from the one before it.
    private var itemDays: [String: Date] = [:]
    /// The item the keyboard focus was last on in the list.
    var lastFocusedKey: String?
    /// While a take is recorded, the list ends with its placeholder (under
    /// today's header), so the window shows where the message will be.
    var showsRecording = false {
        didSet {
            guard showsRecording != oldValue else { return }
            load(shownIDs())
            if showsRecording { scrollToEnd() }
        }
    }
    /// Whose messages the list shows: the recordings, or a room's.
    var scope: HistoryScope = .recordings {
        didSet {
            guard scope != oldValue else { return }
            load(shownIDs())
            scrollToEnd()
        }
    }
    /// Signed in: rows offer "Send to…".
    var canSendToRooms = false {
        didSet { rows.values.forEach { $0.canSend = canSendToRooms } }
    }
    var onSendTo: @MainActor (Message) -> Void = { _ in }
    var onDeleteForEveryone: @MainActor (Message) -> Void = { _ in }
    var onRetry: @MainActor (Message) -> Void = { _ in }
    /// The list was scrolled to its top (a room fetches older messages then).
    var onReachTop: @MainActor () -> Void = {}
    /// How many messages (not the take being recorded) the list shows.
    private(set) var count = 0
    var onDelete: @MainActor (Message) -> Void = { _ in }
    var onRename: @MainActor (Message) -> Void = { _ in }
    var onExport: @MainActor (Message) -> Void = { _ in }
    var onCopy: @MainActor (Message) -> Void = { _ in }
    var onCountChange: @MainActor (Int) -> Void = { _ in }
    /// What the rows share about transcripts (which are open, the search's words).
    let transcripts = TranscriptContext()
    /// The search being shown, if any: the list holds only its matches.
    private(set) var query: SearchQuery?
    /// Where the whole list was scrolled when the search began.
    private var scrollBeforeSearch: Double?

    /// Ends with the scrolled window: deferred work (scrolling after layout,
    /// following the focus) never runs once GTK has destroyed it.
    let lifetime: WidgetLifetime

    /// The history's widest, in pixels (the composer follows it).
    static let maximumWidth: Int32 = 640

    init(store: MessageStore, playback: PlaybackController) {
        self.store = store
        self.playback = playback
        // Ownership passes down the chain (transfer full): the selection owns
        // the list of ids, the list view owns the selection and the factory.
        ids = gtk_string_list_new(nil)!
        let factory = gtk_signal_list_item_factory_new()!
        let selection = gtk_no_selection_new(ids)!
        // A one-column GtkGridView, not a GtkListView: GTK 4.8's list view
        // keeps 200 rows alive whatever its height (building them made a
        // long history three times slower to open); the grid keeps about 33.
        listView = gtk_grid_view_new(selection, factory)!
        gtk_grid_view_set_max_columns(OpaquePointer(listView), 1)
        gtk_widget_add_css_class(listView, "hark-history")
        // A list to a screen reader, as it is to the eye: GTK makes a grid
        // view a grid, and a role can be changed only before it is read.
        hark_accessible_set_role(UnsafeMutableRawPointer(listView), GTK_ACCESSIBLE_ROLE_LIST)
        hark_accessible_set_label(UnsafeMutableRawPointer(listView), "Messages")
        // A readable column, as GNOME Sound Recorder's, however wide the
        // window; the scrollable clamp keeps the grid's recycling of rows.
        let clamp = adw_clamp_scrollable_new()!
        adw_clamp_scrollable_set_maximum_size(OpaquePointer(clamp), Self.maximumWidth)
        adw_clamp_scrollable_set_tightening_threshold(OpaquePointer(clamp), Self.maximumWidth * 3 / 4)
        adw_clamp_scrollable_set_child(OpaquePointer(clamp), listView)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(OpaquePointer(scroller), clamp)
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scroller, 1)
        widget = scroller
        lifetime = WidgetLifetime(of: scroller)
        Signal.connectInt(UnsafeMutableRawPointer(scroller), "edge-reached") { [weak self] position in
            if position == Int(GTK_POS_TOP.rawValue) { self?.onReachTop() }
        }

        // Enter on a focused row (or a double click) plays or pauses it.
        Signal.connectInt(UnsafeMutableRawPointer(listView), "activate") { [weak self] position in
            guard let self, position >= 0, case .message(let id) = HistoryItem(key: self.key(at: Int(position)) ?? ""),
                  let message = try? self.store.message(id), message.state != .missing else { return }
            self.playback.toggle(message)
        }

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
            let placeholder = gtk_label_new("Recording a new message…")!
            gtk_label_set_xalign(hark_label(placeholder), 0)
            gtk_widget_add_css_class(placeholder, "dim-label")
            gtk_widget_add_css_class(placeholder, "hark-recording-placeholder")
            for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(placeholder, 12) }
            for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { side(placeholder, 12) }
            gtk_widget_set_visible(placeholder, 0)
            gtk_box_append(hark_box(box), placeholder)
            self.rows[item] = row
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
                self.setItemLabel(item, "Recording a new message", keys: RowDescription.keys(for: nil))
            case .message(let id):
                guard let message = try? self.store.message(id) else {
                    row.clear()  // never act on the message a recycled row showed before
                    self.setItemLabel(item, "A message that could not be read")
                    return
                }
                row.show(message)
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
        }
    }

    /// Shows the day's header above `item` when it is its day's first.
    private func showHeader(of item: UnsafeMutableRawPointer) {
        guard let header = headers[item] else { return }
        let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
        let day = boundKeys[item].flatMap { itemDays[$0] }
        let previousDay = position > 0 ? key(at: position - 1).flatMap { itemDays[$0] } : nil
        if let day, position < itemCount, day != previousDay {
            gtk_label_set_text(hark_label(header), DayGroups.title(of: day))
            gtk_widget_set_visible(header, 1)
        } else {
            gtk_widget_set_visible(header, 0)
        }
    }

    /// The description each item was given last (see HistoryView+Accessibility).
    var itemKeys: [UnsafeMutableRawPointer: String] = [:]

    /// How many items (messages, and the take being recorded) the list holds.
    /// (None once the window is gone: the list's model went with it.)
    private var itemCount: Int { lifetime.isAlive ? Int(g_list_model_get_n_items(ids)) : 0 }

    private func key(at index: Int) -> String? {
        guard lifetime.isAlive else { return nil }
        return gtk_string_list_get_string(ids, guint(index)).map { String(cString: $0) }
    }

    /// Loads every shown message, oldest first, and scrolls to `id` (an
    /// import keeps its file's date; an undo puts a message back where its
    /// date says), or to the newest.
    func reload(showing id: String? = nil) {
        load(shownIDs())
        if let id, let index = index(of: id) { scroll(to: index) } else { scrollToEnd() }
    }

    /// Takes in what another process changed in the store (`hark import`,
    /// `rename`, `delete`): every row is read again; the list stays where it
    /// was scrolled, or follows the end when it was there.
    func refreshFromStore() {
        guard lifetime.isAlive else { return }
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(widget))
        let atEnd = adjustment.map {
            gtk_adjustment_get_value($0) + gtk_adjustment_get_page_size($0) >= gtk_adjustment_get_upper($0) - 1
        } ?? true
        load(shownIDs())
        if atEnd { scrollToEnd() }
    }

    /// Shows only the messages matching `query` (newest in view), or, for
    /// nil or an empty query, the whole history again, scrolled back to where
    /// it was before the search.
    func search(_ query: SearchQuery?) {
        guard lifetime.isAlive else { return }
        let searching = query.map { !$0.isEmpty } ?? false
        if searching, self.query == nil, let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(widget)) {
            scrollBeforeSearch = gtk_adjustment_get_value(adjustment)
        }
        let wasSearching = self.query != nil
        self.query = searching ? query : nil
        transcripts.searchWords = self.query?.words ?? []
        load(shownIDs())
        rows.values.forEach { $0.showTranscript() }  // the words found, bold
        if searching {
            scrollToEnd()
        } else if wasSearching, let value = scrollBeforeSearch {
            scrollBeforeSearch = nil
            lifetime.idle { [weak self] in
                guard let self, let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(self.widget)) else { return false }
                gtk_adjustment_set_value(adjustment, value)
                return false
            }
        }
    }

    /// The items the list shows now: the search's matches, or every message,
    /// and the take being recorded; it notes each one's day for the headers.
    private func shownIDs() -> [HistoryItem] {
        var times = (try? store.shownTimes(matching: query, in: scope)) ?? []
        if showsRecording, query == nil { times.append((HistoryItem.recordingKey, Date())) }
        itemDays = Dictionary(zip(times.map(\.id), DayGroups.dayStarts(of: times.map(\.createdAt))),
                              uniquingKeysWith: { first, _ in first })
        return times.map { HistoryItem(key: $0.id) }
    }

    /// Shows `items`, replacing only the run of items that changed (a new
    /// message at the end, a take's placeholder, an undone deletion): GTK
    /// keeps every other row as it is, with the keyboard focus on it. The
    /// rows kept read their messages again, for what changed elsewhere (a
    /// rename by another process), and their headers, for new neighbours.
    private func load(_ items: [HistoryItem]) {
        guard lifetime.isAlive else { return }  // the window is gone; so is the list's model
        let old = (0..<itemCount).map { key(at: $0) ?? "" }
        let new = items.map(\.key)
        let change = ListChange(from: old, to: new)
        let splices = ListChange.splices(from: old, to: new)
            ?? [ListChange.Splice(start: change.start, removed: change.removed, inserted: change.inserted)]
        for splice in splices where splice.removed > 0 || !splice.inserted.isEmpty {
            var strings = new[splice.inserted].map { strdup($0) }
            strings.append(nil)
            defer { strings.forEach { free($0) } }
            strings.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                    gtk_string_list_splice(ids, guint(splice.start), guint(splice.removed), $0)
                }
            }
        }
        for (item, row) in rows {
            showHeader(of: item)
            guard let id = row.message?.id, let message = try? store.message(id), message != row.message else { continue }
            row.show(message)
            describe(item, row, message)
        }
        count = items.filter { $0 != .recording }.count
        onCountChange(count)
    }

    /// Adds a new message (the newest) at the end, under today's header.
    func append(_ id: String) {
        guard index(of: id) == nil else { return }
        load(shownIDs())  // a search shows it only if it matches; a new day gets its header
        scrollToEnd()
    }

    /// The message shown after `id`, for auto-play.
    func message(after id: String) -> Message? {
        guard let index = index(of: id) else { return nil }
        for next in (index + 1)..<max(index + 1, itemCount) {
            if case .message(let nextID) = HistoryItem(key: key(at: next) ?? "") { return try? store.message(nextID) }
        }
        return nil
    }

    /// The newest message (the last row, or the one above the take being recorded).
    var lastMessage: Message? {
        for index in stride(from: itemCount - 1, through: 0, by: -1) {
            if case .message(let id) = HistoryItem(key: key(at: index) ?? "") { return try? store.message(id) }
        }
        return nil
    }

    /// The row that holds keyboard focus `focus`, if any.
    func row(holding focus: UnsafeMutablePointer<GtkWidget>) -> MessageRow? {
        rows.values.first { $0.message != nil && $0.hasFocus(focus) }
    }

    /// Shows a message's new title (or state) in its row, if on screen.
    func update(_ id: String) {
        guard let message = try? store.message(id) else { return }
        for (item, row) in rows where row.message?.id == id {
            row.show(message)
            describe(item, row, message)
        }
    }

    /// The row showing `id`, if it is on screen.
    func row(showing id: String) -> MessageRow? {
        rows.values.first { $0.message?.id == id }
    }

    /// Takes a message out, leaving the rest where it is on screen; the next
    /// message of its day inherits the day's header.
    func remove(_ id: String) {
        guard let index = index(of: id) else { return }
        gtk_string_list_remove(ids, guint(index))
        itemDays[id] = nil
        count -= 1
        for item in boundKeys.keys { showHeader(of: item) }  // positions moved: GTK binds nothing again
        onCountChange(count)
    }

    /// Redraws the rows that show `id` (the player moved).
    func refresh(_ id: String) {
        for row in rows.values where row.message?.id == id { row.refresh() }
    }

    /// The rows that exist now (those on screen and a few around them).
    var liveRows: [MessageRow] { Array(rows.values) }

    /// The playing message's new position: only its row follows.
    func followPosition(_ id: String) {
        for row in rows.values where row.message?.id == id { row.followPosition() }
    }

    private func index(of id: String) -> Int? {
        (0..<itemCount).first { key(at: $0) == id }
    }

    private func scroll(to index: Int) {
        lifetime.idle { [weak self] in
            guard let self, index < self.itemCount else { return false }
            self.scrollToItem(index)
            return false
        }
    }

    /// Shows the newest item whole at the bottom. By the item, not by the
    /// adjustment's upper end: GTK estimates the height of rows it has not
    /// built yet, so the upper moves as they are built and a scroll to it
    /// ends short (the newest half hidden, Tab landing on an older row); an
    /// item scrolled to is the list's anchor, kept in view as rows are built.
    /// Again after layout, for a list not yet allocated.
    private func scrollToEnd() {
        scrollToLastItem()
        lifetime.idle { [weak self] in
            self?.scrollToLastItem()
            return false
        }
    }

    private func scrollToLastItem() {
        if itemCount > 0 { scrollToItem(itemCount - 1) }
    }

    func scrollToItem(_ index: Int) {
        guard lifetime.isAlive else { return }
        let target = g_variant_ref_sink(g_variant_new_uint32(guint32(index)))
        gtk_widget_activate_action_variant(listView, "list.scroll-to-item", target)
        g_variant_unref(target)
    }
}
