import CAdwaita
import CGtk
import CTestSignals
import GLibSupport
@testable import HarkUI
import Levels
import XCTest

/// While a message plays, the player moves the waveform's playhead 20 times
/// a second. That must redraw the bars without laying the window out at
/// each step (a GtkRange's new value does: on X11 a round trip to the X
/// server each time, most of what playing cost), while a screen reader still
/// hears the second (and, paused, the exact position), and a key still
/// steps from where the playhead is.
final class PlayheadLayoutTests: XCTestCase {
    @MainActor
    private static func shownWaveform(_ body: (WaveformView, UnsafeMutablePointer<GtkWidget>) throws -> Void) throws {
        let waveform = WaveformView()
        waveform.setLevels(LevelTrack(rms: [Double](repeating: -12, count: 280), peak: [Double](repeating: -6, count: 280)))
        waveform.duration = 14
        try withPresentedWindow(showing: waveform.widget, width: 400, height: 60) { window in try body(waveform, window) }
    }

    func testPlayingRedrawsThePlayheadWithoutLayingTheWindowOutAtEachStep() throws {
        try onMainActor {
            try withGtk {
                try Self.shownWaveform { waveform, window in
                    let drawn = DrawCounter(waveform)
                    settle(seconds: 0.1)
                    let counter = LayoutCounter(window)
                    let drawsBefore = drawn.count
                    waveform.isPlaying = true
                    // Three seconds of play, as the player reports it.
                    for step in 1...60 {
                        waveform.position = Double(step) * 0.05
                        settle(seconds: 0.02)
                    }
                    settle(seconds: 0.3)
                    // The second shown changes three times (at 0.5, 1.5 and 2.5 s, as the
                    // clock rounds); each change may lay the window out once or twice.
                    XCTAssertLessThanOrEqual(counter.layouts, 8, "a few layouts, for each second shown, not one for each of the 60 steps")
                    XCTAssertGreaterThan(drawn.count - drawsBefore, 10, "the playhead was drawn as it moved")
                    XCTAssertEqual(waveform.position, 3, accuracy: 1e-9)
                    XCTAssertNil(hark_accessible_check_string(waveform.slider, GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, "0:03 of 0:14"),
                                 "a screen reader hears the second the playhead is in")

                    // A seek back within a second and on: the slider's own
                    // value may lag, the position never does.
                    waveform.position = 3.95
                    XCTAssertEqual(waveform.position, 3.95, accuracy: 1e-9)
                    var seeks: [Double] = []
                    waveform.onSeek = { seeks.append($0) }
                    hark_test_emit_int(UnsafeMutableRawPointer(waveform.slider), "move-slider", Int32(GTK_SCROLL_STEP_FORWARD.rawValue))
                    XCTAssertEqual(seeks.count, 1, "the key seeks")
                    XCTAssertEqual(seeks.first ?? 0, 8.95, accuracy: 1e-6, "five seconds on from where the playhead is")

                    // Paused, the slider says the exact position (a screen
                    // reader reads its value), and follows each step again.
                    waveform.position = 9.2
                    XCTAssertEqual(gtk_range_get_value(hark_range(waveform.slider)), 8.95, accuracy: 1e-6,
                                   "while playing, a step within the second leaves the slider")
                    waveform.isPlaying = false
                    XCTAssertEqual(gtk_range_get_value(hark_range(waveform.slider)), 9.2, accuracy: 1e-6, "paused: exact")
                    waveform.position = 9.3
                    XCTAssertEqual(gtk_range_get_value(hark_range(waveform.slider)), 9.3, accuracy: 1e-6, "a seek while paused: exact")
                }
            }
        }
    }
}
