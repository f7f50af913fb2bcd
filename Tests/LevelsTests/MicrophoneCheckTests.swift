import Levels
import XCTest

final class MicrophoneCheckTests: XCTestCase {
    /// Feeds `seconds` of 50 ms reports at `peak` and returns the changes.
    private func feed(_ check: inout MicrophoneCheck, peak: Double, seconds: Double) -> [InputCondition] {
        var changes: [InputCondition] = []
        for _ in 0..<Int((seconds / 0.05).rounded()) {
            if let change = check.add(peak: peak, seconds: 0.05) { changes.append(change) }
        }
        return changes
    }

    func testQuietIsSaidAfterTwoSecondsAndNotBefore() {
        var check = MicrophoneCheck()
        XCTAssertEqual(feed(&check, peak: -60, seconds: 1.95), [])
        XCTAssertEqual(check.condition, .fine)
        XCTAssertEqual(feed(&check, peak: -60, seconds: 0.05), [.quiet])
        XCTAssertEqual(feed(&check, peak: -60, seconds: 5), [], "said once")
        XCTAssertEqual(feed(&check, peak: -20, seconds: 0.05), [.fine], "clears with the first loud report")
    }

    func testDigitalSilenceAndNaNCountAsQuiet() {
        var check = MicrophoneCheck()
        XCTAssertEqual(feed(&check, peak: -700, seconds: 1), [])
        XCTAssertEqual(feed(&check, peak: .nan, seconds: 1), [.quiet])
    }

    func testAVoiceWithShortPausesIsNeverQuiet() {
        var check = MicrophoneCheck()
        for _ in 0..<20 {
            XCTAssertEqual(feed(&check, peak: -18, seconds: 1), [])
            XCTAssertEqual(feed(&check, peak: -55, seconds: 1.5), [])
        }
    }

    func testClippingIsSaidAtOnceAndClearsTwoSecondsAfterTheLastClip() {
        var check = MicrophoneCheck()
        XCTAssertEqual(feed(&check, peak: -10, seconds: 1), [])
        XCTAssertEqual(feed(&check, peak: 0, seconds: 0.05), [.clipping])
        XCTAssertEqual(feed(&check, peak: -10, seconds: 1), [])
        XCTAssertEqual(feed(&check, peak: -0.0003, seconds: 0.05), [], "16-bit full scale clips again: still clipping")
        XCTAssertEqual(feed(&check, peak: -10, seconds: 1.9), [])
        XCTAssertEqual(feed(&check, peak: -10, seconds: 0.1), [.fine])
    }

    func testClippingOutranksQuietAndQuietFollowsWhenItStays() {
        var check = MicrophoneCheck()
        XCTAssertEqual(feed(&check, peak: 1, seconds: 0.05), [.clipping])
        XCTAssertEqual(feed(&check, peak: -80, seconds: 3), [.fine], "the clip is 2 s old; a pause is no quiet microphone yet")
        XCTAssertEqual(feed(&check, peak: -80, seconds: MicrophoneCheck.pauseWindow - 3), [.quiet], "a long silence is")
        XCTAssertEqual(check.condition, .quiet)
    }

    func testPausesBetweenSentencesNeverSayQuietButALongSilenceDoes() {
        var check = MicrophoneCheck()
        XCTAssertEqual(feed(&check, peak: -60, seconds: 0.5), [], "a quiet start, under 2 s")
        for pause in [3.0, 5.0, 8.0, 9.9] {
            XCTAssertEqual(feed(&check, peak: -20, seconds: 2), [], "speech")
            XCTAssertEqual(feed(&check, peak: -60, seconds: pause), [], "a pause of \(pause) s between sentences")
        }
        XCTAssertEqual(feed(&check, peak: -60, seconds: 0.1), [.quiet], "10 s of silence after speech: muted or unplugged")
        XCTAssertEqual(feed(&check, peak: -20, seconds: 0.05), [.fine])
    }

    func testJustBelowTheMarksIsFine() {
        var check = MicrophoneCheck()
        XCTAssertEqual(feed(&check, peak: MicrophoneCheck.quietBelow, seconds: 10), [])
        XCTAssertEqual(feed(&check, peak: MicrophoneCheck.clippingAt - 0.01, seconds: 10), [])
    }
}
