import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import HarkModel
import HarkTestSupport
import Levels
@testable import HarkUI
import MessageStore
import XCTest

/// A message played to its end goes back to its start, as in messengers,
/// played through a real sound server (a PulseAudio null sink): the row, the
/// store and the next Play all start again from 0:00.
final class PlaybackEndTests: XCTestCase {
    func testAMessagePlayedToItsEndIsBackAtTheStart() throws {
        let scratch = try ScratchFolder()
        let server = try PulseAudioServer()
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 4)
        let pulse = try XCTUnwrap(server.clientEnvironment["PULSE_SERVER"])
        try onMainActor {
            let saved = PlaybackController.audioSink
            PlaybackController.audioSink = "pulsesink server=\(pulse) device=\(PulseAudioServer.sinkName)"
            defer { PlaybackController.audioSink = saved }
            // Two messages: when the first ends, the next plays (as by default).
            try WindowFixture.withWindow(storeIn: scratch.url.appendingPathComponent("store"), before: { store in
                try ["Parking spot", "Dentist"].enumerated().map { index, title in
                    let message = try store.beginRecording(title: title, at: Date(timeIntervalSinceNow: Double(index - 2) * 60))
                    try FileManager.default.copyItem(atPath: tone, toPath: store.audioPath(of: message))
                    try store.finishRecording(message.id, duration: 4, levels: LevelTrack())
                    return message.id
                }
            }) { store, window, ids in
                let (id, next) = (ids[0], ids[1])
                window.present()
                settle(seconds: 0.3)
                let playback = try XCTUnwrap(window.playback)
                let row = try XCTUnwrap(window.history?.row(showing: id))
                // Seek to 0:03 of 0:04 on the waveform, then play from there.
                row.waveform.onSeek(3)
                XCTAssertEqual(row.shownTime, "0:03 / 0:04")
                var started = false
                // Played from the list, as its row's button plays it: the next one of the list follows.
                window.history?.actions.activate(.play, id)
                XCTAssertTrue(MainLoop.iterate(until: {
                    if playback.isPlaying { started = true }
                    return started && playback.currentID == next
                }, timeout: 15), "it plays, ends, and the next one follows")
                playback.stop()
                settle(seconds: 0.3)
                XCTAssertEqual(row.shownTime, "0:00 / 0:04", "the row is back at the start")
                XCTAssertEqual(row.ring.progress, 0, "the ring is empty")
                XCTAssertEqual(row.waveform.position, 0)
                XCTAssertEqual(try store.message(id).playPosition, 0, "and so is the store")

                // Play starts again from the beginning.
                playback.toggle(try XCTUnwrap(row.message))
                XCTAssertEqual(playback.position, 0, "from the start, not from 0:03")
                XCTAssertTrue(MainLoop.iterate(until: { playback.isPlaying }, timeout: 10))
                playback.stop()
            }
        }
    }
}
