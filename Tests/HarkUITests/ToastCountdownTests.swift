import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import XCTest

/// A toast's seconds run only while the user can see it: an import that
/// fails while the file chooser (or another window) is in front is still
/// there to read when the user comes back.
final class ToastCountdownTests: XCTestCase {
    func testAToastWaitsWhileAnotherWindowIsInFrontAndGoesOnceSeen() throws {
        try Self.withWindowInFront { window in
            let line = "“notes.ogg” could not be imported"
            @MainActor func shown() -> Bool { Self.shows(window, line) }

            // Another window in front (as GTK's file chooser is), then the failure.
            let chooser = gtk_window_new()!
            let chooserWindow = UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkWindow.self)
            gtk_window_set_transient_for(chooserWindow, window.window)
            gtk_window_set_modal(chooserWindow, 1)
            gtk_window_present(chooserWindow)
            Self.focus(chooserWindow)
            XCTAssertTrue(MainLoop.iterate(until: { gtk_window_is_active(window.window) == 0 }, timeout: 5),
                          "the other window is in front")
            window.toast(line, seconds: 1)
            XCTAssertTrue(MainLoop.iterate(until: shown, timeout: 5), "the toast is up")
            settle(seconds: 2.5)
            XCTAssertTrue(shown(), "not one of its seconds counted while nobody could see it")

            gtk_window_destroy(chooserWindow)
            window.present()
            Self.focus(window.window)
            XCTAssertTrue(MainLoop.iterate(until: { gtk_window_is_active(window.window) != 0 }, timeout: 5),
                          "the window is in front again")
            settle(seconds: 0.5)
            XCTAssertTrue(shown(), "seen for half of its second")
            XCTAssertTrue(MainLoop.iterate(until: { !shown() }, timeout: 5), "and gone once seen for its second")
        }
    }

    func testAToastQueuedBehindAnotherGetsItsSecondsOnceItShows() throws {
        try Self.withWindowInFront { window in
            @MainActor func shown(_ line: String) -> Bool { Self.shows(window, line) }
            let first = "“a.ogg” could not be imported", second = "“b.ogg” could not be imported"
            window.toast(first, seconds: 2)
            window.toast(second, seconds: 1)
            XCTAssertTrue(MainLoop.iterate(until: { shown(first) }, timeout: 5), "the first is up")
            XCTAssertFalse(shown(second), "the second waits behind it")
            XCTAssertTrue(MainLoop.iterate(until: { !shown(first) }, timeout: 6), "the first goes after its seconds")
            XCTAssertTrue(MainLoop.iterate(until: { shown(second) }, timeout: 3), "then the second shows")
            settle(seconds: 0.4)
            XCTAssertTrue(shown(second), "with its second still to run: none counted while it waited")
            XCTAssertTrue(MainLoop.iterate(until: { !shown(second) }, timeout: 5), "and it goes in its turn")
        }
    }

    /// A window of Hark's with the keyboard focus, as the user sees it.
    private static func withWindowInFront(_ body: @MainActor (MainWindow) throws -> Void) throws {
        let scratch = try ScratchFolder()
        try onMainActor {
            try WindowFixture.withWindow(storeIn: scratch.url) { _, window in
                window.present()
                focus(window.window)
                XCTAssertTrue(MainLoop.iterate(until: { gtk_window_is_active(window.window) != 0 }, timeout: 5),
                              "the window comes to the front")
                try body(window)
            }
        }
    }

    /// Whether a toast saying `line` is on screen over the history.
    @MainActor
    private static func shows(_ window: MainWindow, _ line: String) -> Bool {
        Widget.descendants(of: window.toasts).contains {
            Widget.typeName($0) == "GtkLabel" && gtk_widget_get_mapped($0) != 0
                && String(cString: gtk_label_get_text(hark_label($0))) == line
        }
    }

    /// Gives `window` the keyboard focus as a window manager would. Without
    /// one (Xvfb), GTK's present asks X with the time of the last input
    /// event, which X refuses once a later focus change happened.
    @MainActor
    private static func focus(_ window: UnsafeMutablePointer<GtkWindow>) {
        guard let surface = gtk_native_get_surface(OpaquePointer(window)) else { return }
        gdk_toplevel_focus(surface, UInt32(GDK_CURRENT_TIME))
    }
}
