import Drawing
import XCTest

final class ReadingDirectionTests: XCTestCase {
    func testAPointFallsAlongTheDrawnPartFromItsLeadingEdge() {
        // 300 px drawn of a 400 px area: from the left, or from the right.
        XCTAssertEqual(ReadingDirection.leftToRight.fraction(atX: 75, areaWidth: 400, drawnWidth: 300), 0.25)
        XCTAssertNil(ReadingDirection.leftToRight.fraction(atX: 350, areaWidth: 400, drawnWidth: 300))
        XCTAssertEqual(ReadingDirection.rightToLeft.fraction(atX: 325, areaWidth: 400, drawnWidth: 300), 0.25)
        XCTAssertEqual(ReadingDirection.rightToLeft.fraction(atX: 100, areaWidth: 400, drawnWidth: 300), 1)
        XCTAssertNil(ReadingDirection.rightToLeft.fraction(atX: 50, areaWidth: 400, drawnWidth: 300))
        XCTAssertNil(ReadingDirection.rightToLeft.fraction(atX: 10, areaWidth: 400, drawnWidth: 0))
    }
}
