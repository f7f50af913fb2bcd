import CCairo
@testable import Drawing
import Levels
import XCTest

/// The cached waveform a history row draws, against the painter it
/// replaces, and the "does it look different" rules that decide redraws.
final class WaveformCacheTests: XCTestCase {
    private func pixels(width: Int, height: Int, _ draw: (OpaquePointer) -> Void) -> [UInt32] {
        drawnPixels(width: width, height: height, draw)
    }

    /// The largest difference of any channel of any pixel in rows `width`
    /// wide, but for the columns in `skipping`.
    private func largestDifference(_ a: [UInt32], _ b: [UInt32], width: Int, skipping: Set<Int> = []) -> Int {
        var largest = 0
        for (index, (first, second)) in zip(a, b).enumerated() where !skipping.contains(index % width) {
            for shift: UInt32 in [0, 8, 16, 24] {
                let one = Int((first >> shift) & 0xFF), other = Int((second >> shift) & 0xFF)
                largest = max(largest, abs(one - other))
            }
        }
        return largest
    }

    private let colors = WaveformColors(played: RGBA(0, 0, 1), unplayed: RGBA(1, 0, 0, 0.55), background: nil)
    private let fractions = (0..<500).map { index in 0.5 + 0.5 * sin(Double(index) / 7) }

    func testTheCachedWaveformLooksLikeThePaintedOneInEveryStyleAndZone() {
        for style in WaveformStyle.allCases {
            for (played, hover) in [(0.0, nil), (0.37, nil), (0.37, 0.62), (1.0, nil)] as [(Double, Double?)] {
                let cache = WaveformCache()
                let painted = pixels(width: 300, height: 48) {
                    WaveformPainter.draw($0, width: 300, height: 48, fractions: fractions, played: played, hover: hover,
                                         colors: colors, style: style)
                }
                let cached = pixels(width: 300, height: 48) {
                    cache.draw($0, width: 300, height: 48, fractions: fractions, played: played, hover: hover,
                               colors: colors, style: style)
                }
                XCTAssertGreaterThan(Set(painted).count, 2, "something was drawn")
                // The pixel a zone boundary splits blends its two colours
                // differently through a mask (the painter over-covers it);
                // elsewhere, antialiased edges may round differently.
                let extent = WaveformLayout().extent(width: 300)
                let boundaries = Set([played, hover ?? played].flatMap { fraction in
                    [Int((fraction * extent).rounded(.down)), Int((fraction * extent).rounded(.up))]
                })
                XCTAssertLessThanOrEqual(largestDifference(painted, cached, width: 300, skipping: boundaries), 4,
                                         "\(style) at \(played), hover \(String(describing: hover))")
            }
        }
    }

    func testTheBarsAreRasterisedOnceWhatEverThePlayheadDoes() {
        let cache = WaveformCache()
        for step in 0...100 {
            _ = pixels(width: 200, height: 40) {
                cache.draw($0, width: 200, height: 40, fractions: fractions, played: Double(step) / 100, colors: colors)
            }
        }
        XCTAssertEqual(cache.rasterisations, 1)

        _ = pixels(width: 150, height: 40) { cache.draw($0, width: 150, height: 40, fractions: fractions, played: 0.5) }
        XCTAssertEqual(cache.rasterisations, 2, "a new width makes a new mask")
        _ = pixels(width: 150, height: 40) {
            cache.draw($0, width: 150, height: 40, fractions: fractions, played: 0.5, style: .line)
        }
        XCTAssertEqual(cache.rasterisations, 3, "so does a new style")
        cache.invalidate()
        let loud = pixels(width: 150, height: 40) {
            cache.draw($0, width: 150, height: 40, fractions: [Double](repeating: 1, count: 50), played: 0, style: .line)
        }
        XCTAssertEqual(cache.rasterisations, 4, "new levels, after invalidate, make a new mask")
        XCTAssertNotEqual(loud[20 * 150 + 75] >> 24, 0, "…drawn from the new levels")
    }

    func testNothingToDrawDrawsNothing() {
        let cache = WaveformCache()
        let empty = pixels(width: 100, height: 20) {
            cache.draw($0, width: 100, height: 20, fractions: [], played: 0.5, colors: colors)
        }
        XCTAssertEqual(Set(empty), [0])
        let tiny = pixels(width: 100, height: 20) {
            cache.draw($0, width: 0.5, height: 20, fractions: fractions, played: 0.5, colors: colors)
        }
        XCTAssertEqual(Set(tiny), [0])
        XCTAssertEqual(cache.rasterisations, 0)
    }

    func testARingRedrawsOnlyWhenItsArcVisiblyMoves() {
        let ring = CircularProgress()
        XCTAssertFalse(ring.looksDifferent(0.5, 0.5, size: 32))
        XCTAssertFalse(ring.looksDifferent(0.5, 0.5 + 1.0 / 1800 / 20, size: 32), "a 20th of a second of 30 minutes")
        XCTAssertTrue(ring.looksDifferent(0.5, 0.51, size: 32))
        XCTAssertTrue(ring.looksDifferent(0, 1, size: 32))
        XCTAssertFalse(ring.looksDifferent(0, 0.5, size: 0), "an unshown ring draws nothing")
    }

    func testThePulseRedrawsOnlyWhenItsCircleVisiblyMovesAndRestsAtOnce() {
        var pulse = LevelPulse()
        XCTAssertFalse(pulse.looksDifferent(0.5, 0.5005, buttonRadius: 20))
        XCTAssertTrue(pulse.looksDifferent(0.5, 0.6, buttonRadius: 20))
        pulse.advance(towards: -6, seconds: 1)
        XCTAssertGreaterThan(pulse.value, 0.9)
        pulse.advance(towards: -100, seconds: 0.05)
        XCTAssertGreaterThan(pulse.value, 0.1, "one level interval eases only part of the way")
        pulse.rest()
        XCTAssertEqual(pulse.value, 0, "at rest at once when the recording ends")
    }

    func testThePlayedExtentEndsAtTheLastBar() {
        let layout = WaveformLayout(barWidth: 2, gap: 2)
        XCTAssertEqual(layout.extent(width: 10), 10)  // bars at 0, 4, 8
        XCTAssertEqual(layout.extent(width: 11), 10)
        XCTAssertEqual(layout.extent(width: 1), 0)
        XCTAssertEqual(layout.bars(for: [1, 1, 1], width: 11, height: 10).last.map { $0.x + 2 }, layout.extent(width: 11))
    }
}
