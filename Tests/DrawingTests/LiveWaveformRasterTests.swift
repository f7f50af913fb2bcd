import CCairo
@testable import Drawing
import XCTest

/// The recording's live waveform drawn from its strip of bars, against the
/// bar-by-bar drawing it replaces, through growth, scrolling, a strip
/// started over, inserts, a clear, a new colour, right to left and HiDPI.
final class LiveWaveformRasterTests: XCTestCase {
    private let accent = RGBA(0.2, 0.5, 0.9)

    private func pixels(width: Int, height: Int, scale: Double = 1, _ draw: (OpaquePointer) -> Void) -> [UInt32] {
        drawnPixels(width: width, height: height, scale: scale, draw)
    }

    private func largestDifference(_ a: [UInt32], _ b: [UInt32]) -> Int {
        var largest = 0
        for (first, second) in zip(a, b) {
            for shift: UInt32 in [0, 8, 16, 24] {
                let one = Int((first >> shift) & 0xFF), other = Int((second >> shift) & 0xFF)
                largest = max(largest, abs(one - other))
            }
        }
        return largest
    }

    private func assertLooksLikeDirectDrawing(_ waveform: LiveWaveform, _ raster: LiveWaveformRaster,
                                              width: Int = 120, height: Int = 40, scale: Double = 1,
                                              color: RGBA? = nil, direction: ReadingDirection = .leftToRight,
                                              _ step: String, line: UInt = #line) {
        let color = color ?? accent
        let direct = pixels(width: width, height: height, scale: scale) {
            direction.orient($0, areaWidth: Double(width))
            waveform.draw($0, width: Double(width), height: Double(height), color: color)
        }
        let rastered = pixels(width: width, height: height, scale: scale) {
            direction.orient($0, areaWidth: Double(width))
            raster.draw($0, waveform: waveform, width: Double(width), height: Double(height), scale: scale, color: color)
        }
        XCTAssertEqual(direct.count, rastered.count)
        XCTAssertLessThanOrEqual(largestDifference(direct, rastered), 3, step, line: line)
    }

    private func level(_ index: Int) -> Double { 0.5 + 0.45 * sin(Double(index) / 3) }

    func testEveryFrameLooksAsIfEachBarWereDrawnAnew() {
        var waveform = LiveWaveform()
        let raster = LiveWaveformRaster()
        let shown = waveform.layout.barCount(width: 120)
        // Growing, overflowing (both fades), and well past the strip's room.
        for index in 0..<(shown * 5) {
            waveform.append(level(index))
            assertLooksLikeDirectDrawing(waveform, raster, "after \(index + 1) bars")
        }
        XCTAssertEqual(raster.barsRasterised, shown * 5 + 3 * (shown - 1),
                       "each level stroked once, and the older visible ones again at each of the strip’s restarts")
        XCTAssertEqual(raster.strips, 4, "a strip holds twice what shows")

        waveform.insert(1, at: waveform.fractions.count - 3)
        assertLooksLikeDirectDrawing(waveform, raster, "a level placed before the last ones")
        assertLooksLikeDirectDrawing(waveform, raster, color: RGBA(0.9, 0.1, 0.1, 0.8), "a new accent colour")
        assertLooksLikeDirectDrawing(waveform, raster, width: 90, "a narrower window")
        assertLooksLikeDirectDrawing(waveform, raster, direction: .rightToLeft, "right to left")
        waveform.append(0.9)
        assertLooksLikeDirectDrawing(waveform, raster, direction: .rightToLeft, "right to left, growing")
        assertLooksLikeDirectDrawing(waveform, raster, scale: 2, "on a HiDPI display")
        waveform.removeAll()
        assertLooksLikeDirectDrawing(waveform, raster, "cleared for the next take")
        waveform.append(0.3)
        assertLooksLikeDirectDrawing(waveform, raster, "the next take's first bar")
    }

    func testBarsLetGoBeyondTheCapacityKeepTheirPlaces() {
        var waveform = LiveWaveform(capacity: 30)
        let raster = LiveWaveformRaster()
        for index in 0..<100 {
            waveform.append(level(index))
            assertLooksLikeDirectDrawing(waveform, raster, width: 150, "after \(index + 1) bars, 30 kept")
        }
        XCTAssertEqual(waveform.dropped, 70)
    }

    func testAPitchOfPartPixelsAndAnAreaTooWideForAStripAreDrawnBarByBar() {
        var uneven = LiveWaveform(layout: WaveformLayout(barWidth: 2.5, gap: 2))
        let raster = LiveWaveformRaster()
        for index in 0..<60 {
            uneven.append(level(index))
            assertLooksLikeDirectDrawing(uneven, raster, "a 4.5 px pitch, after \(index + 1) bars")
        }
        XCTAssertEqual(raster.strips, 0, "no strip that would blur the bars")
        var wide = LiveWaveform()
        for index in 0..<4_000 { wide.append(level(index)) }
        assertLooksLikeDirectDrawing(wide, LiveWaveformRaster(), width: 20_000, height: 8, "wider than cairo's images go, twice")
    }

    func testAFrameWithoutANewLevelStrokesNothing() {
        var waveform = LiveWaveform()
        let raster = LiveWaveformRaster()
        for index in 0..<10 { waveform.append(level(index)) }
        for _ in 0..<5 {
            _ = pixels(width: 120, height: 40) { raster.draw($0, waveform: waveform, width: 120, height: 40, color: accent) }
        }
        XCTAssertEqual(raster.barsRasterised, 10)
        XCTAssertEqual(raster.strips, 1)
    }

    func testNothingToDrawDrawsNothing() {
        let raster = LiveWaveformRaster()
        let empty = pixels(width: 60, height: 20) {
            raster.draw($0, waveform: LiveWaveform(), width: 60, height: 20, color: accent)
        }
        XCTAssertTrue(empty.allSatisfy { $0 == 0 })
    }
}
