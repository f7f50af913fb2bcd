import CAdwaita
import CGLib
import CGtk
import Drawing
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import XCTest

/// The history is a readable column however wide the window, and each
/// message's waveform is as long as the message, as in messengers.
final class HistoryWidthTests: XCTestCase {
    /// How wide the waveform is drawn and takes clicks: the area, less the
    /// slider's margin.
    @MainActor
    private static func drawn(_ waveform: WaveformView) -> Int32 {
        gtk_widget_get_width(waveform.widget) - gtk_widget_get_margin_end(waveform.slider)
    }

    func testTheHistoryIsClampedAndWaveformsFollowTheirDuration() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        let (short, long) = (scratch.path("short.ogg"), scratch.path("long.ogg"))
        try WindowFixture.tone(short, seconds: 2)
        try WindowFixture.tone(long, seconds: 20)
        try onMainActor {
            var ids: (String, String)?
            for windowWidth: Int32 in [1200, 480, 360] {
                try WindowFixture.withWindow(storeIn: folder, before: { store in
                    if ids == nil { ids = (try store.importFile(short).id, try store.importFile(long).id) }
                    return try XCTUnwrap(ids)
                }) { _, window, ids in
                    gtk_window_set_default_size(window.window, windowWidth, 700)
                    window.present()
                    settle(seconds: 0.5)
                    let history = try XCTUnwrap(window.history)
                    let shortRow = try XCTUnwrap(history.row(showing: ids.0))
                    let longRow = try XCTUnwrap(history.row(showing: ids.1))
                    let rowWidth = gtk_widget_get_width(longRow.widget)
                    XCTAssertLessThanOrEqual(rowWidth, HistoryView.maximumWidth, "clamped at \(windowWidth) px")
                    XCTAssertLessThanOrEqual(rowWidth, windowWidth)
                    // The widths settle once the window has its size (a moment longer for a big one).
                    _ = MainLoop.iterate(until: {
                        windowWidth <= 400
                            || Self.drawn(shortRow.waveform) < Self.drawn(longRow.waveform)
                    }, timeout: 5)
                    let shortWave = Self.drawn(shortRow.waveform)
                    let longWave = Self.drawn(longRow.waveform)
                    XCTAssertGreaterThanOrEqual(Double(shortWave), WaveformWidth.minimum, "at \(windowWidth) px")
                    if windowWidth > 400 {
                        XCTAssertLessThan(shortWave, longWave, "2 s is shorter than 20 s at \(windowWidth) px")
                    } else {
                        XCTAssertLessThanOrEqual(shortWave, longWave, "at \(windowWidth) px")
                    }
                    // Every part of the row fits: nothing pushed out of the window.
                    XCTAssertLessThanOrEqual(longWave, rowWidth)
                    var natural: Int32 = 0, minimum: Int32 = 0
                    gtk_widget_measure(longRow.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
                    XCTAssertLessThanOrEqual(minimum, windowWidth - 24, "the row can shrink to the window at \(windowWidth) px")
                    XCTAssertGreaterThan(gtk_widget_get_width(longRow.waveform.widget), 0)
                }
            }
        }
    }
}
