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
