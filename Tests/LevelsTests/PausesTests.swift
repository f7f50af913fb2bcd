import Levels
import XCTest

final class PausesTests: XCTestCase {
    /// Levels every 50 ms: `(seconds, dB)` pieces one after another.
    private func track(_ pieces: [(Double, Double)], noise: Double = 0) -> LevelTrack {
        var track = LevelTrack()
        var index = 0
        for (seconds, level) in pieces {
            for _ in 0..<Int((seconds * 20).rounded()) {
                let wobble = noise * (index % 2 == 0 ? 1 : -1)
                track.append(rms: level + wobble, peak: level + wobble + 3)
                index += 1
            }
        }
        return track
    }

    private func assertSpans(_ spans: [ClosedRange<Double>], _ expected: [ClosedRange<Double>],
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(spans.count, expected.count, "\(spans)", file: file, line: line)
        for (span, want) in zip(spans, expected) {
            XCTAssertEqual(span.lowerBound, want.lowerBound, accuracy: 0.001, "\(spans)", file: file, line: line)
            XCTAssertEqual(span.upperBound, want.upperBound, accuracy: 0.001, "\(spans)", file: file, line: line)
        }
    }

    func testTheQuietStretchesBetweenWordsAreFoundAgainstDigitalSilence() {
        let levels = track([(1, -20), (0.2, -100), (1, -20), (1, -100), (1, -20), (3, -100), (1, -20)])
        assertSpans(Pauses(in: levels).spans, [1...1.2, 2.2...3.2, 4.2...7.2])
    }

    func testANoisyRecordingsQuietSpeechIsSpeechAndItsHumIsAPause() {
        // A fan at −45 dB; loud words at −15, a quiet word at −32.
        let levels = track([(1, -15), (1, -45), (0.5, -32), (1, -45), (1, -15)], noise: 1.5)
        let pauses = Pauses(in: levels)
        assertSpans(pauses.spans, [1...2, 2.5...3.5])
        XCTAssertLessThan(pauses.threshold, -32, "the quiet word stays above the line")
        XCTAssertGreaterThan(pauses.threshold, -45 + 1.5, "the hum's wobble stays below it")
    }

    func testWithoutContrastNothingIsAPause() {
        XCTAssertEqual(Pauses(in: track([(5, -20)], noise: 2)).spans, [], "all speech")
        XCTAssertEqual(Pauses(in: track([(5, -60)], noise: 2)).spans, [], "all hum")
        XCTAssertEqual(Pauses(in: LevelTrack()).spans, [], "nothing stored")
    }

    func testAPauseAtTheEndEndsWithTheMessage() {
        let levels = track([(1, -20), (2, -100)])
        assertSpans(Pauses(in: levels, duration: 2.93).spans, [1...2.93])
    }

    func testSkippingShortensOnlyPausesLongerThanHalfASecondKeepingAboutAThirdOfASecond() {
        let levels = track([(1, -20), (0.2, -100), (1, -20), (1, -100), (1, -20), (3, -100), (1, -20)])
        let skipping = SilenceSkipping(levels: levels)
        assertSpans(skipping.skipped, [2.35...3.05, 4.35...7.05])
        XCTAssertEqual(skipping.savedSeconds, 0.7 + 2.7, accuracy: 0.001)
    }

    func testThePlayerJumpsOverTheStretchItIsInOrTheNextOne() throws {
        let skipping = SilenceSkipping(levels: track([(1, -20), (1, -100), (1, -20), (1, -100), (1, -20)]))
        assertSpans(skipping.skipped, [1.15...1.85, 3.15...3.85])
        XCTAssertEqual(skipping.nextSkip(after: 0), skipping.skipped[0])
        XCTAssertEqual(skipping.nextSkip(after: 1.5), skipping.skipped[0], "inside it: jump now")
        XCTAssertEqual(skipping.nextSkip(after: 1.85), skipping.skipped[1], "at its end: the next")
        XCTAssertNil(skipping.nextSkip(after: 4))
    }
}
