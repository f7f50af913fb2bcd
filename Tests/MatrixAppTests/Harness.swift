import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import XCTest

/// The window against a real homeserver: synchronous XCTest methods on the
/// main thread, where GLib's loop turns while they wait (as in HarkUITests
/// and MatrixServerTests), under Xvfb on a private session bus that holds
/// the test's own gnome-keyring (see scripts/run-tests).
@MainActor
func withWindow(storeIn folder: URL, before prepare: (MessageStore) throws -> Void = { _ in },
                _ body: (MessageStore, MainWindow) throws -> Void) throws {
    guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
        XCTFail("these tests need a display: run them through scripts/run-tests")
        return
    }
    XCTAssertEqual(gtk_init_check(), 1)
    adw_init()
    MainLoop.bridgeSwiftConcurrency()
    let store = try MessageStore(folder: folder)
    try prepare(store)
    let app = HarkApplication(applicationID: "io.github.hark.Hark.MatrixTests\(Int.random(in: 0..<1_000_000))",
                              flags: G_APPLICATION_NON_UNIQUE)
    _ = try withGError {
        g_application_register(UnsafeMutableRawPointer(app.gtkApplication).assumingMemoryBound(to: GApplication.self), nil, $0)
    }
    let window = MainWindow(application: app.gtkApplication, store: store)
    ToastRecord.listen(to: window)
    defer {
        gtk_window_destroy(window.window)
        settle()
    }
    window.present()
    settle()
    try body(store, window)
}

/// Lets GTK and the network work for a moment.
@MainActor
func settle(seconds: Double = 0.2) {
    MainLoop.iterate(until: { false }, timeout: seconds)
}

/// Turns the loop until `condition` holds; false if it did not within `seconds`.
@MainActor
func waitUntil(seconds: Double = 60, _ condition: @MainActor () -> Bool) -> Bool {
    MainLoop.iterate(until: condition, timeout: seconds)
}

/// Whether any file under `folder` holds `secret` (the token must be in none).
func anyFile(under folder: URL, contains secret: String) -> Bool {
    let needle = Data(secret.utf8)
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
    return files.contains { (try? Data(contentsOf: $0))?.range(of: needle) != nil }
}
