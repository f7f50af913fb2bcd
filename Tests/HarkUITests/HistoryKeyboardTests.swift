import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import Levels
import MessageStore
import StoreAudio
import XCTest

/// The history by keyboard, with real key presses (xdotool into Xvfb): the
/// list is one Tab stop, the arrows move between messages and the list
/// follows the focus, and the keys on a focused row do what its controls do.
final class HistoryKeyboardTests: XCTestCase {
    /// `count` two-second messages, three hours apart (so over several days), oldest first.
    private static func fill(_ store: MessageStore, count: Int, from tone: String) throws -> [String] {
        try (0..<count).map { index in
            let date = Date(timeIntervalSinceNow: -Double(count - index) * 3 * 3600)
            let message = try store.beginRecording(title: "Message \(index)", at: date)
            try FileManager.default.copyItem(atPath: tone, toPath: store.audioPath(of: message))
            try store.finishRecording(message.id, duration: 2, levels: LevelTrack(rms: [Double](repeating: -20, count: 40),
                                                                                   peak: [Double](repeating: -10, count: 40)))
            return message.id
        }
    }

    private static func xdotool(_ arguments: String...) throws -> String {
        try ChildProcess.run("/usr/bin/xdotool", arguments, seconds: 15).output
    }

    /// The message whose row has the focus, if the focus is on a row.
    @MainActor
    private static func focusedMessage(_ window: MainWindow) -> String? {
        gtk_root_get_focus(OpaquePointer(window.window)).flatMap { window.history?.row(holding: $0)?.message?.id }
    }

