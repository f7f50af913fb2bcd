import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import XCTest

/// Windows over real stores on disk, and real audio to put in them, for the
/// window tests.
enum WindowFixture {
    static func tone(_ path: String, seconds: Int) throws {
        try gstLaunch("audiotestsrc num-buffers=\(seconds * 50) samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
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
