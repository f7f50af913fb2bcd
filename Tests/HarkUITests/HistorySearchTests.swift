import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import Levels
import MessageStore
import XCTest

/// A search shows its results in a list of their own, leaving the whole
/// list as it was: Esc gives it back where it was left, or, from a result,
/// with that message focused and in view, however far it is from where the
/// list was.
final class HistorySearchTests: XCTestCase {
    /// 60 messages an hour apart, oldest first; the sixth is "Dentist", the others "Note N".
    private static func fill(_ store: MessageStore, tone: String) throws -> [String] {
        try (0..<60).map { index in
            let message = try store.beginRecording(title: index == 5 ? "Dentist" : "Note \(index)",
                                                   at: Date(timeIntervalSinceNow: -Double(60 - index) * 3600))
            try FileManager.default.copyItem(atPath: tone, toPath: store.audioPath(of: message))
            try store.finishRecording(message.id, duration: 2, levels: LevelTrack(rms: [Double](repeating: -20, count: 40),
                                                                                   peak: [Double](repeating: -10, count: 40)))
            return message.id
        }
    }

    /// Whether `id`'s row is focused and wholly in the viewport.
    @MainActor
    private static func isFocusedInView(_ window: MainWindow, _ id: String) -> Bool {
        guard let history = window.history, let focus = gtk_root_get_focus(OpaquePointer(window.window)),
              history.row(holding: focus)?.message?.id == id, let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(history.scroller))
        else { return false }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(focus, history.scroller, &bounds) != 0 else { return false }
        return bounds.origin.y >= -0.5 && Double(bounds.origin.y + bounds.size.height) <= gtk_adjustment_get_page_size(adjustment) + 0.5
    }

    func testEscGivesTheWholeListBackAsItWasOrOnTheFocusedResult() throws {
        let scratch = try ScratchFolder()
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 2)
        try onMainActor {
            try WindowFixture.withWindow(storeIn: scratch.url.appendingPathComponent("store"), before: {
                try Self.fill($0, tone: tone)
            }) { _, window, ids in
                gtk_window_set_default_size(window.window, 480, 700)
                window.present()
                let history = try XCTUnwrap(window.history)
                XCTAssertTrue(MainLoop.iterate(until: { history.count == 60 }, timeout: 5))
                let adjustment = try XCTUnwrap(gtk_scrolled_window_get_vadjustment(OpaquePointer(history.scroller)))
                XCTAssertTrue(MainLoop.iterate(until: { gtk_adjustment_get_value(adjustment) > 0 }, timeout: 5),
                              "the list opens at its end")
                settle(seconds: 0.5)
                let atEnd = gtk_adjustment_get_value(adjustment)
                let whole = history.scroller

                // Searched and closed without touching a result: the whole list where it was.
                g_action_group_activate_action(OpaquePointer(window.window), "search", nil)
                gtk_editable_set_text(OpaquePointer(window.search.entry), "dentist")
                XCTAssertTrue(MainLoop.iterate(until: { history.count == 1 }, timeout: 5), "one result")
                XCTAssertNotEqual(history.scroller, whole, "the results have a list of their own")
                window.search.close()
                XCTAssertEqual(history.count, 60, "at once the whole list")
                settle(seconds: 0.5)
                XCTAssertEqual(gtk_adjustment_get_value(adjustment), atEnd, accuracy: 1, "scrolled as it was left")
                XCTAssertNil(gtk_root_get_focus(OpaquePointer(window.window)).flatMap { history.row(holding: $0) },
                             "closed from its field, the keyboard did not fall onto a row (GTK's next widget)")

                // From a focused result, Esc: the whole list, on that message, in view.
                g_action_group_activate_action(OpaquePointer(window.window), "search", nil)
                gtk_editable_set_text(OpaquePointer(window.search.entry), "dentist")
                XCTAssertTrue(MainLoop.iterate(until: { history.count == 1 }, timeout: 5))
                settle(seconds: 0.3)
                let result = try XCTUnwrap(history.itemWidget(showing: ids[5]))
                XCTAssertEqual(gtk_widget_grab_focus(result), 1)
                XCTAssertTrue(window.handleKey(UInt32(GDK_KEY_Escape), modifiers: 0), "Esc is the search's")
                XCTAssertEqual(history.count, 60)
                XCTAssertTrue(MainLoop.iterate(until: { Self.isFocusedInView(window, ids[5]) }, timeout: 5),
                              "the result keeps the focus, in view in the whole list")
                XCTAssertLessThan(gtk_adjustment_get_value(adjustment), atEnd, "scrolled up to it")
            }
        }
    }
}
