import CAdwaita
import CGLib
import CGtk
import GLibSupport
import XCTest

/// GTK tests run as synchronous XCTest methods on the process's main thread
/// (see GLibSupportTests/MainThreadHarness.swift for why), under a display:
/// `make test` runs this target inside `xvfb-run` and `dbus-run-session`.
@MainActor
func withGtk(_ body: @MainActor () throws -> Void) throws {
    guard ProcessInfo.processInfo.environment["DISPLAY"] != nil
            || ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] != nil else {
        XCTFail("GTK tests need a display: run them with `make test` or under `xvfb-run -a`")
        return
    }
    XCTAssertEqual(gtk_init_check(), 1, "gtk_init_check failed")
    adw_init()
    MainLoop.bridgeSwiftConcurrency()
    try body()
}

func onMainActor(_ body: @MainActor () throws -> Void) rethrows {
    try MainActor.assumeIsolated { try body() }
}

/// Lets GTK handle pending events, redraws and idle work for a moment.
@MainActor
func settle(seconds: Double = 0.2) {
    MainLoop.iterate(until: { false }, timeout: seconds)
}

/// Shows `child` alone in a new window of `width`×`height`, lets it settle,
/// runs `body` with the window and destroys it after.
@MainActor
func withPresentedWindow<Result>(showing child: UnsafeMutablePointer<GtkWidget>, width: Int32, height: Int32,
                                 _ body: (UnsafeMutablePointer<GtkWidget>) throws -> Result) rethrows -> Result {
    let window = gtk_window_new()!
    defer { gtk_window_destroy(hark_window(window)) }
    gtk_window_set_default_size(hark_window(window), width, height)
    gtk_window_set_child(hark_window(window), child)
    gtk_window_present(hark_window(window))
    settle(seconds: 0.5)
    return try body(window)
}
