import CGLib
import CGtk
import Foundation
import GtkSupport
import MessageStore

/// The one way the history changes: a described change in (`HistoryChange`),
/// the lists spliced where they differ (HistoryList.show), the rows and
/// headers shown again, the messages counted, the list scrolled as asked.
extension HistoryView {
    func apply(_ change: HistoryChange) {
        // Work that ends after the window closed (a download, a transcript)
        // finds no list to show it in: the lists' models went with it.
        guard lifetime.isAlive else { return }
        defer { if change.altersMessages { messageChanges.send(change) } }
        switch change {
        case .reloaded(let id):
            readLists()
            if let id, let index = shownIndex(of: id) { scroll(to: index) } else { scrollToEnd() }
        case .storeChanged:
            let wasAtEnd = isScrolledToEnd
            readLists()
            if wasAtEnd { scrollToEnd() }
        case .added(let id):
            guard all.index(of: id) == nil else { return }
            readLists()  // a new day gets its header; while searching, shown only if it matches
            if query != nil { allFollowsEnd = true }
            scrollToEnd()
        case .changed(let id):
            guard let message = try? store.message(id) else { return }
            let wasAtEnd = isScrolledToEnd
            for item in items.values where item.row.message?.id == id { show(message, in: item) }
            // The last row grown by a line ("Not sent" with its Retry) would reach
            // under the composer: once laid out at its new height, it is shown whole.
            if wasAtEnd {
                FirstFrame.after(scroller, lifetime: lifetime) { [weak self] in self?.scrollToEnd() }
            }
        case .removed(let id):
            for list in [all!, results!] where list.index(of: id) != nil {
                show(list.keys.filter { $0 != id }, days: list.days, in: list)
            }
        case .restored(let id, let place):
            readLists()
            bringBack(id, to: place)
        case .playback(let id):
            for item in items.values where id == nil || item.row.message?.id == id { item.row.refresh() }
        case .position(let id):
            for item in items.values where item.row.message?.id == id { item.row.followPosition() }
        }
    }

    /// Reads the whole list again (every message, and the take being
    /// recorded) and, while searching, the results.
    func readLists() {
        readAll()
        readResults()
    }

    func readAll() {
        guard lifetime.isAlive else { return }
        let newest = pageBeforeFirstFrame()
        let read = (try? store.shownTimes(matching: nil, in: scope, newest: newest)) ?? []
        // Filling in after the first frame: done once the store has no more.
        if fillsIn, let newest, read.count < newest {
            firstPage = nil
            fillsIn = false
        }
        var times = read.filter { !withheld.contains($0.id) }
        if showsRecording { times.append((HistoryItem.recordingKey, Date())) }
        show(times, in: all)
    }

    func readResults() {
        guard lifetime.isAlive, let query else { return }
        show(((try? store.shownTimes(matching: query, in: scope)) ?? []).filter { !withheld.contains($0.id) }, in: results)
    }

    /// Shows the messages of `times` in `list`, with their days.
    private func show(_ times: [(id: String, time: Date)], in list: HistoryList) {
        let days = Dictionary(zip(times.map(\.id), DayGroups.dayStarts(of: times.map(\.time))),
                              uniquingKeysWith: { first, _ in first })
        if case .room = scope {
            for (id, time) in times { roomTimes[id] = time }
        } else {
            roomTimes = [:]
        }
        show(times.map(\.id), days: days, in: list)
    }

    /// Shows `keys` in `list`, replacing only what changed (see
    /// HistoryList.show). Its rows read their messages again, for what
    /// changed elsewhere (a rename by another process), and their headers,
    /// for new neighbours (GTK binds no row again when positions move).
    private func show(_ keys: [String], days: [String: Date], in list: HistoryList) {
        // A list emptied while scrolled makes GTK's grid warn (it finds no
        // row where its scroller clamps to): it leaves the screen first
        // (the window shows "No results" then).
        if keys.isEmpty, list === results, query != nil { showPage(empty: true) }
        list.show(keys, days: days)
        if list === results { showPage() }
        for item in items.values where item.list === list {
            showHeader(of: item)
            guard let id = item.row.message?.id, let message = try? store.message(id),
                  message != item.row.message || item.row.placedAt != time(of: message) else { continue }
            show(message, in: item)
        }
        countShown()
    }

    /// Shows `message` in the row of `item`, and tells a screen reader.
    func show(_ message: Message, in item: HistoryListItem) {
        item.row.show(message, at: time(of: message))
        describe(item, message)
    }

    var isScrolledToEnd: Bool {
        guard let adjustment = shown.adjustment else { return false }
        return gtk_adjustment_get_value(adjustment) + gtk_adjustment_get_page_size(adjustment)
            >= gtk_adjustment_get_upper(adjustment) - 1
    }
}
