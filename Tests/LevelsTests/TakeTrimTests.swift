import Levels
import XCTest

final class TakeTrimTests: XCTestCase {
    /// Levels every 50 ms: `(seconds, dB)` pieces one after another.
    private func track(_ pieces: [(Double, Double)]) -> LevelTrack {
        var track = LevelTrack()
        for (seconds, level) in pieces {
            for _ in 0..<Int((seconds * 20).rounded()) { track.append(rms: level, peak: level + 3) }
        }
        return track
    }

    func testTwoSecondsOfSilenceAtEachEndAreCutToAQuarterSecond() {
        let levels = track([(2, -60), (1.5, -20), (0.3, -60), (1, -20), (2, -60)])
        let trim = TakeTrim(levels: levels, duration: levels.coveredSeconds)
        XCTAssertEqual(trim.kept.lowerBound, 1.75, accuracy: 0.001)
        XCTAssertEqual(trim.kept.upperBound, 5.05, accuracy: 0.001)
        XCTAssertEqual(trim.cutAtStart + trim.cutAtEnd, 3.5, accuracy: 0.001)
        XCTAssertTrue(trim.cutsAnything)
    }

    func testSilenceOfHalfASecondOrLessIsKept() {
        let levels = track([(0.5, -60), (2, -20), (0.4, -60)])
        let trim = TakeTrim(levels: levels, duration: levels.coveredSeconds)
        XCTAssertEqual(trim.kept, 0...levels.coveredSeconds)
        XCTAssertFalse(trim.cutsAnything)
    }

    func testSpeechToTheEdgesAndPausesInsideAreNeverCut() {
        let levels = track([(1, -20), (2, -60), (1, -20)])
        let trim = TakeTrim(levels: levels, duration: levels.coveredSeconds)
        XCTAssertFalse(trim.cutsAnything, "a pause between words is not an end")
    }

    func testATakeWithoutContrastIsLeftWhole() {
        let silent = track([(3, -60)])
        XCTAssertFalse(TakeTrim(levels: silent, duration: 3).cutsAnything)
        XCTAssertFalse(TakeTrim(levels: LevelTrack(), duration: 0).cutsAnything)
    }

    func testTheKeptLevelsAreTheOriginalsOverTheKeptPart() {
        let levels = track([(2, -60), (1, -20), (2, -60)])
        let trim = TakeTrim(levels: levels, duration: levels.coveredSeconds)
        let kept = trim.levels(of: levels)
        XCTAssertEqual(kept.count, 30, "0.25 s + 1 s + 0.25 s")
        XCTAssertEqual(Array(kept.rms[5..<25]), Array(levels.rms[40..<60]))
    }
}
