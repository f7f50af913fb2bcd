import AudioEngine
import Foundation
import GLibSupport
import HarkTestSupport
import Levels
import XCTest

/// Skip Silence on a real clock, heard as a listener would (HeardAudio).
final class SkipSilenceTests: XCTestCase {
    private static let pauses = [0.2, 1, 3]

    /// Plays `path` whole with Skip Silence at `speed`, into `heard`.
    @MainActor
    private static func play(_ path: String, skipping: SilenceSkipping, speed: Double, into heard: HeardAudio) throws {
        var ended = false, duration: Double?
        let player = Player(audioSink: heard.sink) { event in
            if case .duration(let seconds) = event { duration = seconds }
            if event == .ended { ended = true }
        }
        try player.load(path)
        XCTAssertTrue(MainLoop.iterate(until: { duration != nil }, timeout: 10))
        player.setRate(speed)
        player.skipping = skipping
        player.play()
        XCTAssertTrue(MainLoop.iterate(until: { ended }, timeout: 60), "played to the end")
        player.stop()
    }

    private func checkPlayed(at speed: Double) throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let path = scratch.path("bursts.wav")
            try HeardAudio.writeBursts(pauses: Self.pauses, to: path)
            let analysis = try Analyzer.analyze(path: path)
            let skipping = SilenceSkipping(levels: analysis.levels, duration: analysis.duration)
            XCTAssertEqual(skipping.skipped.count, 2, "the 1 s and 3 s pauses, not the 0.2 s one: \(skipping.skipped)")
            XCTAssertEqual(skipping.savedSeconds, (1 - 0.3) + (3 - 0.3), accuracy: 0.15)

            let heard = try HeardAudio(in: scratch)
            try Self.play(path, skipping: skipping, speed: speed, into: heard)
            let stretches = try heard.stretches()
            let bursts = stretches.filter(\.loud).map(\.seconds)
            let gaps = stretches.dropFirst().dropLast().filter { !$0.loud }.map(\.seconds)
            XCTAssertEqual(bursts.count, 4, "\(stretches)")
            XCTAssertEqual(gaps.count, 3, "\(stretches)")
            guard bursts.count == 4, gaps.count == 3 else { return }
            for burst in bursts {
                XCTAssertEqual(burst, 1 / speed, accuracy: 0.05, "every burst heard whole: \(stretches)")
            }
            XCTAssertEqual(gaps[0], 0.2 / speed, accuracy: 0.05, "the short pause kept: \(stretches)")
            for gap in gaps.dropFirst() {
                XCTAssertLessThan(gap, SilenceSkipping.longestKeptPause, "a long pause shortened: \(stretches)")
                XCTAssertGreaterThan(gap, 0.1 / speed, "a pause remains: \(stretches)")
            }
        }
    }

    func testTheLongPausesAreShortenedAndEveryBurstIsHeardWhole() throws {
        try checkPlayed(at: 1)
    }

    func testItWorksAtOtherSpeeds() throws {
        try checkPlayed(at: 1.5)
    }
}
