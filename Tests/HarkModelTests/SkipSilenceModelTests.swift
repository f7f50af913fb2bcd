import AudioEngine
import Foundation
import GLibSupport
import HarkModel
import HarkTestSupport
import Levels
import MessageStore
import XCTest

/// Skip Silence as the app's one player does it: remembered for every
/// message, judged from each message's stored levels, heard as a listener would.
final class SkipSilenceModelTests: XCTestCase {
    func testTheSettingIsRememberedAndAStoredMessagePlaysWithItsLongPausesShortened() throws {
        let scratch = try ScratchFolder()
        let wav = scratch.path("bursts.wav")
        try HeardAudio.writeBursts(pauses: [0.2, 1, 3], to: wav)
        let analysis = try Analyzer.analyze(path: wav)
        try MainActor.assumeIsolated {
            let heard = try HeardAudio(in: scratch)
            let sink = PlaybackController.audioSink
            PlaybackController.audioSink = heard.sink
            defer { PlaybackController.audioSink = sink }
            let store = try MessageStore(folder: scratch.url.appendingPathComponent("store"))
            let message = try store.beginRecording(title: "Pauses to think", at: Date())
            try FileManager.default.copyItem(atPath: wav, toPath: store.audioPath(of: message))
            try store.finishRecording(message.id, duration: analysis.duration, levels: analysis.levels)
            let stored = try store.message(message.id)

            let first = PlaybackController(store: store)
            XCTAssertFalse(first.skipsSilence, "off by default")
            var heardChanges: [Bool] = []
            let observation = first.skipSilenceChanges.subscribe { heardChanges.append($0) }
            first.setSkipsSilence(true)
            XCTAssertEqual(heardChanges, [true])
            _ = observation

            let playback = PlaybackController(store: store)
            XCTAssertTrue(playback.skipsSilence, "remembered")
            XCTAssertEqual(playback.skipping(of: stored).savedSeconds, 0.7 + 2.7, accuracy: 0.15)
            var ended = false
            let ends = playback.ends.subscribe { _ in ended = true }
            playback.play(stored)
            XCTAssertTrue(MainLoop.iterate(until: { ended }, timeout: 30), "it plays to its end")
            _ = ends

            let stretches = try heard.stretches()
            let bursts = stretches.filter(\.loud).map(\.seconds)
            let gaps = stretches.dropFirst().dropLast().filter { !$0.loud }.map(\.seconds)
            XCTAssertEqual(bursts.count, 4, "\(stretches)")
            XCTAssertEqual(gaps.count, 3, "\(stretches)")
            guard gaps.count == 3 else { return }
            XCTAssertEqual(gaps[0], 0.2, accuracy: 0.05, "the short pause kept: \(stretches)")
            XCTAssertLessThan(gaps[1], SilenceSkipping.longestKeptPause, "\(stretches)")
            XCTAssertLessThan(gaps[2], SilenceSkipping.longestKeptPause, "\(stretches)")
            XCTAssertEqual(playback.position(of: stored), 0, "played to its end, in the message's own time")
        }
    }
}
