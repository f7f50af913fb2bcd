import CCairo
@testable import Drawing
import Levels
import XCTest

/// Pixel and geometry tests of the other widgets' drawing: no display.
final class WidgetDrawingTests: XCTestCase {
    /// Alpha of a pixel drawn by `draw` on a fresh transparent surface.
    private func alphas(width: Int, height: Int, _ draw: (OpaquePointer) -> Void) -> (Int, Int) -> Int {
        let pixels = drawnPixels(width: width, height: height, draw)
        return { x, y in Int(pixels[y * width + x] >> 24) }
    }

    // MARK: Live waveform

    func testLiveWaveformShowsTheLatestBarsAndFadesItsEdges() {
        var live = LiveWaveform(layout: WaveformLayout(barWidth: 2, gap: 2), fadeCount: 3)
        for index in 0..<5 { live.append(Double(index) / 10) }
        XCTAssertEqual(Array(live.visible(width: 40)), [0, 0.1, 0.2, 0.3, 0.4])
        XCTAssertFalse(live.isOverflowing(width: 40))
        XCTAssertEqual(live.alphas(width: 40), [0.25, 0.5, 0.75, 1, 1], "left fade only while it fits")
        for index in 5..<20 { live.append(Double(index) / 100) }
        XCTAssertEqual(live.visible(width: 40).count, 10)
        XCTAssertEqual(live.visible(width: 40).last, 0.19, "newest at the right")
        XCTAssertTrue(live.isOverflowing(width: 40))
        XCTAssertEqual(live.alphas(width: 40), [0.25, 0.5, 0.75, 1, 1, 1, 1, 0.75, 0.5, 0.25], "right fade on overflow")
        live.insert(1, at: 0)
        XCTAssertEqual(live.fractions.first, 1)
        live.insert(.nan, at: 999)
        XCTAssertEqual(live.fractions.last, 0)
    }

    func testLiveWaveformKeepsAtMostItsCapacity() {
        var live = LiveWaveform(capacity: 100)
        for _ in 0..<1_000 { live.append(0.5) }
        XCTAssertEqual(live.fractions.count, 100)
    }

    func testLiveWaveformDrawsFadedBars() {
        var live = LiveWaveform(layout: WaveformLayout(barWidth: 4, gap: 4), fadeCount: 3)
        for _ in 0..<3 { live.append(1) }
        let alpha = alphas(width: 40, height: 20) { live.draw($0, width: 40, height: 20, color: RGBA(0, 0, 0)) }
        XCTAssertEqual(alpha(2, 10), 64, "first bar at a quarter")
        XCTAssertEqual(alpha(18, 10), 191, "third at three quarters")
        XCTAssertEqual(alpha(6, 10), 0, "gap")
        XCTAssertEqual(alpha(2, 0), 0, "caps inside the height")
    }

    // MARK: Circular progress

    func testArcEndAnglesStartAtTwelveAndTurnClockwise() {
        XCTAssertEqual(CircularProgress.endAngle(0), -Double.pi / 2, accuracy: 1e-12)
        XCTAssertEqual(CircularProgress.endAngle(0.25), 0, accuracy: 1e-12)
        XCTAssertEqual(CircularProgress.endAngle(0.5), Double.pi / 2, accuracy: 1e-12)
        XCTAssertEqual(CircularProgress.endAngle(1), 3 * Double.pi / 2, accuracy: 1e-12)
        XCTAssertEqual(CircularProgress.endAngle(7), 3 * Double.pi / 2, accuracy: 1e-12)
        XCTAssertEqual(CircularProgress.endAngle(.nan), -Double.pi / 2)
        XCTAssertEqual(CircularProgress.percentLabel(0.424), "42%")
    }

    func testQuarterProgressIsDrawnFromTwelveToThree() {
        var ring = CircularProgress()
        ring.trackColor = RGBA(0, 0, 0, 0)
        ring.progressColor = RGBA(0, 0, 0, 1)
        let alpha = alphas(width: 100, height: 100) { ring.draw($0, size: 100, progress: 0.25) }
        XCTAssertEqual(alpha(50 + 34, 50 - 34), 255, "half way: 1:30 on the clock")
        XCTAssertEqual(alpha(50 - 34, 50 + 34), 0, "nothing at 7:30")
        XCTAssertEqual(alpha(50 - 34, 50 - 34), 0, "nor at 10:30")
        XCTAssertEqual(alpha(50, 50), 0, "a ring, not a disc")
    }