    /// Whether the focused widget is wholly inside the history's viewport.
    @MainActor
    private static func focusIsInView(_ window: MainWindow) -> Bool {
        guard let focus = gtk_root_get_focus(OpaquePointer(window.window)), let history = window.history,
              gtk_widget_get_mapped(focus) != 0,
              let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(history.scroller)) else { return false }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(focus, history.scroller, &bounds) != 0 else { return false }
        return bounds.origin.y >= -0.5 && Double(bounds.origin.y + bounds.size.height) <= gtk_adjustment_get_page_size(adjustment) + 0.5
    }

    /// Presses a key for real (the window has the X focus), and lets GTK handle it.
    @MainActor
    private static func press(_ key: String) throws {
        _ = try xdotool("key", "--clearmodifiers", key)
        _ = MainLoop.iterate(until: { false }, timeout: 0.3)
    }

    /// A window of 480 × 700 over `count` messages, with the X keyboard focus.
    @MainActor
    private static func withKeyboardWindow(messages count: Int,
                                           _ body: (MainWindow, [String], _ store: MessageStore, _ tone: String) throws -> Void) throws {
        let scratch = try ScratchFolder()
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 2)
        let sink = PlaybackController.audioSink
        PlaybackController.audioSink = "fakesink sync=true"
        defer { PlaybackController.audioSink = sink }
        try WindowFixture.withWindow(storeIn: scratch.url, before: { try Self.fill($0, count: count, from: tone) }) { store, window, ids in
            gtk_window_set_default_size(window.window, 480, 700)
            gtk_window_set_title(window.window, "Hark keyboard test")
            window.present()
            settle(seconds: 1)
            let xid = try XCTUnwrap(try xdotool("search", "--onlyvisible", "--name", "Hark keyboard test")
                .split(separator: "\n").first.map(String.init))
            _ = try xdotool("windowfocus", "--sync", xid)
            settle(seconds: 0.3)
            try body(window, ids, store, tone)
        }
    }

    /// Tabs until the focus is on a row (or gives up).
    @MainActor
    private static func tabIntoTheList(_ window: MainWindow) throws {
        var presses = 0
        while focusedMessage(window) == nil, presses < 12 {
            try press("Tab")
            presses += 1
        }
    }

    /// Space plays and pauses the focused row and its focus ring stays, as
    /// after any other key: GTK hides a ring some seconds after the last
    /// key it saw, and Space, taken by the history, never reached it.
    func testTheFocusRingStaysAfterSpace() throws {
        try onMainActor {
            try Self.withKeyboardWindow(messages: 2) { window, ids, _, _ in
                let playback = try XCTUnwrap(window.playback)
                try Self.tabIntoTheList(window)
                XCTAssertEqual(Self.focusedMessage(window), ids.last)
                XCTAssertEqual(gtk_window_get_focus_visible(window.window), 1, "Tab shows the ring")
                var hidden = false
                let watch = Signal.connectPointer(UnsafeMutableRawPointer(window.window), "notify::focus-visible") { _ in
                    if gtk_window_get_focus_visible(window.window) == 0 { hidden = true }
                }
                defer { Signal.disconnect(UnsafeMutableRawPointer(window.window), watch) }
                for _ in 0..<3 {
                    try Self.press("space")
                    XCTAssertTrue(MainLoop.iterate(until: { playback.isPlaying }, timeout: 5), "Space plays")
                    try Self.press("space")
                    XCTAssertTrue(MainLoop.iterate(until: { !playback.isPlaying }, timeout: 5), "Space pauses")
                    // Longer than GTK keeps a ring after the last key it saw.
                    _ = MainLoop.iterate(until: { hidden }, timeout: 4)
                    XCTAssertFalse(hidden, "the focus ring stays")
                    XCTAssertEqual(Self.focusedMessage(window), ids.last, "on the row")
                }
                // A click hands the ring back to GTK, which hides it after a while.
                let xid = try XCTUnwrap(try Self.xdotool("search", "--onlyvisible", "--name", "Hark keyboard test")
                    .split(separator: "\n").first.map(String.init))
                _ = try Self.xdotool("mousemove", "--window", xid, "240", "20", "click", "1")
                XCTAssertTrue(MainLoop.iterate(until: { window.focusRing?.keyboardInUse == false }, timeout: 3))
                XCTAssertTrue(MainLoop.iterate(until: { hidden }, timeout: 5), "after a click, GTK's own timing")
            }
        }
    }

    func testTabComesIntoAShortListAtItsNewestMessage() throws {
        try onMainActor {
            try Self.withKeyboardWindow(messages: 3) { window, ids, _, _ in
                XCTAssertEqual(window.history?.count, 3)
                try Self.tabIntoTheList(window)
                XCTAssertEqual(Self.focusedMessage(window), ids.last, "the newest, not GTK's first row")
            }
        }
    }

    func testTheListIsOneTabStopAndFollowsTheFocus() throws {
        try onMainActor {
            try Self.withKeyboardWindow(messages: 41) { window, ids, store, tone in
                let press = Self.press
                let history = try XCTUnwrap(window.history)
                let composer = try XCTUnwrap(window.composer)

                // Tab reaches the list at the newest message in view, not the oldest far above.
                try Self.tabIntoTheList(window)
                XCTAssertEqual(Self.focusedMessage(window), ids.last, "Tab enters the list at the newest message")
                XCTAssertTrue(Self.focusIsInView(window))
                // One more Tab leaves the list for the composer: the list is one stop.
                try press("Tab")
                let afterList = try XCTUnwrap(gtk_root_get_focus(OpaquePointer(window.window)))
                XCTAssertFalse(history.holdsFocus(afterList), "Tab leaves the list")
                XCTAssertNotEqual(gtk_widget_is_ancestor(afterList, composer.widget), 0, "the next stop is the composer's")
                try press("shift+Tab")
                XCTAssertEqual(Self.focusedMessage(window), ids.last, "Shift+Tab comes back to the same row")

                // The arrows move between messages, and the list follows the focus.
                for (key, expected) in [("Up", ids[39]), ("ctrl+Home", ids[0]), ("Down", ids[1]), ("ctrl+End", ids[40])] {
                    try press(key)
                    XCTAssertEqual(Self.focusedMessage(window), expected, key)
                    XCTAssertTrue(MainLoop.iterate(until: { Self.focusIsInView(window) }, timeout: 3), "\(key): the focused row is in view")
                }
                for key in ["Page_Up", "Page_Up", "Page_Down"] {
                    try press(key)
                    XCTAssertNotNil(Self.focusedMessage(window), key)
                    XCTAssertTrue(MainLoop.iterate(until: { Self.focusIsInView(window) }, timeout: 3), "\(key): the focused row is in view")
                }
                try press("ctrl+End")
                let newest = try XCTUnwrap(Self.focusedMessage(window))
                let focusedItem = gtk_root_get_focus(OpaquePointer(window.window))

                // Space plays the focused row, which keeps the focus and its ring.
                let playback = try XCTUnwrap(window.playback)
                try press("space")
                XCTAssertTrue(MainLoop.iterate(until: { playback.currentID == newest && playback.isPlaying }, timeout: 5), "Space plays")
                settle(seconds: 0.3)
                XCTAssertEqual(gtk_root_get_focus(OpaquePointer(window.window)), focusedItem, "the row keeps the focus")
                XCTAssertEqual(gtk_window_get_focus_visible(window.window), 1, "and its focus ring")
                try press("space")
                XCTAssertTrue(MainLoop.iterate(until: { !playback.isPlaying }, timeout: 5), "Space pauses")
                try press("Home")
                XCTAssertEqual(playback.position, 0, accuracy: 0.05, "Home goes to the start")
                try press("Right")
                XCTAssertTrue(MainLoop.iterate(until: { playback.position > 1.5 }, timeout: 3), "→ seeks forward")
                try press("Return")
                XCTAssertTrue(MainLoop.iterate(until: { playback.isPlaying }, timeout: 5), "Enter plays too")
                try press("Return")
                XCTAssertTrue(MainLoop.iterate(until: { !playback.isPlaying }, timeout: 5))

                // The Menu key (and Shift+F10) opens the row's menu; Escape gives the focus back to the row.
                let row = try XCTUnwrap(history.row(showing: newest))
                for key in ["Menu", "shift+F10"] {
                    try press(key)
                    XCTAssertTrue(MainLoop.iterate(until: { row.menuIsOpen }, timeout: 3), "\(key) opens the menu")
                    try press("Escape")
                    XCTAssertTrue(MainLoop.iterate(until: { !row.menuIsOpen }, timeout: 3), "Escape closes it")
                    XCTAssertTrue(MainLoop.iterate(until: { Self.focusedMessage(window) == newest }, timeout: 3),
                                  "\(key): the focus is back on the row")
                }

                // Delete on the focused row: the focus stays in the list, on its neighbour.
                try press("Up")
                XCTAssertEqual(Self.focusedMessage(window), ids[39])
                try press("Delete")
                XCTAssertTrue(MainLoop.iterate(until: { history.count == 40 }, timeout: 3), "Delete deletes the focused message")
                XCTAssertTrue(MainLoop.iterate(until: { Self.focusedMessage(window).map { [ids[38], ids[40]].contains($0) } ?? false },
                                               timeout: 3), "the focus moves to a neighbour")
                XCTAssertTrue(MainLoop.iterate(until: { Self.focusIsInView(window) }, timeout: 3))

                // A row focused by a click (as GTK does for one) is where Tab comes back to.
                let clicked = try XCTUnwrap(history.liveRows.first { $0.message?.id == ids[37] })
                XCTAssertEqual(gtk_widget_grab_focus(try XCTUnwrap(clicked.listItemWidget)), 1)
                settle(seconds: 0.3)
                XCTAssertEqual(Self.focusedMessage(window), ids[37], "a click's focus stays where it was put")
                try press("Tab")
                XCTAssertNil(Self.focusedMessage(window))
                try press("shift+Tab")
                XCTAssertEqual(Self.focusedMessage(window), ids[37], "Shift+Tab comes back to the row focused last")

                // The list loaded again (an import, an undo, another process's change) keeps the focused row.
                history.apply(.storeChanged)
                XCTAssertTrue(MainLoop.iterate(until: { Self.focusedMessage(window) == ids[37] }, timeout: 3),
                              "the focus survives a reload")

                // The list changing around the focused row keeps the focus on it: a new message, a take begun.
                let added = try store.importFile(tone, title: "Newest").id
                history.apply(.added(added))
                settle(seconds: 0.3)
                XCTAssertEqual(Self.focusedMessage(window), ids[37], "a new message keeps the focus where it was")
                history.showsRecording = true
                settle(seconds: 0.3)
                XCTAssertEqual(Self.focusedMessage(window), ids[37], "and so does a take's placeholder")
                // The arrows end on the take being recorded, where the keys do nothing.
                try press("ctrl+End")
                let onTake = try XCTUnwrap(gtk_root_get_focus(OpaquePointer(window.window)))
                XCTAssertTrue(history.holdsFocus(onTake) && Self.focusedMessage(window) == nil, "on the placeholder")
                XCTAssertFalse(window.handleKey(UInt32(GDK_KEY_F2), modifiers: 0), "F2 renames nothing there")
                try press("Up")
                XCTAssertEqual(Self.focusedMessage(window), added)
                history.showsRecording = false
                settle(seconds: 0.3)
                XCTAssertEqual(Self.focusedMessage(window), added)

                // The row focused last scrolled out of view (the wheel): Tab comes in on the newest in view instead.
                try press("Up")
                let remembered = try XCTUnwrap(Self.focusedMessage(window))
                try press("Tab")
                XCTAssertNil(Self.focusedMessage(window))
                let adjustment = try XCTUnwrap(gtk_scrolled_window_get_vadjustment(OpaquePointer(history.scroller)))
                gtk_adjustment_set_value(adjustment, 0)
                settle(seconds: 0.5)
                try press("shift+Tab")
                let entered = try XCTUnwrap(Self.focusedMessage(window))
                XCTAssertNotEqual(entered, remembered, "not the remembered row, far below")
                XCTAssertTrue(Self.focusIsInView(window), "but one in view")
                XCTAssertLessThan(gtk_adjustment_get_value(adjustment), gtk_adjustment_get_page_size(adjustment),
                                  "the list stays about where it was left")
            }
        }
    }

    /// The newest row's place in the viewport: wholly in view at its bottom.
    @MainActor
    private static func newestIsWholeAtTheBottom(_ window: MainWindow, _ id: String) -> Bool {
        guard let history = window.history, let item = history.row(showing: id)?.listItemWidget,
              gtk_widget_get_mapped(item) != 0,
              let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(history.scroller)) else { return false }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(item, history.scroller, &bounds) != 0 else { return false }
        let bottom = Double(bounds.origin.y + bounds.size.height), page = gtk_adjustment_get_page_size(adjustment)
        return bounds.origin.y >= -0.5 && bottom <= page + 0.5 && bottom >= page - 80
    }

    /// A long history opens on its newest message, whole, at the bottom; GTK's
    /// estimate of the rows it has not built must not leave it half hidden.
    func testALongHistoryOpensWithTheNewestMessageWholeInView() throws {
        try onMainActor {
            try Self.withKeyboardWindow(messages: 200) { window, ids, store, tone in
                let newest = try XCTUnwrap(ids.last)
                XCTAssertTrue(MainLoop.iterate(until: { Self.newestIsWholeAtTheBottom(window, newest) }, timeout: 3),
                              "the newest of 200 is whole at the bottom")
                settle(seconds: 0.5)
                XCTAssertTrue(Self.newestIsWholeAtTheBottom(window, newest), "and stays there as rows are built")
                try Self.tabIntoTheList(window)
                XCTAssertEqual(Self.focusedMessage(window), newest, "Tab comes in on it")
                let added = try store.importFile(tone, title: "Newest").id
                try XCTUnwrap(window.history).apply(.added(added))
                XCTAssertTrue(MainLoop.iterate(until: { Self.newestIsWholeAtTheBottom(window, added) }, timeout: 3),
                              "a new message is scrolled to, whole")
            }
        }
    }

    /// Where each message on screen is in the viewport (its row's top).
    @MainActor
    private static func places(_ history: HistoryView, _ ids: [String]) -> [String: Double] {
        var places: [String: Double] = [:]
        for id in ids { if let place = history.place(of: id) { places[id] = place } }
        return places
    }

    /// Undoing a delete (Ctrl+Z) puts the message back where it was: no row
    /// on screen moves, and the focus is on it, not on the neighbour that
    /// took it; at the end of the list and scrolled up into it.
    func testUndoingADeletePutsTheMessageBackInPlaceWithTheFocus() throws {
        try onMainActor {
            try Self.withKeyboardWindow(messages: 41) { window, ids, store, _ in
                let history = try XCTUnwrap(window.history)
                try Self.tabIntoTheList(window)
                /// Whether `id` is its day's first message (its row carries the day's header).
                func isDaysFirst(_ id: String) -> Bool {
                    guard let index = ids.firstIndex(of: id), index > 0,
                          let date = try? store.message(id).createdAt, let before = try? store.message(ids[index - 1]).createdAt
                    else { return false }
                    return !Calendar.current.isDate(date, inSameDayAs: before)
                }
                for (moves, where_) in [([], "the newest"), (["Up", "Up"], "near the end"), (["Page_Up", "Page_Up", "Up"], "scrolled up"),
                                        (["day"], "a day's first")] {
                    for key in moves where key != "day" { try Self.press(key) }
                    if moves == ["day"] {
                        for _ in 0..<10 where !(Self.focusedMessage(window).map(isDaysFirst) ?? true) { try Self.press("Up") }
                        XCTAssertTrue(Self.focusedMessage(window).map(isDaysFirst) ?? false)
                    }
                    settle(seconds: 0.3)
                    let target = try XCTUnwrap(Self.focusedMessage(window))
                    let before = Self.places(history, ids)
                    XCTAssertGreaterThan(before.count, 3, where_)
                    XCTAssertNotNil(before[target], where_)
                    try Self.press("Delete")
                    XCTAssertTrue(MainLoop.iterate(until: { history.count == 40 }, timeout: 3), "\(where_): deleted")
                    XCTAssertNotEqual(Self.focusedMessage(window), target)
                    try Self.press("ctrl+z")
                    XCTAssertTrue(MainLoop.iterate(until: { history.count == 41 }, timeout: 3), "\(where_): back")
                    XCTAssertTrue(MainLoop.iterate(until: { Self.focusedMessage(window) == target }, timeout: 3),
                                  "\(where_): the focus is on the message brought back")
                    settle(seconds: 0.3)
                    XCTAssertEqual(Self.focusedMessage(window), target, where_)
                    let after = Self.places(history, ids)
                    for (id, place) in before {
                        XCTAssertEqual(after[id] ?? -10_000, place, accuracy: 1, "\(where_): \(id == target ? "it" : "a row") did not move")
                    }
                }
            }
        }
    }

    /// Whether the keyboard focus is in a popover (a menu).
    @MainActor
    private static func focusIsInAMenu(_ window: MainWindow) -> Bool {
        gtk_root_get_focus(OpaquePointer(window.window)).map { gtk_widget_get_ancestor($0, gtk_popover_get_type()) != nil } ?? false
    }

    /// The row's menu, opened by the keyboard, takes the keyboard: ↓ and
    /// Enter choose in it, Escape closes it, and the focus goes back to the row.
    func testTheRowMenuOpenedByKeysTakesTheFocusAndGivesItBack() throws {
        try onMainActor {
            try Self.withKeyboardWindow(messages: 3) { window, ids, _, _ in
                let history = try XCTUnwrap(window.history)
                try Self.tabIntoTheList(window)
                XCTAssertEqual(Self.focusedMessage(window), ids[2])
                let row = try XCTUnwrap(history.row(showing: ids[2]))
                for key in ["Menu", "shift+F10"] {
                    try Self.press(key)
                    XCTAssertTrue(MainLoop.iterate(until: { row.menuIsOpen }, timeout: 3), "\(key) opens the menu")
                    XCTAssertTrue(MainLoop.iterate(until: { Self.focusIsInAMenu(window) }, timeout: 3), "\(key): the menu has the focus")
                    try Self.press("Down")
                    XCTAssertTrue(Self.focusIsInAMenu(window), "↓ moves in the menu, not through the rows behind it")
                    XCTAssertEqual(history.count, 3)
                    try Self.press("Escape")
                    XCTAssertTrue(MainLoop.iterate(until: { !row.menuIsOpen }, timeout: 3), "Escape closes it")
                    XCTAssertTrue(MainLoop.iterate(until: { Self.focusedMessage(window) == ids[2] }, timeout: 3),
                                  "\(key): the focus is back on the row")
                }
                // Ctrl+E exports the focused message: the chooser opens.
                let windowsBefore = g_list_model_get_n_items(gtk_window_get_toplevels())
                try Self.press("ctrl+e")
                XCTAssertTrue(MainLoop.iterate(until: { g_list_model_get_n_items(gtk_window_get_toplevels()) > windowsBefore }, timeout: 5),
                              "Ctrl+E opens the export chooser")
                try Self.press("Escape")
                XCTAssertTrue(MainLoop.iterate(until: { g_list_model_get_n_items(gtk_window_get_toplevels()) == windowsBefore }, timeout: 5),
                              "Escape closes it")
                let xid = try XCTUnwrap(try Self.xdotool("search", "--onlyvisible", "--name", "Hark keyboard test")
                    .split(separator: "\n").first.map(String.init))
                _ = try Self.xdotool("windowfocus", "--sync", xid)
                settle(seconds: 0.3)
                XCTAssertTrue(MainLoop.iterate(until: { Self.focusedMessage(window) == ids[2] }, timeout: 3))

                // Rename…, Copy, Export…, Delete: three ↓ and Enter delete the message.
                try Self.press("Menu")
                XCTAssertTrue(MainLoop.iterate(until: { Self.focusIsInAMenu(window) }, timeout: 3))
                for _ in 0..<3 { try Self.press("Down") }
                let chosen = gtk_root_get_focus(OpaquePointer(window.window)).flatMap { focus in
                    Widget.descendants(of: focus).lazy.compactMap { Widget.typeName($0) == "GtkLabel" ? gtk_label_get_text(hark_label($0)) : nil }
                        .first.map { String(cString: $0) }
                }
                XCTAssertEqual(chosen, "Delete", "↓ walked the menu's items")
                try Self.press("Return")
                XCTAssertTrue(MainLoop.iterate(until: { history.count == 2 }, timeout: 3), "Enter chose Delete")
                XCTAssertTrue(MainLoop.iterate(until: { Self.focusedMessage(window) == ids[1] }, timeout: 3),
                              "and the focus is on the row beside it")
            }
        }
    }
}
