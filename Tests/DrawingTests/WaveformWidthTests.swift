import Drawing
import XCTest

final class WaveformWidthTests: XCTestCase {
    func testTheWidthGrowsWithTheDurationUpToTheRow() {
        let short = WaveformWidth.width(duration: 2, available: 500)
        let longer = WaveformWidth.width(duration: 19, available: 500)
        XCTAssertLessThan(short, longer, "a 2 s message looks shorter than a 19 s one")
        XCTAssertEqual(WaveformWidth.width(duration: 30, available: 500), 500, "full at 30 s")
        XCTAssertEqual(WaveformWidth.width(duration: 600, available: 500), 500, "never wider than the row")
        XCTAssertEqual(WaveformWidth.width(duration: 0, available: 500), 175, "a share of the row for nothing at all")
    }

    func testNeverNarrowerThanTheMinimumNorWiderThanWhatIsThere() {
        XCTAssertEqual(WaveformWidth.width(duration: 1, available: 200), WaveformWidth.minimum)
        XCTAssertEqual(WaveformWidth.width(duration: 1, available: 80), 80, "a narrow row gets all it has")
        XCTAssertEqual(WaveformWidth.width(duration: .nan, available: 400), 140)
        XCTAssertEqual(WaveformWidth.width(duration: 5, available: 0), 0)
    }
}
