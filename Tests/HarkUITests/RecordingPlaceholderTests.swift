import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
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
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { _, window in
                window.present()
                settle(seconds: 0.3)
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
}
