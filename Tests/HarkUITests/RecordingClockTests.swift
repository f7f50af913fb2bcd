import CGtk
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import XCTest

/// The recording clock beside the live waveform: whole seconds as the saved
/// message's duration will say them (rounded), remade only when the second
/// changes, and never back (a reading shown late is older than the last).
final class RecordingClockTests: XCTestCase {
    func testTheClockRoundsAsTheSavedDurationAndNeverGoesBack() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url.appendingPathComponent("hark")
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { _, window in
                let composer = try XCTUnwrap(window.composer)
                @MainActor func shown() -> String { composer.clock.text }
                composer.showClock(elapsed: 0.6)
                XCTAssertEqual(shown(), DurationText.clock(1), "0.6 s reads as the saved message will: 0:01")
                composer.showClock(elapsed: 0.4)
                XCTAssertEqual(shown(), DurationText.clock(1), "an older reading does not take the clock back")
                composer.showClock(elapsed: 1.4)
                XCTAssertEqual(shown(), DurationText.clock(1))
                composer.showClock(elapsed: 1.6)
                XCTAssertEqual(shown(), DurationText.clock(2), "1.6 s is 0:02, as the saved message will say")
            }
        }
    }
}
