import Levels
import XCTest

final class TrimSelectionTests: XCTestCase {
    func testTheDefaultTrimPlacesTheHandles() {
        let trim = TakeTrim(kept: 1.75...5.05, duration: 7)
        let selection = TrimSelection(trim)
        XCTAssertEqual(selection.kept, 1.75...5.05)
        XCTAssertEqual(selection.length, 3.3, accuracy: 1e-9)
        XCTAssertTrue(selection.cutsAnything)
        XCTAssertFalse(TrimSelection(duration: 4, kept: 0...4).cutsAnything)
    }

    func testHandlesStayInsideTheTakeAndHalfASecondApart() {
        var selection = TrimSelection(duration: 4, kept: 0...4)
        selection.move(.start, to: -1)
        XCTAssertEqual(selection.start, 0)
        selection.move(.end, to: 9)
        XCTAssertEqual(selection.end, 4)
        selection.move(.start, to: 3.8)
        XCTAssertEqual(selection.start, 3.5, accuracy: 1e-9, "half a second before the end")
        selection.move(.end, to: 1)
        XCTAssertEqual(selection.end, 4, "the end cannot pass the start's half second")
        selection.move(.start, to: 1)
        selection.move(.end, to: 1.2)
        XCTAssertEqual(selection.end, 1.5, accuracy: 1e-9)
        XCTAssertEqual(selection.allowed(.start), 0...1)
        selection.move(.start, to: .nan)
        XCTAssertEqual(selection.start, 0)
    }

    func testATakeShorterThanTheShortestKeepsItsWhole() {
        var selection = TrimSelection(duration: 0.3, kept: 0.1...0.2)
        XCTAssertEqual(selection.kept, 0...0.3)
        selection.step(.end, by: -1)
        XCTAssertEqual(selection.kept, 0...0.3)
    }

    func testKeysStepATenthOfASecondWithoutDrift() {
        var selection = TrimSelection(duration: 3, kept: 0.26...3)
        selection.step(.end, by: -1)
        XCTAssertEqual(selection.end, 2.9, accuracy: 1e-9)
        for _ in 0..<9 { selection.step(.end, by: -1) }
        XCTAssertEqual(selection.end, 2.0, accuracy: 1e-9)
        selection.step(.start, by: 1)
        XCTAssertEqual(selection.start, 0.4, accuracy: 1e-9, "from the step grid: 0.26 rounds to 0.3")
        for _ in 0..<40 { selection.step(.start, by: 1) }
        XCTAssertEqual(selection.start, 1.5, accuracy: 1e-9, "stopped half a second before the end")
    }

    func testPlacesOverTheWaveformAndTimesMapBothWays() {
        let selection = TrimSelection(duration: 8, kept: 0...8)
        XCTAssertEqual(selection.along(2, extent: 200), 50)
        XCTAssertEqual(selection.seconds(along: 50, extent: 200), 2)
        XCTAssertEqual(selection.seconds(along: -10, extent: 200), 0)
        XCTAssertEqual(selection.seconds(along: 500, extent: 200), 8)
        XCTAssertEqual(selection.along(20, extent: 200), 200)
        XCTAssertEqual(selection.seconds(along: 10, extent: 0), 0)
        XCTAssertEqual(TrimSelection(duration: 0, kept: 0...0).along(1, extent: 100), 0)
    }
}
