import CAdwaita
import CGtk
import Foundation
import GLibSupport
@testable import HarkUI
import Levels
import XCTest

/// In a right-to-left language (Persian) the waveform starts at the right,
/// as the slider over it then runs: what is drawn as played, where the
/// slider's knob sits, and where the live recording grows agree. Real
/// widgets in a real window, read back as pixels.
final class RightToLeftDrawingTests: XCTestCase {
    override func tearDown() {
        onMainActor { gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR) }
        super.tearDown()
    }

    /// Accent pixels (Adwaita's blue: blue well above red) in COLUMNS.
    private static func accent(_ pixels: WidgetPixels, _ columns: Range<Int>) -> Int {
        pixels.count(columns: columns) { red, _, blue, alpha in alpha > 128 && blue > red + 60 }
    }

    /// Inked pixels (anything drawn) in COLUMNS.
    private static func ink(_ pixels: WidgetPixels, _ columns: Range<Int>) -> Int {
        pixels.count(columns: columns) { _, _, _, alpha in alpha > 64 }
    }

    @MainActor
    private static func playedWaveform(direction: GtkTextDirection) -> (pixels: WidgetPixels, sliderStart: Int32) {
        gtk_widget_set_default_direction(direction)
        let waveform = WaveformView()
        waveform.setLevels(LevelTrack(rms: [Double](repeating: -6, count: 200), peak: [Double](repeating: -3, count: 200)))
        waveform.duration = 10
        waveform.position = 2.5
        return withPresentedWindow(showing: waveform.widget, width: 400, height: 60) { _ in
            (WidgetPixels(waveform.widget), Self.knobX(in: waveform.slider))
        }
    }

    /// Where the slider's knob (its "slider" node) is, from the scale's left.
    @MainActor
    private static func knobX(in scale: UnsafeMutablePointer<GtkWidget>) -> Int32 {
        var pending = [scale]
        while let widget = pending.popLast() {
            if String(cString: gtk_widget_get_css_name(widget)) == "slider" {
                var bounds = graphene_rect_t()
                guard gtk_widget_compute_bounds(widget, scale, &bounds) != 0 else { return -1 }
                return Int32(bounds.origin.x)
            }
            var child = gtk_widget_get_first_child(widget)
            while let found = child {
                pending.append(found)
                child = gtk_widget_get_next_sibling(found)
            }
        }
        return -1
    }

    func testThePlayedPartAndTheKnobAreAtTheStartingSideInEitherDirection() throws {
        try onMainActor {
            try withGtk {
                let leftToRight = Self.playedWaveform(direction: GTK_TEXT_DIR_LTR)
                let width = leftToRight.pixels.width
                XCTAssertGreaterThan(width, 200)
                let firstQuarter = 2..<(width / 4 - 4), lastQuarter = (width * 3 / 4 + 4)..<(width - 2)
                XCTAssertGreaterThan(Self.accent(leftToRight.pixels, firstQuarter), 50, "left to right, the played quarter is at the left")
                XCTAssertEqual(Self.accent(leftToRight.pixels, lastQuarter), 0)
                XCTAssertLessThan(leftToRight.sliderStart, Int32(width / 2), "and the slider's knob with it")

                let rightToLeft = Self.playedWaveform(direction: GTK_TEXT_DIR_RTL)
                XCTAssertEqual(rightToLeft.pixels.width, width)
                XCTAssertGreaterThan(Self.accent(rightToLeft.pixels, lastQuarter), 50, "right to left, the played quarter is at the right")
                XCTAssertEqual(Self.accent(rightToLeft.pixels, firstQuarter), 0)
                XCTAssertGreaterThan(rightToLeft.sliderStart, Int32(width / 2),
                                     "and the slider's knob is there too: a click on a drawn part seeks to it")
            }
        }
    }

    @MainActor
    private static func liveWaveform(direction: GtkTextDirection) -> WidgetPixels {
        gtk_widget_set_default_direction(direction)
        let window = gtk_window_new()!
        defer { gtk_window_destroy(hark_window(window)) }
        gtk_window_set_default_size(hark_window(window), 400, 60)
        let live = LiveWaveformView()
        for _ in 0..<6 { live.append(decibels: -3) }
        gtk_window_set_child(hark_window(window), live.widget)
        gtk_window_present(hark_window(window))
        settle(seconds: 0.5)
        return WidgetPixels(live.widget)
    }

    func testTheLiveRecordingGrowsFromTheSameSide() throws {
        try onMainActor {
            try withGtk {
                let leftToRight = Self.liveWaveform(direction: GTK_TEXT_DIR_LTR)
                let width = leftToRight.width
                let leftHalf = 0..<(width / 2), rightHalf = (width / 2)..<width
                XCTAssertGreaterThan(Self.ink(leftToRight, leftHalf), 0, "six bars, from the left")
                XCTAssertEqual(Self.ink(leftToRight, rightHalf), 0)
                let rightToLeft = Self.liveWaveform(direction: GTK_TEXT_DIR_RTL)
                XCTAssertGreaterThan(Self.ink(rightToLeft, rightHalf), 0, "six bars, from the right")
                XCTAssertEqual(Self.ink(rightToLeft, leftHalf), 0)
            }
        }
    }
}
