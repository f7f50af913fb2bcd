import CCairo
@testable import Drawing
import Levels
import XCTest

/// Pixel tests on image surfaces: no display.
final class WaveformTests: XCTestCase {
    private struct Image {
        let surface: OpaquePointer
        let width: Int, height: Int
        init(width: Int, height: Int, _ draw: (OpaquePointer) -> Void) {
            self.width = width
            self.height = height
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
            let cairo = cairo_create(surface)!
            draw(cairo)
            cairo_destroy(cairo)
            cairo_surface_flush(surface)
        }
        /// (alpha, red, green, blue), premultiplied, 0…255.
        func pixel(_ x: Int, _ y: Int) -> (a: Int, r: Int, g: Int, b: Int) {
            let data = cairo_image_surface_get_data(surface)!
            let stride = Int(cairo_image_surface_get_stride(surface))
            let value = UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
            return (Int(value >> 24), Int((value >> 16) & 0xFF), Int((value >> 8) & 0xFF), Int(value & 0xFF))
        }
        /// Rows of column `x` that are drawn on.
        func inkedRows(_ x: Int) -> [Int] { (0..<height).filter { pixel(x, $0).a > 0 } }
    }

    private let transparent = WaveformColors(played: RGBA(0, 0, 1), unplayed: RGBA(1, 0, 0), background: nil)

    func testBarCountFollowsWidthAndPitch() {
        let layout = WaveformLayout(barWidth: 2, gap: 2)
        XCTAssertEqual(layout.barCount(width: 100), 25)
        XCTAssertEqual(layout.barCount(width: 101), 25)
        XCTAssertEqual(layout.barCount(width: 102), 26)
        XCTAssertEqual(WaveformLayout(barWidth: 3, gap: 3).barCount(width: 600), 100)
        XCTAssertEqual(layout.barCount(width: 1), 0)
        XCTAssertEqual(layout.bars(for: [Double](repeating: 0.5, count: 12_000), width: 600, height: 64).count, 150)
    }

    func testHeightsAreProportionalAndCentredWithCapsInside() {
        let layout = WaveformLayout(barWidth: 4, gap: 4, minimumBarHeight: 4)
        let bars = layout.bars(for: [0, 0.5, 1], width: 20, height: 44)
        XCTAssertEqual(bars.map(\.height), [4, 22, 40])  // room = 44 - 2·2
        for bar in bars { XCTAssertEqual(bar.y + bar.height / 2, 22, accuracy: 1e-9) }
        let image = Image(width: 20, height: 44) {
            WaveformPainter.draw($0, width: 20, height: 44, fractions: [1, 1, 1], played: 0, layout: layout, colors: transparent)
        }
        let inked = image.inkedRows(2)  // the middle of the first, full-height bar
        XCTAssertEqual(inked.first, 2, "the round cap starts below the margin")
        XCTAssertEqual(inked.last, 41, "and ends above it: nothing clipped")
        XCTAssertEqual(image.pixel(0, 2).a < 255, true, "the cap is round: its corner is not filled")
    }

    func testPlayedPartIsInThePlayedColourSplitInsideABar() {
        let layout = WaveformLayout(barWidth: 8, gap: 2)
        let image = Image(width: 98, height: 20) {
            WaveformPainter.draw($0, width: 98, height: 20, fractions: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], played: 0.45,
                                 layout: layout, colors: transparent)
        }
        // Played up to x = 44.1: bars at 0, 10, … 40–48 is split, 50… unplayed.
        XCTAssertEqual(image.pixel(4, 10).b, 255, "played: blue")
        XCTAssertEqual(image.pixel(42, 10).b, 255, "the split bar's left part")
        XCTAssertEqual(image.pixel(46, 10).r, 255, "the split bar's right part")
        XCTAssertEqual(image.pixel(54, 10).r, 255, "unplayed: red")
        XCTAssertEqual(image.pixel(9, 10).a, 0, "the gaps stay empty")
    }

    func testHoverPreviewLightensThePlayedColourUpToThePointer() {
        let layout = WaveformLayout(barWidth: 8, gap: 2)
        let image = Image(width: 98, height: 20) {
            WaveformPainter.draw($0, width: 98, height: 20, fractions: [Double](repeating: 1, count: 10), played: 0.2,
                                 hover: 0.65, layout: layout, colors: transparent)
        }
        XCTAssertEqual(image.pixel(4, 10).a, 255, "played: full")
        XCTAssertEqual(image.pixel(4, 10).b, 255)
        XCTAssertEqual(image.pixel(34, 10).a, 115, "between the playhead and the pointer: lighter (0.45)")
        XCTAssertEqual(image.pixel(34, 10).b, 115)
        XCTAssertEqual(image.pixel(74, 10).r, 255, "past the pointer: unplayed")
    }

    func testPeaksSurviveRebinning() {
        var fractions = [Double](repeating: 0, count: 10_000)
        fractions[6_001] = 1
        let bars = WaveformLayout().bars(for: fractions, width: 400, height: 50)
        XCTAssertEqual(bars.filter { $0.height > 40 }.count, 1)
    }

    func testLineStyleIsOneContinuousShape() {
        let image = Image(width: 200, height: 40) {
            WaveformPainter.draw($0, width: 200, height: 40, fractions: [0.2, 0.9, 0.5, 0.7, 0.1], played: 1,
                                 colors: transparent, style: .line)
        }
        // Every column across the drawn width has ink at the centre line: no breaks.
        let last = WaveformLayout().barCount(width: 200) * 4 - 4
        for x in 2..<last { XCTAssertGreaterThan(image.pixel(x, 20).a, 0, "column \(x)") }
    }

    func testNonsenseNeverCrashesNorDrawsGarbage() {
        for fractions in [[], [Double.nan], [.infinity, -.infinity, .nan, 2, -1], [0.5]] {
            let image = Image(width: 50, height: 20) {
                WaveformPainter.draw($0, width: 50, height: 20, fractions: fractions, played: .nan, colors: transparent)
            }
            for x in 0..<50 { for y in [0, 19] { XCTAssertEqual(image.pixel(x, y).a, 0, "\(fractions) edge row") } }
        }
        _ = Image(width: 600, height: 64) {
            WaveformPainter.draw($0, width: 600, height: 64, fractions: [Double](repeating: 0.3, count: 1_000_000),
                                 played: 0.3, colors: .dark)
        }
        _ = Image(width: 1, height: 1) { WaveformPainter.draw($0, width: 0, height: 0, fractions: [1], played: 0) }
    }
}
