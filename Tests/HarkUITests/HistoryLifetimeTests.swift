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

/// The history outlives its widgets: the window's Swift object (and what it
/// captured) lives on after GTK destroyed the window, and work queued just
/// before (scrolling to the end after layout, following the focus, fitting a
/// waveform) or arriving after (another process's change, an import) must
/// never reach the destroyed list. Under `G_DEBUG=fatal-warnings` a call on
/// the freed scrolled window's memory is a critical, and the test crashes.
final class HistoryLifetimeTests: XCTestCase {
    func testWorkQueuedOrArrivingAfterTheWindowIsDestroyedNeverTouchesTheList() throws {
        let scratch = try ScratchFolder()
        let tone = scratch.url.appendingPathComponent("tone.ogg").path
        try WindowFixture.tone(tone, seconds: 1)
        try onMainActor {
            try withGtk {
                let store = try MessageStore(folder: scratch.url.appendingPathComponent("store"))
                for index in 0..<12 {
                    let message = try store.beginRecording(title: "Message \(index)",
                                                           at: Date(timeIntervalSinceNow: -Double(12 - index) * 3600))
                    try FileManager.default.copyItem(atPath: tone, toPath: store.audioPath(of: message))
                    try store.finishRecording(message.id, duration: 1,
                                              levels: LevelTrack(rms: [Double](repeating: -20, count: 20),
                                                                 peak: [Double](repeating: -10, count: 20)))
                }
                for round in 0..<3 {
                    let (window, _) = try WindowFixture.makeWindow(store)
                    window.present()
                    settle(seconds: 0.3)
                    let history = try XCTUnwrap(window.history)
                    // Each of these leaves an idle behind that touches the list after layout.
                    history.apply(.reloaded(showing: nil))
                    history.search(SearchQuery("message"))
                    history.search(nil)
                    if let newest = try store.list(limit: 1).first { history.apply(.reloaded(showing: newest.id)) }
                    gtk_window_destroy(window.window)
                    XCTAssertFalse(history.lifetime.isAlive, "round \(round): the list was destroyed with its window")
                    settle(seconds: 0.2)  // the queued work runs now, or never
                    // And calls arriving later (an import finishing and saying so, the outside-change poll).
                    history.apply(.storeChanged)
                    history.apply(.reloaded(showing: nil))
                    history.apply(.added("no-such-message"))
                    history.apply(.removed("no-such-message"))
                    window.toast("An import that ended after the window closed")
                    XCTAssertNil(history.lastMessage, "round \(round): a destroyed list shows nothing")
                    settle(seconds: 0.1)
                }
            }
        }
    }
}
