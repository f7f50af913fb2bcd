import Foundation
import HarkTestSupport
import XCTest

/// The real app under a real X server (Xvfb) and a real session bus, driven
/// with real key presses through xdotool. `make test` provides both.
final class WindowLifecycleTests: XCTestCase {
    private var environment: [String: String] = [:]
    private var home: URL!

    override func setUpWithError() throws {
        let env = ProcessInfo.processInfo.environment
        guard env["DISPLAY"] != nil else {
            throw MissingEnvironment("an X display: run with `make test` (xvfb-run)")
        }
        guard env["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw MissingEnvironment("a session bus: run with `make test` (dbus-run-session)")
        }
        // The pointer out of the way: resting on a button it shows a tooltip,
        // an X window of its own named after the program.
        _ = try ChildProcess.run("/usr/bin/xdotool", ["mousemove", "1270", "1010"], seconds: 15)
        home = FileManager.default.temporaryDirectory.appendingPathComponent("hark-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = [
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
        ]
    }

    override func tearDownWithError() throws {
        if let home { try? FileManager.default.removeItem(at: home) }
    }

    func testWindowAppearsAndCtrlQQuitsWithStatusZeroAndNoWarnings() throws {
        let app = try ChildProcess(harkExecutable, [], environment: environment)
        let window = try XCTUnwrap(waitForWindows(named: "Hark", count: 1, seconds: 30).first,
                                   "no window titled Hark appeared; output:\n\(app.output)")
        try pressKeys("ctrl+q", in: window)
        XCTAssertEqual(app.waitForExit(seconds: 30), 0, "Ctrl+Q must quit with status 0; output:\n\(app.output)")
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    func testSecondLaunchPresentsTheFirstWindowAndExits() throws {
        let first = try ChildProcess(harkExecutable, [], environment: environment)
        let window = try XCTUnwrap(waitForWindows(named: "Hark", count: 1, seconds: 30).first,
                                   "no window; output:\n\(first.output)")

        // Take the focus away (to the root window): only the first instance
        // presenting its window gives it back.
        let root = try rootWindow()
        _ = try ChildProcess.run("/usr/bin/xdotool", ["windowfocus", root], seconds: 15)
        XCTAssertTrue(waitForFocus(on: root, seconds: 15), "the root window has the focus")

        let (status, output) = try ChildProcess.run(harkExecutable, [], environment: environment, seconds: 30)
        XCTAssertEqual(status, 0, "the second launch hands over to the first and exits; output:\n\(output)")
        XCTAssertTrue(first.isRunning)
        XCTAssertTrue(waitForFocus(on: window, seconds: 30), "the first instance presented its window")
        XCTAssertEqual(try windows(named: "Hark"), [window], "and made no second one")

        try pressKeys("ctrl+q", in: window)
        XCTAssertEqual(first.waitForExit(seconds: 30), 0)
        XCTAssertEqual(warningLines(in: first.output + output), [])
    }

    func testClosingTheWindowEndsTheApp() throws {
        let app = try ChildProcess(harkExecutable, [], environment: environment)
        let window = try XCTUnwrap(waitForWindows(named: "Hark", count: 1, seconds: 30).first)
        try pressKeys("ctrl+w", in: window)
        XCTAssertEqual(app.waitForExit(seconds: 30), 0, app.output)
    }

    // MARK: X11 through xdotool

    private func windows(named title: String) throws -> [String] {
        let (_, output) = try ChildProcess.run("/usr/bin/xdotool",
                                               ["search", "--onlyvisible", "--name", "^\(title)$"], seconds: 15)
        return output.split(separator: "\n").map(String.init).filter { Int($0) != nil }
    }

    private func waitForWindows(named title: String, count: Int, seconds: Double) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let found = try windows(named: title)
            if found.count >= count { return found }
            usleep(100_000)
        } while Date() < deadline
        return []
    }

    private func rootWindow() throws -> String {
        let (_, output) = try ChildProcess.run("/usr/bin/xwininfo", ["-root"], seconds: 15)
        let hex = try XCTUnwrap(output.split(separator: "\n").first { $0.contains("Window id:") }?
            .split(separator: " ").first { $0.hasPrefix("0x") })
        return String(try XCTUnwrap(UInt(hex.dropFirst(2), radix: 16)))
    }

    private func waitForFocus(on window: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let (_, output) = try? ChildProcess.run("/usr/bin/xdotool", ["getwindowfocus"], seconds: 15),
               output.trimmingCharacters(in: .whitespacesAndNewlines) == window { return true }
            usleep(100_000)
        } while Date() < deadline
        return false
    }

    /// Real key events (XTEST) to the window, which gets the focus first: Xvfb
    /// runs no window manager to give it.
    private func pressKeys(_ keys: String, in window: String) throws {
        _ = try ChildProcess.run("/usr/bin/xdotool", ["mousemove", "--window", window, "20", "20"], seconds: 15)
        _ = try ChildProcess.run("/usr/bin/xdotool", ["windowfocus", "--sync", window], seconds: 15)
        let (status, output) = try ChildProcess.run("/usr/bin/xdotool", ["key", "--clearmodifiers", keys], seconds: 15)
        XCTAssertEqual(status, 0, output)
    }
}

private struct MissingEnvironment: Error, CustomStringConvertible {
    let description: String
    init(_ what: String) { description = "this test needs \(what)" }
}
