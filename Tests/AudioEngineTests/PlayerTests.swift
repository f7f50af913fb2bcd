import AudioEngine
import Foundation
import GLibSupport
import HarkTestSupport
import XCTest

private let testSink = "fakesink sync=true"

/// A 4 s Opus file made by the reference tool.
private func makeFile(in scratch: ScratchFolder) throws -> String {
    let path = scratch.path("four-seconds.ogg")
    try gstLaunch("audiotestsrc num-buffers=200 samplesperbuffer=960 wave=sine volume=0.3 "
                  + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
    return path
}

@MainActor
private func loaded(_ path: String, events: @escaping @MainActor (PlayerEvent) -> Void) throws -> Player {
    var duration: Double?
    let player = Player(audioSink: testSink) { event in
        if case .duration(let seconds) = event { duration = seconds }
        events(event)
    }
    try player.load(path)
    XCTAssertTrue(MainLoop.iterate(until: { duration != nil }, timeout: 10), "no duration")
    return player
}

/// The player on a real clock: `fakesink sync=true` consumes audio in real
/// time as a sound card would, with no sound card.
final class PlayerTests: XCTestCase {
    func testSeekLandsWithinFiftyMilliseconds() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let player = try loaded(try makeFile(in: scratch)) { _ in }
            XCTAssertEqual(player.duration ?? 0, 4, accuracy: 0.05)
            for target in [1.0, 2.37, 0.5, 3.9] {
                player.seek(to: target, mode: .exact)
                MainLoop.iterate(until: { false }, timeout: 0.2)
                XCTAssertEqual(player.position ?? -1, target, accuracy: 0.05, "seek to \(target)")
            }
        }
    }

    func testDoubleSpeedAdvancesTwiceAsFastAsTheClock() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let player = try loaded(try makeFile(in: scratch)) { _ in }
            player.setRate(2)
            player.play()
            MainLoop.iterate(until: { false }, timeout: 0.3)  // settle into playing
            let startPosition = try XCTUnwrap(player.position)
            let startClock = Date()
            MainLoop.iterate(until: { false }, timeout: 1.0)
            let advanced = try XCTUnwrap(player.position) - startPosition
            let elapsed = Date().timeIntervalSince(startClock)
            XCTAssertEqual(advanced / elapsed, 2, accuracy: 0.2)
        }
    }

    func testPlaysToTheEndWithPositionUpdates() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            var positions: [Double] = []
            var ended = false
            var afterEnd: [Double] = []
            let player = try loaded(try makeFile(in: scratch)) { event in
                if case .position(let seconds) = event { ended ? afterEnd.append(seconds) : positions.append(seconds) }
                if event == .ended { ended = true }
            }
            player.seek(to: 3.2)
            player.play()
            XCTAssertTrue(MainLoop.iterate(until: { ended }, timeout: 5))
            XCTAssertGreaterThan(positions.count, 10, "about 30 updates a second")
            XCTAssertEqual(positions.last ?? 0, 4, accuracy: 0.05, "the end is reached")
            XCTAssertEqual(afterEnd, [0], "then back to the start, ready to play again")
            XCTAssertFalse(player.isPlaying)
        }
    }

    func testTheNextFileLoadedWhenOneEndsPlaysFromItsStart() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let first = try makeFile(in: scratch)
            let second = scratch.path("second.ogg")
            try FileManager.default.copyItem(atPath: first, toPath: second)
            var player: Player!
            var ends = 0
            var playingAgain = false
            player = try loaded(first) { event in
                switch event {
                case .ended:
                    ends += 1
                    if ends == 1 {  // what auto-play does: the next one, from its own handler
                        try? player.load(second)
                        player.play()
                    }
                case .playing where ends == 1: playingAgain = true
                default: break
                }
            }
            player.seek(to: 3.5)
            player.play()
            XCTAssertTrue(MainLoop.iterate(until: { ends == 1 }, timeout: 5))
            XCTAssertTrue(MainLoop.iterate(until: { playingAgain && (player.position ?? 0) > 0.3 }, timeout: 5),
                          "the second file plays, not paused by the first one's end")
            XCTAssertTrue(player.isPlaying)
            XCTAssertLessThan(player.position ?? 99, 2, "from its start")
        }
    }

    func testSeekBeforeTheFileIsReadyIsKept() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let path = try makeFile(in: scratch)
            var duration: Double?
            let player = Player(audioSink: testSink) { event in
                if case .duration(let seconds) = event { duration = seconds }
            }
            try player.load(path)
            player.seek(to: 2.5)
            XCTAssertTrue(MainLoop.iterate(until: { duration != nil }, timeout: 10))
            MainLoop.iterate(until: { false }, timeout: 0.2)
            XCTAssertEqual(player.position ?? -1, 2.5, accuracy: 0.05)
        }
    }

    func testMissingAndCorruptFilesGiveClearErrors() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let player = Player(audioSink: testSink) { _ in }
            XCTAssertThrowsError(try player.load(scratch.path("gone.ogg"))) { error in
                XCTAssertEqual(error as? AudioError, .fileMissing(path: scratch.path("gone.ogg")))
            }
            let junk = scratch.path("junk.ogg")
            try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: junk))
            var failure: AudioError?
            let second = Player(audioSink: testSink) { event in
                if case .failed(let error) = event { failure = error }
            }
            do {
                try second.load(junk)
                MainLoop.iterate(until: { failure != nil }, timeout: 10)
            } catch {
                failure = error as? AudioError
            }
            guard case .notAudio(let path, _) = failure else { return XCTFail("got \(String(describing: failure))") }
            XCTAssertEqual(path, junk)
        }
    }
}
