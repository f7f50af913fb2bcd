import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import XCTest

/// While Record is held (pressed with the real pointer), its tooltip
/// ("Stop and save (Ctrl+R)") does not stand beside "Release to save".
final class HoldTooltipTests: XCTestCase {
    private static func xdotool(_ arguments: String...) throws {
        _ = try ChildProcess.run("/usr/bin/xdotool", arguments, seconds: 15)
    }

    /// Whether a tooltip shows over `window` (GTK parents its tooltip
    /// window to the window it belongs to).
    @MainActor
    private static func tooltipShown(_ window: MainWindow) -> Bool {
        Widget.descendants(of: Widget.widget(window.window)).contains {
            Widget.typeName($0) == "GtkTooltipWindow" && gtk_widget_get_mapped($0) != 0
        }
    }

    func testHoldingRecordShowsNoTooltip() throws {
        try onMainActor {
            try WindowFixture.withShownWindow { _, window in
                gtk_window_set_title(window.window, "Hark hold test")
                settle(seconds: 0.5)
                let composer = try XCTUnwrap(window.composer)
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                // The button's centre, in the window's surface (which holds its shadow).
                let native = try XCTUnwrap(gtk_widget_get_native(composer.recordButton))
                var surfaceX = 0.0, surfaceY = 0.0
                gtk_native_get_surface_transform(native, &surfaceX, &surfaceY)
                var centre = graphene_point_t(x: Float(gtk_widget_get_width(composer.recordButton)) / 2,
                                              y: Float(gtk_widget_get_height(composer.recordButton)) / 2)
                var inWindow = graphene_point_t()
                XCTAssertEqual(gtk_widget_compute_point(composer.recordButton, Widget.widget(window.window), &centre, &inWindow), 1)
                let xid = try ChildProcess.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "Hark hold test"], seconds: 15)
                    .output.split(separator: "\n").first.map(String.init)
                let x = try XCTUnwrap(xid)
                try Self.xdotool("windowfocus", "--sync", x)
                try Self.xdotool("mousemove", "--window", x, String(Int(Double(inWindow.x) + surfaceX)),
                                 String(Int(Double(inWindow.y) + surfaceY)))
                XCTAssertTrue(MainLoop.iterate(until: { Self.tooltipShown(window) }, timeout: 5), "hovering shows Record's tooltip")
                try Self.xdotool("mousedown", "1")
                defer { try? Self.xdotool("mouseup", "1") }
                XCTAssertTrue(MainLoop.iterate(until: { composer.hold.isHolding }, timeout: 5), "held")
                // GTK hides a tooltip at a press and shows it again after its hover delay.
                XCTAssertFalse(MainLoop.iterate(until: { Self.tooltipShown(window) }, timeout: 2),
                               "no tooltip beside “Release to save”")
                XCTAssertEqual(gtk_widget_get_has_tooltip(composer.recordButton), 0)
                // "Release to save" stands apart from the clock ("Starting…" at first).
                @MainActor func bounds(_ widget: UnsafeMutablePointer<GtkWidget>) -> graphene_rect_t {
                    var rect = graphene_rect_t()
                    _ = gtk_widget_compute_bounds(widget, composer.widget, &rect)
                    return rect
                }
                let hint = bounds(composer.holdHint), clock = bounds(composer.clock.widget)
                XCTAssertEqual(gtk_widget_get_visible(composer.holdHint), 1)
                XCTAssertLessThan(hint.origin.x + hint.size.width + 24, clock.origin.x,
                                  "the hint and the clock do not read as one: \(hint) \(clock)")
                try Self.xdotool("mouseup", "1")
                XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording }, timeout: 10), "released: saved")
                XCTAssertEqual(gtk_widget_get_has_tooltip(composer.recordButton), 1, "the tooltip is back")
            }
        }
    }
}
