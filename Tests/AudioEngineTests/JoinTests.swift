@testable import AudioEngine
import Foundation
import HarkTestSupport
import Levels
import XCTest

/// A take that goes on: two Ogg Opus takes joined into one stream, as long
/// as both, each level where it was.
final class JoinTests: XCTestCase {
    private var scratch: ScratchFolder!

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    /// `tenths` tenths of a second of a tone at `volume`, as the recorder writes it (48 kHz mono Opus).
    private func take(_ name: String, tenths: Int, volume: Double) throws -> String {
        let path = scratch.path(name)
        try gstLaunch("audiotestsrc num-buffers=\(tenths) samplesperbuffer=4800 volume=\(volume) "
                      + "! audio/x-raw,rate=48000,channels=1 ! audioconvert ! opusenc ! oggmux ! filesink location=\(path)")
        return path
    }

    func testTwoTakesJoinedLastAsLongAsBothWithTheirLevelsInOrder() throws {
        let loud = try take("loud.ogg", tenths: 13, volume: 0.8)
        let quiet = try take("quiet.ogg", tenths: 21, volume: 0.01)
        let joined = scratch.path("joined.ogg")
        try Transcoder.join([loud, quiet], to: joined)
        let first = try Analyzer.analyze(path: loud), second = try Analyzer.analyze(path: quiet)
        let whole = try Analyzer.analyze(path: joined)
        XCTAssertEqual(AudioContent(path: joined).format, .opus)
        XCTAssertFalse(AudioContent(path: joined).isChained, "one stream")
        XCTAssertEqual(whole.duration, first.duration + second.duration, accuracy: 0.02, "within a frame")
        XCTAssertEqual(whole.duration, 3.4, accuracy: 0.03)
        // The levels the store joins are the levels of the joined audio, interval by interval
        // (but the one at the seam, which the encoder smooths).
        let expected = LevelTrack.joined(first.levels, lasting: first.duration, then: second.levels)
        XCTAssertEqual(whole.levels.count, expected.count, accuracy: 1)
        let seam = Int((first.duration / 0.05).rounded())
        for index in 0..<min(whole.levels.count, expected.count) where abs(index - seam) > 1 {
            XCTAssertEqual(whole.levels.rms[index], expected.rms[index], accuracy: 3, "interval \(index)")
        }
        XCTAssertGreaterThan(whole.levels.rms[seam - 3], whole.levels.rms[seam + 3] + 20, "loud, then quiet")
    }

    func testAMissingTakeLeavesNoFile() throws {
        let loud = try take("loud.ogg", tenths: 5, volume: 0.8)
        let joined = scratch.path("joined.ogg")
        XCTAssertThrowsError(try Transcoder.join([loud, scratch.path("gone.ogg")], to: joined))
        XCTAssertFalse(FileManager.default.fileExists(atPath: joined))
    }
}
