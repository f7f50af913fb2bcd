import Foundation
import GLibSupport
import HarkModel
import HarkTestSupport
import Levels
import MessageStore
import Subscriptions
import XCTest

/// The one player without a window: each of its observers (the window, a
/// media-player service) hears its changes on its own, until its token goes.
final class PlaybackObserversTests: XCTestCase {
    func testTheWindowAndAMediaPlayerServiceEachHearThePlayerOnTheirOwn() throws {
        let scratch = try ScratchFolder()
        let tone = scratch.path("tone.ogg")
        try gstLaunch("audiotestsrc num-buffers=50 samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(tone)")
        try MainActor.assumeIsolated {
            let sink = PlaybackController.audioSink
            PlaybackController.audioSink = "fakesink sync=true"
            defer { PlaybackController.audioSink = sink }
            let store = try MessageStore(folder: scratch.url.appendingPathComponent("store"))
            let message = try store.beginRecording(title: "Parking spot", at: Date())
            try FileManager.default.copyItem(atPath: tone, toPath: store.audioPath(of: message))
            try store.finishRecording(message.id, duration: 1, levels: LevelTrack())
            let playback = PlaybackController(store: store)

            var window: [String] = [], mediaPlayer: [String] = []
            let windowObservations = [
                playback.rateChanges.subscribe { window.append("speed \($0)") },
                playback.ends.subscribe { window.append("ended \($0)") },
            ]
            var mediaPlayerObservations = [
                playback.rateChanges.subscribe { mediaPlayer.append("speed \($0)") },
                playback.ends.subscribe { mediaPlayer.append("ended \($0)") },
            ]
            var positions = 0
            let counting = playback.positions.subscribe { _ in positions += 1 }

            playback.setRate(1.5)
            playback.play(message)
            XCTAssertTrue(MainLoop.iterate(until: { window.contains("ended \(message.id)") }, timeout: 20), "it plays to its end")
            XCTAssertGreaterThan(positions, 0, "positions arrived while it played")
            XCTAssertEqual(window, ["speed 1.5", "ended \(message.id)"])
            XCTAssertEqual(mediaPlayer, window, "both heard the same")

            // The media-player service goes: the window still hears everything.
            mediaPlayerObservations.removeAll()
            playback.setRate(2)
            XCTAssertEqual(window.last, "speed 2.0")
            XCTAssertEqual(mediaPlayer.last, "ended \(message.id)", "a released token hears no more")
            XCTAssertEqual(store.setting(PlaybackController.rateSetting), "2.0", "the speed is kept")
            _ = (windowObservations, counting)
        }
    }
}
