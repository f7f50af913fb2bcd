import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import MessageStore
import StoreAudio
import XCTest

/// One playback speed for every message, as in messengers: changed from any
/// row, shown on every row, kept across restarts, and never shifting a row.
final class PlaybackSpeedTests: XCTestCase {
    @MainActor
    private static func speedButtons(_ window: MainWindow) -> [UnsafeMutablePointer<GtkWidget>] {
        Widget.descendants(of: Widget.widget(window.window))
            .filter { Widget.typeName($0) == "GtkButton" && gtk_widget_is_visible($0) != 0 }
            .filter { gtk_button_get_label(hark_button($0)).map { String(cString: $0).hasSuffix("×") } ?? false }
    }

    @MainActor
    private static func label(_ button: UnsafeMutablePointer<GtkWidget>) -> String {
        gtk_button_get_label(hark_button(button)).map { String(cString: $0) } ?? ""
    }

    func testOneSpeedForEveryMessageKeptAcrossARestart() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 2)
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder, before: { store in
                for _ in 0..<3 { _ = try store.importFile(tone) }
            }) { store, window, _ in
                window.present()
                settle(seconds: 0.5)
                let buttons = Self.speedButtons(window)
                XCTAssertEqual(buttons.count, 3, "one per row")
                XCTAssertEqual(buttons.map(Self.label), ["1×", "1×", "1×"])
                let widths = buttons.map { gtk_widget_get_width($0) }
                let waveforms = window.history?.liveRows.map { gtk_widget_get_width($0.waveform.widget) } ?? []

                gtk_widget_activate(buttons[1])  // a click on the second row's speed
                XCTAssertTrue(MainLoop.iterate(until: { window.playback?.rate == 1.5 }, timeout: 5), "1× → 1.5×")
                settle()
                XCTAssertEqual(Self.speedButtons(window).map(Self.label), ["1.5×", "1.5×", "1.5×"], "every row shows it")
                XCTAssertEqual(Self.speedButtons(window).map { gtk_widget_get_width($0) }, widths, "no row shifts")
                XCTAssertEqual(window.history?.liveRows.map { gtk_widget_get_width($0.waveform.widget) } ?? [], waveforms)
                XCTAssertEqual(store.setting(PlaybackController.rateSetting), "1.5")

                window.playback?.cycleRate()
                window.playback?.cycleRate()
                XCTAssertEqual(window.playback?.rate, 1, "2× → back to 1×")
                window.playback?.cycleRate()
            }
            try WindowFixture.withWindow(storeIn: folder) { _, window in
                window.present()
                settle(seconds: 0.5)
                XCTAssertEqual(window.playback?.rate, 1.5, "remembered")
                XCTAssertEqual(Set(Self.speedButtons(window).map(Self.label)), ["1.5×"])
            }
        }
    }
}