    func testLinearAnimation() {
        let animation = LinearAnimation(from: 0.2, to: 1, duration: 2, start: 10)
        XCTAssertEqual(animation.value(at: 9), 0.2)
        XCTAssertEqual(animation.value(at: 11), 0.6, accuracy: 1e-12)
        XCTAssertEqual(animation.value(at: 13), 1)
        XCTAssertTrue(animation.isFinished(at: 12))
        XCTAssertEqual(LinearAnimation(from: 0, to: 1, duration: 0, start: 0).value(at: 0), 1)
    }

    // MARK: Indeterminate bar

    func testSegmentTravelsAcrossAndStartsAgain() {
        var bar = IndeterminateBar()
        bar.segmentFraction = 0.25
        bar.secondsPerPass = 2
        let start = bar.segment(at: 0)
        XCTAssertEqual(start.start, 0)
        XCTAssertEqual(start.end, 0, "it enters from the left edge")
        let middle = bar.segment(at: 1)
        XCTAssertEqual(middle.end - middle.start, 0.25, accuracy: 1e-12)
        XCTAssertEqual((middle.start + middle.end) / 2, 0.5, accuracy: 1e-12)
        XCTAssertEqual(bar.segment(at: 2.5).end, bar.segment(at: 0.5).end, accuracy: 1e-12, "again and again")
        XCTAssertEqual(bar.staticSegment.start, 0.375)
    }

    func testIndeterminateBarDrawsTrackAndSegment() {
        var bar = IndeterminateBar()
        bar.trackColor = RGBA(0, 0, 0, 0.2)
        bar.segmentColor = RGBA(0, 0, 0, 1)
        let alpha = alphas(width: 100, height: 10) { bar.draw($0, width: 100, height: 10, segment: (0.4, 0.6)) }
        XCTAssertEqual(alpha(50, 5), 255, "the segment")
        XCTAssertEqual(alpha(10, 5), 51, "the track")
        XCTAssertEqual(alpha(50, 0), 0, "thickness 4 in a 10 px height")
    }

    // MARK: Level meters

    func testThreeLineMeterRestsSaturatesAndTheSidesFillFirst() {
        let meter = ThreeLineMeter()
        let quiet = meter.heights(decibels: -80)
        XCTAssertEqual(quiet.main, meter.restFraction)
        XCTAssertEqual(quiet.side, meter.restFraction * meter.sideScale, accuracy: 1e-12)
        let loud = meter.heights(decibels: -18)
        XCTAssertEqual(loud.side, meter.sideScale, accuracy: 1e-12, "the sides are full at -18 dB")
        XCTAssertLessThan(loud.main, 1, "the main line is not yet")
        XCTAssertEqual(meter.heights(decibels: 0).main, 1)
        XCTAssertEqual(meter.heights(decibels: .nan).main, meter.restFraction)
    }

    func testPulseEasesTowardsTheLevel() {
        var pulse = LevelPulse()
        pulse.advance(towards: -6, seconds: 0.1)
        XCTAssertEqual(pulse.value, 0.95, accuracy: 1e-9, "95% of the way after 100 ms")
        pulse.advance(towards: -6, seconds: 1)
        XCTAssertEqual(pulse.value, 1, accuracy: 1e-6)
        let radii = pulse.radii(buttonRadius: 20)
        XCTAssertEqual(radii.outer, 32, accuracy: 1e-4)
        XCTAssertEqual(radii.inner, 26, accuracy: 1e-4)
        pulse.advance(towards: -100, seconds: 0)
        XCTAssertEqual(pulse.value, 0)
        let alpha = alphas(width: 80, height: 80) { pulse.draw($0, centreX: 40, centreY: 40, buttonRadius: 20, color: RGBA(0, 0, 0)) }
        XCTAssertEqual(alpha(40, 40), 214, "both circles: 1 - 0.8·0.2 over")  // 0.8 + 0.2·(1-0.8) = 0.84
    }
}
