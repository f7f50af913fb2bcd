import CAdwaita
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

/// Windows over real stores on disk, and real audio to put in them, for the
/// window tests.
enum WindowFixture {
    static func tone(_ path: String, seconds: Int) throws {
        try gstLaunch("audiotestsrc num-buffers=\(seconds * 50) samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
    }

    /// Stores `titles` as messages of the audio in `file`, `seconds` long,
    /// a minute apart (the last a minute ago); their ids, oldest first.
    static func storeMessages(_ titles: [String], of file: String, seconds: Double, in store: MessageStore) throws -> [String] {
        try titles.enumerated().map { index, title in
            let message = try store.beginRecording(title: title, at: Date(timeIntervalSinceNow: Double(index - titles.count) * 60))
            try FileManager.default.copyItem(atPath: file, toPath: store.audioPath(of: message))
            try store.finishRecording(message.id, duration: seconds, levels: LevelTrack())
            return message.id
        }
    }

    /// A window, presented, over `titles` stored as `seconds` of tone each
    /// (see storeMessages), playing into a fake sink that keeps time;
    /// `body` gets the store's folder, the window and the messages' ids.
    @MainActor
    static func withMessagesToPlay(_ titles: [String], seconds: Int = 30,
                                   _ body: (URL, MainWindow, [String]) throws -> Void) throws {
        let scratch = try ScratchFolder()
        let file = scratch.path("tone.ogg")
        try tone(file, seconds: seconds)
        let saved = PlaybackController.audioSink
        PlaybackController.audioSink = "fakesink sync=true"
        defer { PlaybackController.audioSink = saved }
        let folder = scratch.url.appendingPathComponent("store")
        try withWindow(storeIn: folder, before: { try storeMessages(titles, of: file, seconds: Double(seconds), in: $0) }) { _, window, ids in
            window.present()
            settle(seconds: 0.3)
            try body(folder, window, ids)
            window.playback?.stop()
        }
    }

    /// A window over a real store in `folder`, destroyed after `body`;
    /// `prepare` works on the store before the window opens, and what it
    /// returns is passed on.
    @MainActor
    static func withWindow<Prepared>(storeIn folder: URL, before prepare: (MessageStore) throws -> Prepared,
                                     _ body: (MessageStore, MainWindow, Prepared) throws -> Void) throws {
        try withGtk {
            let store = try MessageStore(folder: folder)
            let prepared = try prepare(store)
            let (window, _) = try makeWindow(store)
            defer { gtk_window_destroy(window.window) }
            try body(store, window, prepared)
        }
    }

    @MainActor
    static func withWindow(storeIn folder: URL, _ body: (MessageStore, MainWindow) throws -> Void) throws {
        try withWindow(storeIn: folder, before: { _ in }) { store, window, _ in try body(store, window) }
    }

    /// A window over a new, empty store, presented and settled.
    @MainActor
    static func withShownWindow(_ body: (MessageStore, MainWindow) throws -> Void) throws {
        let scratch = try ScratchFolder()
        try withWindow(storeIn: scratch.url) { store, window in
            window.present()
            settle(seconds: 0.3)
            try body(store, window)
        }
    }

    @MainActor
    static func makeWindow(_ store: MessageStore) throws -> (MainWindow, HarkApplication) {
        let app = HarkApplication(applicationID: "io.github.hark.Hark.WorkTests\(Int.random(in: 0..<1_000_000))",
                                  flags: G_APPLICATION_NON_UNIQUE)
        _ = try withGError { g_application_register(UnsafeMutableRawPointer(app.gtkApplication).assumingMemoryBound(to: GApplication.self), nil, $0) }
        let window = MainWindow(application: app.gtkApplication, store: store)
        ToastRecord.listen(to: window)
        return (window, app)
    }
}
