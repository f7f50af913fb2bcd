import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import MessageStore
import StoreAudio
import XCTest

/// While a take is recorded the history ends with its placeholder, even when
/// it is the first: the window never says "No messages yet" over a recording.
final class RecordingPlaceholderTests: XCTestCase {
    @MainActor
    private static func placeholdersShown(in window: MainWindow) -> Int {
        Widget.descendants(of: Widget.widget(window.window))
            .filter { gtk_widget_has_css_class($0, "hark-recording-placeholder") != 0 && gtk_widget_is_visible($0) != 0 }
            .count
    }

    func testTheFirstRecordingShowsItsPlaceholderAndThenTheMessage() throws {
        try onMainActor {
            try WindowFixture.withShownWindow { _, window in
                XCTAssertEqual(window.visiblePage, "empty")
                let composer = try XCTUnwrap(window.composer)
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                composer.toggleRecording()
                settle(seconds: 0.3)
                XCTAssertEqual(window.visiblePage, "history", "not 'No messages yet' while recording")
                XCTAssertEqual(Self.placeholdersShown(in: window), 1)
                XCTAssertEqual(window.history?.count, 0, "the placeholder is not a message")
                XCTAssertTrue(MainLoop.iterate(until: { composer.recordedSeconds > 0.5 }, timeout: 10))
                composer.stop()
                XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording }, timeout: 10))
                settle(seconds: 0.3)
                XCTAssertEqual(window.history?.count, 1)
                XCTAssertEqual(Self.placeholdersShown(in: window), 0, "replaced by the message")
                XCTAssertEqual(window.visiblePage, "history")
            }
        }
    }

    /// While a take is recorded nothing plays: the speakers would play into
    /// the microphone. Space (or a click, or Enter) waits until it is done.
    func testNothingPlaysWhileRecording() throws {
        let scratch = try ScratchFolder()
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 2)
        try onMainActor {
            let sink = PlaybackController.audioSink
            PlaybackController.audioSink = "fakesink sync=true"
            defer { PlaybackController.audioSink = sink }
            try WindowFixture.withWindow(storeIn: scratch.url, before: { try $0.importFile(tone).id }) { _, window, id in
                window.present()
                settle(seconds: 0.3)
                let composer = try XCTUnwrap(window.composer)
                let playback = try XCTUnwrap(window.playback)
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                composer.toggleRecording()
                XCTAssertTrue(MainLoop.iterate(until: { composer.recordedSeconds > 0.3 }, timeout: 10))
                XCTAssertFalse(window.handleKey(UInt32(GDK_KEY_space), modifiers: 0) && playback.currentID != nil)
                settle(seconds: 0.5)
                XCTAssertNil(playback.currentID, "Space plays nothing while recording")
                composer.stop()
                XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording }, timeout: 10))
                settle(seconds: 0.3)
                // The title offered after Stop takes the keys until set aside (Esc, or going on).
                XCTAssertTrue(composer.naming.isOffered)
                XCTAssertFalse(window.handleKey(UInt32(GDK_KEY_space), modifiers: 0), "Space types in the title")
                composer.naming.dismiss()
                XCTAssertTrue(window.handleKey(UInt32(GDK_KEY_space), modifiers: 0))
                XCTAssertTrue(MainLoop.iterate(until: { playback.isPlaying }, timeout: 5), "and plays once the take is saved")
                XCTAssertNotEqual(playback.currentID, id, "the newest message: the take just saved")
            }
        }
    }
}
