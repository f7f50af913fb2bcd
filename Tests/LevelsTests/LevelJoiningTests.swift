import Levels
import XCTest

final class LevelJoiningTests: XCTestCase {
    private func track(_ levels: [Double]) -> LevelTrack {
        LevelTrack(rms: levels, peak: levels.map { $0 + 3 })
    }

    func testTheSecondFollowsTheFirstAtTheEndOfItsAudio() {
        let joined = LevelTrack.joined(track([-10, -20, -30]), lasting: 0.15, then: track([-40, -50]))
        XCTAssertEqual(joined.rms, [-10, -20, -30, -40, -50])
        XCTAssertEqual(joined.peak, [-7, -17, -27, -37, -47])
        XCTAssertEqual(joined.intervalMilliseconds, 50)
    }

    func testAFirstTrackLongerThanItsAudioIsCutAndAShorterOneStretched() {
        let cut = LevelTrack.joined(track([-10, -20, -30, -35]), lasting: 0.1, then: track([-40]))
        XCTAssertEqual(cut.rms, [-10, -20, -40])
        let stretched = LevelTrack.joined(track([-10]), lasting: 0.15, then: track([-40]))
        XCTAssertEqual(stretched.rms, [-10, -10, -10, -40])
        let empty = LevelTrack.joined(LevelTrack(), lasting: 0.1, then: track([-40]))
        XCTAssertEqual(empty.rms, [Decibels.floor, Decibels.floor, -40])
    }
}
