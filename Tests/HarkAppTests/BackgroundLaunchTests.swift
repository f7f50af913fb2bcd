import Foundation
import HarkTestSupport
import XCTest

/// Running in the Background, in the real app: turned on from the main menu,
/// closing the window leaves Hark running (a launch shows the window again,
/// Quit ends it, shown or hidden); `hark --background`, as the autostart entry starts it,
/// runs with no window until a launch asks for one, and a second one changes
/// nothing.
final class BackgroundLaunchTests: XCTestCase {
    private let driver = AppDriver()

    func testClosedToTheBackgroundHarkRunsOnUntilQuit() throws {
        let data = try ScratchFolder()
        let environment = self.environment(data)
        let app = try ChildProcess(harkExecutable, [], environment: environment)
        try driver.waitFor("the window") { try driver.buttons().contains("Main Menu") }
        try driver.click("Main Menu", "Run in Background")
        XCTAssertTrue(FileManager.default.fileExists(atPath: data.path("config/autostart")) == false,
                      "no account signed in: nothing to start at login")
        _ = try driver.focusWindow()
        try driver.key("ctrl+w")
        try driver.waitFor("the window closed") { try driver.xdotool("search", "--onlyvisible", "--name", "^Hark$").isEmpty }
        XCTAssertTrue(app.isRunning, "still running: \(app.output)")

        let again = try ChildProcess.run(harkExecutable, [], environment: environment, seconds: 30)
        XCTAssertEqual(again.status, 0, again.output)
        try driver.waitFor("the same window shown again") { try driver.buttons().contains("Main Menu") }
        XCTAssertEqual(try driver.quit(app), 0, "Quit ends it: \(app.output)")
        XCTAssertEqual(warningLines(in: app.output + again.output), [])

        // Quit (the application's action, as a desktop's Quit asks it) with the window hidden ends it too.
        let hidden = try ChildProcess(harkExecutable, [], environment: environment)
        try driver.waitFor("the window") { try driver.buttons().contains("Main Menu") }
        _ = try driver.focusWindow()
        try driver.key("ctrl+w")
        try driver.waitFor("the window closed") { try driver.xdotool("search", "--onlyvisible", "--name", "^Hark$").isEmpty }
        let quit = try ChildProcess.run("/usr/bin/gapplication", ["action", "io.github.hark.Hark", "quit"], environment: environment)
        XCTAssertEqual(quit.status, 0, quit.output)
        XCTAssertEqual(hidden.waitForExit(seconds: 30), 0, hidden.output)
        XCTAssertEqual(warningLines(in: hidden.output), [])
    }

    func testStartedInTheBackgroundHarkShowsNoWindowUntilLaunched() throws {
        let data = try ScratchFolder()
        let environment = self.environment(data)
        let app = try ChildProcess(harkExecutable, ["--background"], environment: environment)
        // An answer from the running Hark comes after its start (its activation) is done.
        try driver.waitFor("Hark on the session bus") { try Self.listsActions(environment) }
        XCTAssertEqual(try driver.xdotool("search", "--name", "^Hark$"), "", "no window made")

        let second = try ChildProcess.run(harkExecutable, ["--background"], environment: environment, seconds: 30)
        XCTAssertEqual(second.status, 0, second.output)
        XCTAssertTrue(try Self.listsActions(environment))
        XCTAssertEqual(try driver.xdotool("search", "--name", "^Hark$"), "", "a second one shows nothing either")
        XCTAssertTrue(app.isRunning, app.output)

        let launch = try ChildProcess.run(harkExecutable, [], environment: environment, seconds: 30)
        XCTAssertEqual(launch.status, 0, launch.output)
        try driver.waitFor("the window") { try driver.buttons().contains("Main Menu") }
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output + second.output + launch.output), [])
    }

    /// Whether the running Hark answers with its application actions (Quit among them).
    private static func listsActions(_ environment: [String: String]) throws -> Bool {
        let (status, output) = try ChildProcess.run("/usr/bin/gdbus", [
            "call", "--session", "--dest", "io.github.hark.Hark", "--object-path", "/io/github/hark/Hark",
            "--method", "org.gtk.Actions.List",
        ], environment: environment, seconds: 15)
        return status == 0 && output.contains("'quit'")
    }

    private func environment(_ data: ScratchFolder) -> [String: String] {
        ["XDG_DATA_HOME": data.path("data"), "XDG_CONFIG_HOME": data.path("config"), "HOME": data.url.path]
    }
}
