import CGLib
import CAdwaita
import Foundation
import CGtk
import GLibSupport
import GtkSupport
import HarkModel
import Localization
import MessageStore
import Subscriptions

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
    private(set) var all: HistoryList!
    /// A search's results.
    private(set) var results: HistoryList!
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
    /// GTK's list items alive now, in both lists (those on screen and a few
    /// around them), each with its row: by their GtkListItem.
    var items: [UnsafeMutableRawPointer: HistoryListItem] = [:]
    /// The list item unbound last, with what its row showed, until the main
    /// loop goes on: GTK 4.8 unbinds and binds again every item whose
    /// position moves (all of those alive when messages come in front), and
    /// one bound again to what its row shows needs no showing (see HistoryView+Rows).
    var justUnbound: (item: UnsafeMutableRawPointer, message: Message, placedAt: Date?)?
    /// The item the keyboard focus was last on in the list.
    var lastFocusedKey: String?
    /// Messages not listed: the composer's draft, heard before it is sent.
    var withheld: Set<String> = []
    /// While a take is recorded, the list ends with its placeholder (under
    /// today's header), so the window shows where the message will be.
    var showsRecording = false {
        didSet {
            guard showsRecording != oldValue else { return }
            readAll()
            if showsRecording { scrollToEnd() }
        }
    }
    /// Whose messages the list shows: the recordings, or a room's.
    var scope: HistoryScope = .recordings {
        didSet {
            guard scope != oldValue else { return }
            apply(.reloaded(showing: nil))
        }
    }
    /// Signed in: rows offer "Send to…".
    var canSendToRooms = false {
        didSet { items.values.forEach { $0.row.canSend = canSendToRooms } }
    }
    /// The list was scrolled to its top (a room fetches older messages then).
    var onReachTop: @MainActor () -> Void = {}
    /// How many messages (not the take being recorded) the list shows.
    private(set) var count = 0
    var onCountChange: @MainActor (Int) -> Void = { _ in }
    /// What the rows share about transcripts (which are open, the search's words).
    let transcripts = TranscriptContext()
    /// What can be done to a message (`history.delete` with its id, …): the
    /// rows name these actions; the window and the account add their work.
    private(set) var actions: HistoryActions!
    /// The search being shown, if any: the results list holds its matches.
    private(set) var query: SearchQuery?
    /// A new message came while searching: the whole list shows its end again.
    var allFollowsEnd = false
    /// In a room, when each message stands there (one sent into it: when it
    /// was sent, not when it was recorded); its row shows that time.
    var roomTimes: [String: Date] = [:]
    func time(of message: Message) -> Date { roomTimes[message.id] ?? message.createdAt }

    /// Until the window's first frame, the whole list holds only the newest
    /// messages that can fill it; then older ones come in front of them, a
    /// step at a time (see HistoryView+FirstPage). Nil once it holds all.
    var firstPage: Int?
    /// The older messages are coming in front, after the first frame.
    var fillsIn = false

    /// Each change to the messages (added, renamed, removed, read again),
    /// once the lists show it: what shows a message elsewhere (the strip
    /// of what plays, the media controls) reads it again.
    let messageChanges = Observers<HistoryChange>()

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
        actions = HistoryActions(store: store, on: widget, lifetime: lifetime)
        addOwnActions()
        Signal.connectInt(UnsafeMutableRawPointer(all.scroller), "edge-reached") { [weak self] position in
            if position == Int(GTK_POS_TOP.rawValue) { self?.onReachTop() }
        }
        // Enter on a focused row (or a double click) plays or pauses it.
        for list in [all!, results!] {
            Signal.connectInt(UnsafeMutableRawPointer(list.view), "activate") { [weak self, weak list] position in
                guard let self, let list, case .message(let id) = HistoryItem(key: list.key(at: Int(position)) ?? "") else { return }
                self.actions.activate(.play, id)
            }
        }
    }

    /// The actions whose work is the history's own: playing a message, and opening its whole transcript.
    private func addOwnActions() {
        actions.closeOpenMenu = { [weak self] in
            guard let row = self?.items.values.first(where: { $0.row.menuIsOpen })?.row else { return false }
            gtk_menu_button_popdown(OpaquePointer(row.menuButton))
            return true
        }
        actions.add(.play) { [weak self] message in
            guard message.state != .missing else { return }
            self?.playback.toggle(message, in: self?.scope)
        }
        actions.add(.showTranscript) { [weak self] message in
            guard let self, message.transcriptState == .done else { return }
            if self.transcripts.expanded.remove(message.id) == nil { self.transcripts.expanded.insert(message.id) }
            for item in self.items.values where item.row.message?.id == message.id { item.row.showTranscript() }
        }
    }

    /// Shows the day's header above `item` when it is its day's first.
    func showHeader(of item: HistoryListItem) {
        guard let list = item.list else { return }
        let position = item.position
        let day = item.key.flatMap { list.days[$0] }
        let previousDay = position > 0 ? list.key(at: position - 1).flatMap { list.days[$0] } : nil
        if let day, position < list.count, day != previousDay {
            gtk_label_set_text(hark_label(item.header), DayGroups.title(of: day))
            gtk_widget_set_visible(item.header, 1)
        } else {
            gtk_widget_set_visible(item.header, 0)
        }
    }

    /// How many items (messages, and the take being recorded) the list shown holds.
    /// (None once the window is gone: the lists' models went with it.)
    private var itemCount: Int { lifetime.isAlive ? shown.count : 0 }

    private func key(at index: Int) -> String? {
        lifetime.isAlive ? shown.key(at: index) : nil
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
            readResults()
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
        for item in items.values where item.list === list { item.row.showTranscript() }
    }

    /// Shows the list in use: the results while searching (nothing when
    /// none match), else every message.
    func showPage(empty: Bool = false) {
        let page = query == nil ? all.scroller : results.count > 0 && !empty ? results.scroller : nothing
        guard gtk_stack_get_visible_child(OpaquePointer(widget)) != page else { return }
        gtk_widget_set_visible(page, 1)
        gtk_stack_set_visible_child(OpaquePointer(widget), page)
        // The others hidden, not only off screen: a screen reader reads only the list shown.
        for other in [all.scroller, results.scroller, nothing!] where other != page { gtk_widget_set_visible(other, 0) }
    }

    /// Counts the messages shown (not the take being recorded), and says so.
    func countShown() {
        count = shown.keys.count - (shown.keys.last == HistoryItem.recordingKey ? 1 : 0)
        onCountChange(count)
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
        items.values.first { $0.row.message != nil && $0.row.hasFocus(focus) }?.row
    }

    /// The row showing `id` in the list shown, if it is on screen.
    func row(showing id: String) -> MessageRow? {
        items.values.first { $0.list === shown && $0.row.message?.id == id }?.row
    }

    /// The list item (the widget taking the focus) showing `id` in the list shown.
    func itemWidget(showing id: String) -> UnsafeMutablePointer<GtkWidget>? {
        items.values.first { $0.list === shown && $0.key == id }?.widget
    }

    /// The rows of the list shown that exist now (those on screen and a few around them).
    var liveRows: [MessageRow] { items.values.filter { $0.list === shown }.map(\.row) }

    func shownIndex(of id: String) -> Int? {
        lifetime.isAlive ? shown.index(of: id) : nil
    }

    func scroll(to index: Int) {
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
