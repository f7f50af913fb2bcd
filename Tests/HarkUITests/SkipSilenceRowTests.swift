import CGLib
import CGtk
import Foundation
import GLibSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import Levels
import MessageStore
import XCTest

/// Skip Silence in the window: one choice for every message (the main menu
/// and each row's speed section name `win.skip-silence`), kept in the store,
/// and each row says what it saves while it is on.
final class SkipSilenceRowTests: XCTestCase {
    /// Levels every 50 ms: 1 s of speech, pauses of 0.2, 1 and 3 s between three more seconds of it.
    private static let levels: LevelTrack = {
        var track = LevelTrack()
        for (seconds, level) in [(1.0, -20.0), (0.2, -100), (1, -20), (1, -100), (1, -20), (3, -100), (1, -20)] {
            for _ in 0..<Int(seconds * 20) { track.append(rms: level, peak: level + 3) }
        }
        return track
    }()

    @MainActor
    private static func shownWhen(_ row: MessageRow) -> String {
        String(cString: gtk_label_get_text(hark_label(row.titleLine.when)))
    }

    func testTheRowsSayWhatSkipSilenceSavesWhileItIsOnAndTheChoiceIsKept() throws {
        let scratch = try ScratchFolder()
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 8)
        try onMainActor {
            try WindowFixture.withWindow(storeIn: scratch.url.appendingPathComponent("store"), before: { store in
                let message = try store.beginRecording(title: "Pauses to think", at: Date())
                try FileManager.default.copyItem(atPath: tone, toPath: store.audioPath(of: message))
                try store.finishRecording(message.id, duration: 8.2, levels: Self.levels)
                return message.id
            }) { store, window, id in
                window.present()
                settle(seconds: 0.3)
                let row = try XCTUnwrap(window.history?.row(showing: id))
                XCTAssertFalse(Self.shownWhen(row).contains("−"), Self.shownWhen(row))

                g_action_group_activate_action(OpaquePointer(window.window), MainWindow.skipSilenceAction, nil)
                settle()
                XCTAssertTrue(Self.shownWhen(row).hasSuffix(" · −3 s"), "0.7 + 2.7 s saved: \(Self.shownWhen(row))")
                XCTAssertEqual(gtk_widget_get_tooltip_text(row.titleLine.when).map { String(cString: $0) },
                               "Skip Silence saves 3 seconds")
                XCTAssertEqual(store.setting(PlaybackController.skipSilenceSetting), "on", "kept for the next start")
                let state = try XCTUnwrap(g_action_group_get_action_state(OpaquePointer(window.window), MainWindow.skipSilenceAction))
                XCTAssertEqual(g_variant_get_boolean(state), 1, "the menus show it checked")
                g_variant_unref(state)

                g_action_group_activate_action(OpaquePointer(window.window), MainWindow.skipSilenceAction, nil)
                settle()
                XCTAssertFalse(Self.shownWhen(row).contains("−"), Self.shownWhen(row))
                XCTAssertNil(store.setting(PlaybackController.skipSilenceSetting))
            }
        }
    }
}
