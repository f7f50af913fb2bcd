import CGLib
import CAdwaita
import Foundation
import CGtk
import GLibSupport
import GtkSupport
import HarkModel
import Localization
import MessageStore

/// The message history: a virtualised one-column GtkGridView (only the rows
/// near the screen exist, so 10,000 messages scroll as smoothly as 10), oldest at the top and
/// newest at the bottom like a conversation, each day under its header
/// ("Today", "Yesterday", "Monday", "12 November"), which the day's first
/// message carries. Its model is the list of items' keys (message ids: see
/// `HistoryItem`); rows read their message from the store when they are bound.
/// A search shows its results in a second list (see HistoryList), in a
/// stack over the whole one, which it leaves as it was.
///
/// For the keyboard the list is one stop: Tab leaves it (see
/// MainWindow+Keyboard), the arrows move between messages and the list
/// follows the focus (HistoryFocus), and a row's controls are no stops of
/// their own but keys on the focused row.
@MainActor
final class HistoryView {
    /// The list a factory's items belong to (made before the list).
    final class ListOwner {
        weak var list: HistoryList?
    }

    /// The stack of the two lists.
    let widget: UnsafeMutablePointer<GtkWidget>
    /// Every message (and the take being recorded).
    private var all: HistoryList!
    /// A search's results.
    private var results: HistoryList!
    /// The stack's page while a search finds nothing.
    private var nothing: UnsafeMutablePointer<GtkWidget>!
    /// The list shown: the results while searching.
    var shown: HistoryList { query == nil ? all : results }
    /// The grid view shown.
    var listView: UnsafeMutablePointer<GtkWidget> { shown.view }
    /// The scrolled window shown.
    var scroller: UnsafeMutablePointer<GtkWidget> { shown.scroller }
    let store: MessageStore
    let playback: PlaybackController
    /// The rows alive now, by their GtkListItem.
    var rows: [UnsafeMutableRawPointer: MessageRow] = [:]
    var headers: [UnsafeMutableRawPointer: UnsafeMutablePointer<GtkWidget>] = [:]
    var placeholders: [UnsafeMutableRawPointer: UnsafeMutablePointer<GtkWidget>] = [:]
    /// Which list each list item belongs to.
    var lists: [UnsafeMutableRawPointer: HistoryList] = [:]
    /// What each list item shows now (its key), for headers and labels.
    var boundKeys: [UnsafeMutableRawPointer: String] = [:]
    /// The item the keyboard focus was last on in the list.
    var lastFocusedKey: String?
    /// While a take is recorded, the list ends with its placeholder (under
    /// today's header), so the window shows where the message will be.
    var showsRecording = false {
        didSet {
            guard showsRecording != oldValue else { return }
            loadAll()
            if showsRecording { scrollToEnd() }
        }
    }
    /// Whose messages the list shows: the recordings, or a room's.
    var scope: HistoryScope = .recordings {
        didSet {
            guard scope != oldValue else { return }
            loadAll()
            if query != nil { loadResults() }
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
    /// The search being shown, if any: the results list holds its matches.
    private(set) var query: SearchQuery?
    /// A new message came while searching: the whole list shows its end again.
    private var allFollowsEnd = false
    /// In a room, when each message stands there (one sent into it: when it
    /// was sent, not when it was recorded); its row shows that time.
    private var roomTimes: [String: Date] = [:]
    func time(of message: Message) -> Date { roomTimes[message.id] ?? message.createdAt }

    /// Ends with the scrolled window: deferred work (scrolling after layout,
    /// following the focus) never runs once GTK has destroyed it.
    let lifetime: WidgetLifetime

    /// The history's widest, in pixels (the composer follows it).
    static let maximumWidth: Int32 = 640

    init(store: MessageStore, playback: PlaybackController) {
        self.store = store
        self.playback = playback
        widget = gtk_stack_new()!
        lifetime = WidgetLifetime(of: widget)
        let (allOwner, resultsOwner) = (ListOwner(), ListOwner())
        all = HistoryList(factory: makeFactory(allOwner), name: tr("Messages"))
        results = HistoryList(factory: makeFactory(resultsOwner), name: tr("Search results"))
        allOwner.list = all
        resultsOwner.list = results
        gtk_stack_add_child(OpaquePointer(widget), all.scroller)
        gtk_stack_add_child(OpaquePointer(widget), results.scroller)
        nothing = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_stack_add_child(OpaquePointer(widget), nothing)
        gtk_stack_set_visible_child(OpaquePointer(widget), all.scroller)
        gtk_widget_set_visible(results.scroller, 0)
        gtk_widget_set_visible(nothing, 0)
        Signal.connectInt(UnsafeMutableRawPointer(all.scroller), "edge-reached") { [weak self] position in
            if position == Int(GTK_POS_TOP.rawValue) { self?.onReachTop() }
        }
        // Enter on a focused row (or a double click) plays or pauses it.
        for list in [all!, results!] {
            Signal.connectInt(UnsafeMutableRawPointer(list.view), "activate") { [weak self, weak list] position in
                guard let self, let list, case .message(let id) = HistoryItem(key: list.key(at: Int(position)) ?? ""),
                      let message = try? self.store.message(id), message.state != .missing else { return }
                self.playback.toggle(message)
            }
        }
    }

    /// Shows the day's header above `item` when it is its day's first.
    func showHeader(of item: UnsafeMutableRawPointer) {
        guard let header = headers[item], let list = lists[item] else { return }
        let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
        let day = boundKeys[item].flatMap { list.days[$0] }
        let previousDay = position > 0 ? list.key(at: position - 1).flatMap { list.days[$0] } : nil
        if let day, position < list.count, day != previousDay {
            gtk_label_set_text(hark_label(header), DayGroups.title(of: day))
            gtk_widget_set_visible(header, 1)
        } else {
            gtk_widget_set_visible(header, 0)
        }
    }

    /// The description each item was given last (see HistoryView+Accessibility).
    var itemKeys: [UnsafeMutableRawPointer: String] = [:]

    /// How many items (messages, and the take being recorded) the list shown holds.
    /// (None once the window is gone: the lists' models went with it.)
    private var itemCount: Int { lifetime.isAlive ? shown.count : 0 }

    private func key(at index: Int) -> String? {
        lifetime.isAlive ? shown.key(at: index) : nil
    }

    /// Loads every shown message, oldest first, and scrolls to `id` (an
    /// import keeps its file's date), or to the newest.
    func reload(showing id: String? = nil) {
        loadAll()
        if query != nil { loadResults() }
        if let id, let index = shownIndex(of: id) { scroll(to: index) } else { scrollToEnd() }
    }

    /// Loads both lists again, scrolling neither: GTK keeps each where it is.
    func reloadInPlace() {
        loadAll()
        if query != nil { loadResults() }
    }

    /// Takes in what another process changed in the store (`hark import`,
    /// `rename`, `delete`): every row is read again; the list stays where it
    /// was scrolled, or follows the end when it was there.
    func refreshFromStore() {
        guard lifetime.isAlive else { return }
        let atEnd = shown.adjustment.map {
            gtk_adjustment_get_value($0) + gtk_adjustment_get_page_size($0) >= gtk_adjustment_get_upper($0) - 1
        } ?? true
        loadAll()
        if query != nil { loadResults() }
        if atEnd { scrollToEnd() }
    }

    /// Shows only the messages matching `query` (newest in view), in the
    /// results list; for nil or an empty query, the whole list again as it
    /// was left, with the keyboard focus on the result it was on.
    func search(_ query: SearchQuery?) {
        guard lifetime.isAlive else { return }
        if let query, !query.isEmpty {
            let starting = self.query == nil
            self.query = query
            transcripts.searchWords = query.words
            loadResults()
            showTranscripts(in: results)  // the words found, bold
            if starting { showPage() }
            scrollToEnd()
            return
        }
        guard self.query != nil else { return }
        let focused = gtk_widget_get_root(widget).flatMap { gtk_root_get_focus($0) }.flatMap { focus in
            holdsFocus(focus) ? row(holding: focus)?.message?.id : nil
        }
        self.query = nil
        transcripts.searchWords = []
        showPage()
        showTranscripts(in: all)  // any row read again meanwhile had the words bold
        countShown()
        if let focused {
            focusMessage(focused)
        } else if allFollowsEnd {
            scrollToEnd()
        }
        allFollowsEnd = false
    }

    /// The rows of `list` show their transcripts again (the search's words changed).
    private func showTranscripts(in list: HistoryList) {
        for (item, row) in rows where lists[item] === list { row.showTranscript() }
    }

    /// Shows the list in use: the results while searching (nothing when
    /// none match), else every message.
    private func showPage(empty: Bool = false) {
        let page = query == nil ? all.scroller : results.count > 0 && !empty ? results.scroller : nothing
        guard gtk_stack_get_visible_child(OpaquePointer(widget)) != page else { return }
        gtk_widget_set_visible(page, 1)
        gtk_stack_set_visible_child(OpaquePointer(widget), page)
        // The others hidden, not only off screen: a screen reader reads only the list shown.
        for other in [all.scroller, results.scroller, nothing!] where other != page { gtk_widget_set_visible(other, 0) }
    }

    /// Loads the whole list: every message and the take being recorded.
    private func loadAll() {
        guard lifetime.isAlive else { return }  // the window is gone; so are the lists' models
        var times = (try? store.shownTimes(matching: nil, in: scope)) ?? []
        if showsRecording { times.append((HistoryItem.recordingKey, Date())) }
        load(all, times)
    }

    /// Loads the search's results.
    private func loadResults() {
        guard lifetime.isAlive, let query else { return }
        load(results, (try? store.shownTimes(matching: query, in: scope)) ?? [])
    }

    /// Shows `times` in `list`, replacing only what changed (see
    /// HistoryList.show). Its rows read their messages again, for what
    /// changed elsewhere (a rename by another process), and their headers,
    /// for new neighbours.
    private func load(_ list: HistoryList, _ times: [(id: String, time: Date)]) {
        let days = Dictionary(zip(times.map(\.id), DayGroups.dayStarts(of: times.map(\.time))),
                              uniquingKeysWith: { first, _ in first })
        if case .room = scope {
            for (id, time) in times { roomTimes[id] = time }
        } else {
            roomTimes = [:]
        }
        // A list emptied while scrolled makes GTK's grid warn (it finds no
        // row where its scroller clamps to): it leaves the screen first
        // (the window shows "No results" then).
        if times.isEmpty, list === results, query != nil { showPage(empty: true) }
        list.show(times.map(\.id), days: days)
        if list === results { showPage() }
        for (item, row) in rows where lists[item] === list {
            showHeader(of: item)
            guard let id = row.message?.id, let message = try? store.message(id),
                  message != row.message || row.placedAt != time(of: message) else { continue }
            row.show(message, at: time(of: message))
            describe(item, row, message)
        }
        countShown()
    }

    /// Counts the messages shown (not the take being recorded), and says so.
    private func countShown() {
        count = shown.keys.count - (shown.keys.last == HistoryItem.recordingKey ? 1 : 0)
        onCountChange(count)
    }

    /// Adds a new message (the newest) at the end, under today's header.
    func append(_ id: String) {
        guard lifetime.isAlive, all.index(of: id) == nil else { return }
        loadAll()  // a new day gets its header
        if query != nil {
            loadResults()  // shown only if it matches
            allFollowsEnd = true
        }
        scrollToEnd()
    }

    /// The message shown after `id`, for auto-play.
    func message(after id: String) -> Message? {
        guard let index = shownIndex(of: id) else { return nil }
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

    /// The row showing `id` in the list shown, if it is on screen.
    func row(showing id: String) -> MessageRow? {
        rows.first { lists[$0.key] === shown && $0.value.message?.id == id }?.value
    }

    /// The list item (the widget taking the focus) showing `id` in the list shown.
    func itemWidget(showing id: String) -> UnsafeMutablePointer<GtkWidget>? {
        boundKeys.first { lists[$0.key] === shown && $0.value == id }.flatMap { Self.itemWidget(of: $0.key) }
    }

    /// Takes a message out, leaving the rest where it is on screen; the next
    /// message of its day inherits the day's header.
    func remove(_ id: String) {
        guard lifetime.isAlive, all.index(of: id) != nil || results.index(of: id) != nil else { return }
        all.remove(id)
        results.remove(id)
        for item in boundKeys.keys { showHeader(of: item) }  // positions moved: GTK binds nothing again
        countShown()
    }

    /// Redraws the rows that show `id` (the player moved).
    func refresh(_ id: String) {
        for row in rows.values where row.message?.id == id { row.refresh() }
    }

    /// The rows of the list shown that exist now (those on screen and a few around them).
    var liveRows: [MessageRow] { rows.filter { lists[$0.key] === shown }.map(\.value) }

    /// Every row that exists, in both lists: what the player changes shows in each.
    var everyRow: [MessageRow] { Array(rows.values) }

    /// The playing message's new position: only its row follows.
    func followPosition(_ id: String) {
        for row in rows.values where row.message?.id == id { row.followPosition() }
    }

    func shownIndex(of id: String) -> Int? {
        lifetime.isAlive ? shown.index(of: id) : nil
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
    func scrollToEnd() {
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
        shown.scrollToItem(index)
    }
}
