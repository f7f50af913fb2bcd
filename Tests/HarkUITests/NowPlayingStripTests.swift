import CAdwaita
import CGLib
import CGtk
import CTestSignals
import Foundation
import GLibSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import Levels
import MessageStore
import XCTest

/// What plays goes on while the window shows something else (a search's
/// results, rows scrolled away), in the strip under the header bar: its title, sender and
/// position as a screen reader reads them, its Pause, its way back to the
/// message, its Close; auto-next goes on in the message's own list.
final class NowPlayingStripTests: XCTestCase {
    func testASearchTypedWhilePlayingLeavesItPlayingAndTheStripPausesGoesBackAndCloses() throws {
        try withTwoMessages { window, older, newer in
            let (history, playback, strip) = (try XCTUnwrap(window.history), try XCTUnwrap(window.playback), try XCTUnwrap(window.nowPlaying))
            XCTAssertFalse(Self.isShown(strip), "nothing loaded, no strip")
            history.actions.activate(.play, newer)
            XCTAssertTrue(Self.waitUntil { Self.isShown(strip) && Self.label(of: strip.playButton, is: "Pause Playback") })
            XCTAssertNil(Self.differs(strip.goButton, "Go to “Dentist”"))
            XCTAssertEqual(Self.text(strip.titleLabel), "Dentist")
            XCTAssertEqual(Self.text(strip.senderLabel), "You")
            let first = Self.text(strip.timeLabel)
            XCTAssertTrue(first.hasSuffix(" / 0:30"), first)
            XCTAssertTrue(Self.waitUntil { Self.text(strip.timeLabel) != first }, "the position advances")

            // A search whose results leave the playing message out: it plays on.
            window.search.open()
            gtk_editable_set_text(OpaquePointer(window.search.entry), "Parking")
            XCTAssertTrue(Self.waitUntil { history.query != nil && history.row(showing: older) != nil })
            XCTAssertNil(history.row(showing: newer), "the results show only the parking spot")
            XCTAssertEqual(playback.currentID, newer)
            XCTAssertTrue(playback.isPlaying)
            XCTAssertTrue(Self.isShown(strip))
            let searching = Self.text(strip.timeLabel)
            XCTAssertTrue(Self.waitUntil { Self.text(strip.timeLabel) != searching }, "and its position advances")

            // The strip's Pause pauses it.
            hark_test_emit(strip.playButton, "clicked")
            XCTAssertTrue(Self.waitUntil { !playback.isPlaying && Self.label(of: strip.playButton, is: "Resume Playback") })
            XCTAssertEqual(playback.currentID, newer, "paused, still loaded")
            XCTAssertTrue(Self.isShown(strip))

            // Its title goes to the message: out of the search, the keyboard on its row.
            hark_test_emit(strip.goButton, "clicked")
            XCTAssertTrue(Self.waitUntil {
                guard !window.search.isOpen, let focus = gtk_root_get_focus(OpaquePointer(window.window)) else { return false }
                return history.row(holding: focus)?.message?.id == newer
            }, "the search closed and the row focused")

            // Close stops it and hides.
            hark_test_emit(strip.closeButton, "clicked")
            XCTAssertNil(playback.currentID)
            XCTAssertFalse(Self.isShown(strip))
        }
    }

    func testAutoNextGoesOnInTheMessagesOwnListWhileASearchShowsOthers() throws {
        try withTwoMessages { window, older, newer in
            let (history, playback, strip) = (try XCTUnwrap(window.history), try XCTUnwrap(window.playback), try XCTUnwrap(window.nowPlaying))
            window.search.open()
            gtk_editable_set_text(OpaquePointer(window.search.entry), "Parking")
            XCTAssertTrue(Self.waitUntil { history.query != nil && history.row(showing: older) != nil })
            history.actions.activate(.play, older)
            XCTAssertTrue(Self.waitUntil { playback.isPlaying })
            playback.seek(older, to: 29, preview: false)
            XCTAssertTrue(Self.waitUntil { playback.currentID == newer && playback.isPlaying },
                          "the recordings' next message plays, not in the results")
            XCTAssertTrue(Self.waitUntil { Self.text(strip.titleLabel) == "Dentist" })
        }
    }

    func testScrollingThePlayingRowAwayLeavesItPlayingAndTheStripBringsItBack() throws {
        try onMainActor {
            try WindowFixture.withMessagesToPlay((1...60).map { "Note \($0)" }) { _, window, ids in
                let (history, playback, strip) = (try XCTUnwrap(window.history), try XCTUnwrap(window.playback), try XCTUnwrap(window.nowPlaying))
                let newest = try XCTUnwrap(ids.last)
                // The older messages come in front of the first page a step at a time.
                XCTAssertTrue(Self.waitUntil { history.count == 60 }, "all 60 listed: \(history.count)")
                history.actions.activate(.play, newest)
                XCTAssertTrue(Self.waitUntil { playback.isPlaying && Self.isShown(strip) })
                history.scrollToItem(0)
                XCTAssertTrue(Self.waitUntil { history.row(showing: newest) == nil && history.row(showing: ids[0]) != nil },
                              "scrolled to the oldest: the newest row's widgets went to other messages")
                XCTAssertEqual(playback.currentID, newest)
                XCTAssertTrue(playback.isPlaying)
                let shown = Self.text(strip.timeLabel)
                XCTAssertTrue(Self.waitUntil { Self.text(strip.timeLabel) != shown }, "its position advances")

                hark_test_emit(strip.goButton, "clicked")
                XCTAssertTrue(Self.waitUntil {
                    guard let focus = gtk_root_get_focus(OpaquePointer(window.window)) else { return false }
                    return history.row(holding: focus)?.message?.id == newest
                }, "back at its row, focused")
            }
        }
    }

    /// A window over "Parking spot" and, newer, "Dentist" (30 s each).
    private func withTwoMessages(_ body: @MainActor (MainWindow, String, String) throws -> Void) throws {
        try onMainActor {
            try WindowFixture.withMessagesToPlay(["Parking spot", "Dentist"]) { _, window, ids in try body(window, ids[0], ids[1]) }
        }
    }

    @MainActor
    private static func isShown(_ strip: NowPlayingStrip) -> Bool {
        gtk_widget_get_mapped(strip.widget) != 0
    }

    @MainActor
    private static func text(_ label: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_label_get_text(hark_label(label)))
    }

    /// nil when `widget`'s accessible name is `expected`, else the name it has.
    @MainActor
    private static func differs(_ widget: UnsafeMutablePointer<GtkWidget>, _ expected: String) -> String? {
        guard let found = hark_accessible_check_string(UnsafeMutableRawPointer(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, expected)
        else { return nil }
        defer { g_free(found) }
        return String(cString: found)
    }

    @MainActor
    private static func label(of widget: UnsafeMutablePointer<GtkWidget>, is expected: String) -> Bool {
        differs(widget, expected) == nil
    }

    @MainActor
    private static func waitUntil(_ condition: @MainActor () -> Bool) -> Bool {
        MainLoop.iterate(until: condition, timeout: 15)
    }
}
