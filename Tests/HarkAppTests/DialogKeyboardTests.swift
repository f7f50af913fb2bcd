import Foundation
import HarkTestSupport
import XCTest

/// Hark's own dialogs close on Escape, as GNOME's do, from the keyboard of a
/// real X server (xdotool) and seen as a screen reader sees them (AT-SPI).
final class DialogKeyboardTests: XCTestCase {
    private let driver = AppDriver()

    func testEscapeClosesTheMatrixAccountAndTranscriptionDialogs() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("needs an X display and a session bus: run with `make test`")
        }
        let data = try ScratchFolder()
        let app = try ChildProcess(harkExecutable, [], environment: ["XDG_DATA_HOME": data.url.path, "HOME": data.url.path])
        try driver.waitFor("the window") { try driver.buttons().contains("Main Menu") }
        for (item, shownInside) in [("Matrix Account…", "Sign In"), ("Transcribe Messages…", "Transcribe New Messages")] {
            try driver.click("Main Menu", item)
            try driver.waitFor("the dialog") { try driver.shows(shownInside) }
            _ = try driver.focusWindow(item.replacingOccurrences(of: "…", with: ""))
            try driver.key("Escape")
            try driver.waitFor("the dialog closed by Escape") { try !driver.shows(shownInside) }
        }
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }
}
