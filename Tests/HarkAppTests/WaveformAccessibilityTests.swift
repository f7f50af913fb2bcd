import Foundation
import HarkTestSupport
import XCTest

/// The seekable waveform as a user and a screen reader meet it: a real pointer
/// drag and real key presses (xdotool), read back through AT-SPI.
final class WaveformAccessibilityTests: XCTestCase {
    private struct Slider: Decodable {
        let minimum, maximum, current: Double
        let x, y, width, height: Int
    }

    private var probe: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/atspi-probe").path
    }

    private struct Label: Decodable { let label: String }

    private func probeOutput(setting value: Double? = nil) throws -> [Substring] {
        let arguments = value.map { ["--set", String($0)] } ?? ["--wait-slider"]
        let (status, output) = try ChildProcess.run(probe, arguments, seconds: 120)
        XCTAssertEqual(status, 0, output)
        return output.split(separator: "\n").filter { $0.hasPrefix("{") }
    }

    private func sliders(setting value: Double? = nil) throws -> [Slider] {
        try probeOutput(setting: value).filter { !$0.contains("\"label\"") && !$0.contains("\"buttons\"") }
            .map { try JSONDecoder().decode(Slider.self, from: Data($0.utf8)) }
    }

    /// What the gallery says its first waveform last reported.
    private func seekReport() throws -> String {
        try probeOutput().filter { $0.contains("\"label\"") }
            .map { try JSONDecoder().decode(Label.self, from: Data($0.utf8)).label }.first ?? ""
    }

    private func xdotool(_ arguments: String...) throws -> String {
        try ChildProcess.run("/usr/bin/xdotool", arguments, seconds: 15).output
    }

    private func waitForValue(_ expected: Double, accuracy: Double) throws -> Double {
        var current = try sliders().first?.current ?? -1
        let deadline = Date().addingTimeInterval(10)
        while abs(current - expected) > accuracy && Date() < deadline {
            usleep(100_000)
            current = try sliders().first?.current ?? -1
        }
        return current
    }

    func testDragKeysAndScreenReaderAllSeeTheSamePosition() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            return XCTFail("needs an X display and a session bus: run with `make test`")
        }
        let gallery = try ChildProcess(harkExecutable, ["gallery", "--still"])
        let first = try XCTUnwrap(try sliders().first, "no slider named Position; output:\n\(gallery.output)")
        XCTAssertEqual(first.minimum, 0)
        XCTAssertEqual(first.maximum, 20, "max = the duration in seconds")
        XCTAssertEqual(first.current, 0)

        // The window's origin on screen: AT-SPI gives positions inside it.
        let window = try XCTUnwrap(try xdotool("search", "--onlyvisible", "--name", "^Hark Gallery$")
            .split(separator: "\n").first.map(String.init))
        let geometry = try xdotool("getwindowgeometry", "--shell", window)
        func field(_ name: String) -> Int {
            Int(geometry.split(separator: "\n").first { $0.hasPrefix(name + "=") }?.dropFirst(name.count + 1) ?? "") ?? 0
        }
        let originX = field("X"), originY = field("Y")
        let y = originY + first.y + first.height / 2

        // A real drag from the left end to the middle.
        _ = try xdotool("mousemove", String(originX + first.x + 1), String(y))
        _ = try xdotool("mousedown", "1")
        for step in 1...10 {
            _ = try xdotool("mousemove", String(originX + first.x + first.width * step / 20), String(y))
        }
        XCTAssertTrue(try seekReport().hasPrefix("Previewing"), "while dragging, the position is only previewed")
        _ = try xdotool("mouseup", "1")
        let dragged = try waitForValue(10, accuracy: 0.75)
        XCTAssertEqual(dragged, 10, accuracy: 0.75, "dragged to half of 20 s")
        let report = try seekReport()
        XCTAssertTrue(report.hasPrefix("Seeked to 0:"), "the release commits the seek: \(report)")
        XCTAssertEqual(Double(report.dropFirst("Seeked to 0:".count)) ?? -1, dragged, accuracy: 0.051, report)

        // The keyboard: → is 5 s on, Home the start, End the end.
        _ = try xdotool("key", "Right")
        XCTAssertEqual(try waitForValue(dragged + 5, accuracy: 0.01), dragged + 5, accuracy: 0.01)
        _ = try xdotool("key", "Home")
        XCTAssertEqual(try waitForValue(0, accuracy: 0.01), 0)
        _ = try xdotool("key", "End")
        XCTAssertEqual(try waitForValue(20, accuracy: 0.01), 20)

        // A screen reader sets the value: the widget follows.
        XCTAssertEqual(try sliders(setting: 3.5).first?.current ?? -1, 3.5, accuracy: 0.01)
        XCTAssertEqual(warningLines(in: gallery.output), [], gallery.output)
    }
}
