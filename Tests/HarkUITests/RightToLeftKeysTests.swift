import CAdwaita
import CGtk
import Foundation
import GLibSupport
import HarkTestSupport
@testable import HarkUI
import Levels
import MessageStore
import XCTest

/// The arrows on a focused message move its playhead the way they point:
/// right to left (Persian), a message runs from the right, so ← goes forward.
final class RightToLeftKeysTests: XCTestCase {
    override func tearDown() {
        onMainActor { gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR) }
        super.tearDown()
    }

    /// Where the message stands after pressing KEY once on its focused row, in DIRECTION.
    @MainActor
    private static func positionAfter(_ key: Int32, direction: GtkTextDirection) throws -> Double {
        gtk_widget_set_default_direction(direction)
        let scratch = try ScratchFolder()
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 12)
        var position = -1.0
        try WindowFixture.withWindow(storeIn: scratch.url, before: { store -> String in
            let message = try store.beginRecording(title: "Directions")
            try FileManager.default.copyItem(atPath: tone, toPath: store.audioPath(of: message))
            try store.finishRecording(message.id, duration: 12, levels: LevelTrack(rms: [Double](repeating: -20, count: 240),
                                                                                    peak: [Double](repeating: -10, count: 240)))
            try store.setPlayPosition(message.id, 6)
            return message.id
        }) { _, window, id in
            settle(seconds: 0.5)
            let history = try XCTUnwrap(window.history)
            let row = try XCTUnwrap(history.row(showing: id))
            gtk_widget_grab_focus(try XCTUnwrap(row.listItemWidget))
            settle()
            XCTAssertTrue(window.handleKey(UInt32(key), modifiers: 0), "the row takes the arrow")
            position = window.playback?.position(of: try XCTUnwrap(row.message)) ?? -1
        }
        return position
    }

    func testTheArrowsMoveThePlayheadTheWayTheyPoint() throws {
        try onMainActor {
            XCTAssertGreaterThan(try Self.positionAfter(GDK_KEY_Right, direction: GTK_TEXT_DIR_LTR), 6, "→ forward")
            XCTAssertLessThan(try Self.positionAfter(GDK_KEY_Left, direction: GTK_TEXT_DIR_LTR), 6, "← back")
            XCTAssertGreaterThan(try Self.positionAfter(GDK_KEY_Left, direction: GTK_TEXT_DIR_RTL), 6,
                                 "right to left, ← goes forward: towards the end, drawn at the left")
            XCTAssertLessThan(try Self.positionAfter(GDK_KEY_Right, direction: GTK_TEXT_DIR_RTL), 6, "and → back")
        }
    }
}
