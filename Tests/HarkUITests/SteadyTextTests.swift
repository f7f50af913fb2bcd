import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
@testable import HarkUI
import XCTest

/// The clocks' text (recording, and each row's "0:03 / 0:14") changes every
/// second: it must redraw without laying the whole window out again (on X11
/// each layout of a window asks the X server for the monitor's work area,
/// and in the history restyles the list), yet take the room a wider text
/// needs, and read to a screen reader as what it shows (layouts counted by
/// `LayoutCounter`).
final class SteadyTextTests: XCTestCase {
    /// The width GTK's own label asks for `text` in the same style.
    @MainActor
    private static func labelWidth(_ text: String, styles: [String]) -> Int32 {
        let label = gtk_label_new(text)!
        g_object_ref_sink(UnsafeMutableRawPointer(label))
        defer { g_object_unref(UnsafeMutableRawPointer(label)) }
        for style in styles { gtk_widget_add_css_class(label, style) }
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(label, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        return natural
    }

    func testANewTextOfTheSameWidthRedrawsWithoutLayingTheWindowOut() throws {
        try onMainActor {
            try withGtk {
                let window = gtk_window_new()!
                defer { gtk_window_destroy(hark_window(window)) }
                let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
                let clock = SteadyText("0:01", styles: ["numeric"])
                let label = gtk_label_new("0:01")!
                gtk_widget_add_css_class(label, "numeric")
                gtk_box_append(hark_box(box), clock.widget)
                gtk_box_append(hark_box(box), label)
                gtk_window_set_child(hark_window(window), box)
                gtk_window_present(hark_window(window))
                settle(seconds: 0.5)
                let counter = LayoutCounter(window)

                // What the clocks were: a label's new text lays the window out.
                gtk_label_set_text(hark_label(label), "0:02")
                settle(seconds: 0.3)
                XCTAssertGreaterThan(counter.layouts, 0, "the count sees a layout (a GtkLabel's new text)")

                let before = counter.layouts
                for second in 2...9 {
                    clock.set("0:0\(second)")
                    settle(seconds: 0.05)
                }
                settle(seconds: 0.3)
                XCTAssertEqual(counter.layouts, before, "the clock's new seconds did not lay the window out")
                XCTAssertEqual(clock.text, "0:09")
                XCTAssertNil(hark_accessible_check_string(clock.inscription, GTK_ACCESSIBLE_PROPERTY_LABEL, "0:09"),
                             "a screen reader reads what the clock shows")

                clock.set("Paused · 10:09")
                settle(seconds: 0.3)
                XCTAssertGreaterThan(counter.layouts, before, "a wider text asks for its room")
                let pausedWidth = Self.labelWidth("Paused · 10:09", styles: ["numeric"])
                XCTAssertGreaterThanOrEqual(gtk_widget_get_width(clock.widget), pausedWidth,
                                            "the wider text has the width a label would take: nothing cut")
                clock.set("0:10")
                settle(seconds: 0.3)
                let shortWidth = Self.labelWidth("0:10", styles: ["numeric"])
                XCTAssertEqual(gtk_widget_get_width(clock.widget), shortWidth,
                               "back to a short text, the clock gives the room back")
            }
        }
    }
}
