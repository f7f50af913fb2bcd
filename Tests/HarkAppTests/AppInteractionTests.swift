import Foundation
import HarkTestSupport
import XCTest

/// The window's other ways in: press-and-hold recording, the keyboard,
/// Import… and Export… through the file chooser, with a test tone as the
/// microphone (`HARK_RECORD_SOURCE`) and messages imported beforehand.
final class AppInteractionTests: XCTestCase {
    private let driver = AppDriver()
    private var data: ScratchFolder!

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("needs an X display and a session bus: run with `make test`")
        }
        data = try ScratchFolder()
    }

    private var environment: [String: String] {
        ["XDG_DATA_HOME": data.url.path, "HARK_RECORD_SOURCE": "audiotestsrc is-live=true wave=sine volume=0.3"]
    }

    private func tone(_ name: String, seconds: Int) throws -> String {
        let path = data.path(name)
        try gstLaunch("audiotestsrc num-buffers=\(seconds * 50) samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
        return path
    }

    private func listed() throws -> String {
        try ChildProcess.run(harkExecutable, ["list", "--json"], environment: ["XDG_DATA_HOME": data.url.path]).output
    }

    private func startApp() throws -> ChildProcess {
        let app = try ChildProcess(harkExecutable, [], environment: environment)
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Record") }, app.output)
        return app
    }

    func testHoldingRecordRecordsUntilReleaseAndDraggingAwayCancels() throws {
        let app = try startApp()
        let record = try driver.centre(of: "Record")
        try driver.xdotool("mousemove", String(record.x), String(record.y))
        try driver.xdotool("mousedown", "1")
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Stop") }, "recording while held")
        XCTAssertTrue(try driver.shows("Release to save"))
        usleep(1_500_000)
        try driver.xdotool("mouseup", "1")
        XCTAssertTrue(try driver.eventually { try driver.sliders().count == 1 }, "released: saved")
        XCTAssertTrue(try driver.buttons().contains("Record"), "and not recording again: the release is not a click")
        let saved = try XCTUnwrap(try driver.sliders().first)
        XCTAssertGreaterThan(saved.maximum, 1.0)

        // Held, dragged away, released: nothing is kept.
        try driver.xdotool("mousemove", String(record.x), String(record.y))
        try driver.xdotool("mousedown", "1")
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Stop") })
        usleep(1_000_000)
        for step in 1...6 { try driver.xdotool("mousemove", String(record.x), String(record.y - 25 * step)) }
        XCTAssertTrue(try driver.eventually { try driver.shows("Release to cancel") }, "it says what releasing will do")
        try driver.xdotool("mouseup", "1")
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Record") })
        XCTAssertEqual(try driver.sliders().count, 1, "the dragged-away take is gone")

        // A plain click still toggles.
        try driver.xdotool("mousemove", String(record.x), String(record.y))
        try driver.xdotool("click", "1")
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Stop") }, "a click starts")
        usleep(1_000_000)
        try driver.xdotool("click", "1")
        XCTAssertTrue(try driver.eventually { try driver.sliders().count == 2 }, "a second click saves")
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    func testKeyboardPlaysRenamesDeletesUndoesAndShowsShortcuts() throws {
        for (name, seconds) in [("first", 2), ("second", 8)] {
            let path = try tone("\(name).ogg", seconds: seconds)
            XCTAssertEqual(try ChildProcess.run(harkExecutable, ["import", path],
                                                environment: ["XDG_DATA_HOME": data.url.path]).status, 0)
        }
        let server = try PulseAudioServer()  // somewhere to play to
        let app = try ChildProcess(harkExecutable, [], environment: environment.merging(server.clientEnvironment) { $1 })
        XCTAssertTrue(try driver.eventually { try driver.sliders().count == 2 }, app.output)

        // Space plays the last message, and pauses it.
        _ = try driver.focusWindow()
        try driver.key("space")
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Pause") }, "Space plays: \(app.output)")
        try driver.key("space")
        XCTAssertTrue(try driver.eventually { try !driver.buttons().contains("Pause") }, "Space pauses")
        let position = try XCTUnwrap(try driver.sliders().last).current
        XCTAssertGreaterThan(position, 0)

        // F2 renames the last message.
        try driver.key("F2")
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Rename") }, "the rename dialog: \(app.output)")
        try driver.key("ctrl+a")
        try driver.type("Dentist on Monday")
        try driver.key("Return")
        XCTAssertTrue(try driver.eventually { try driver.shows("Dentist on Monday") }, "renamed")
        XCTAssertTrue(try listed().contains("Dentist on Monday"), "in the store")

        // Delete from the menu, Ctrl+Z brings it back.
        try driver.click("Message Menu", "Delete")
        XCTAssertTrue(try driver.eventually { try driver.sliders().count == 1 }, "deleted")
        _ = try driver.focusWindow()
        try driver.key("ctrl+z")
        XCTAssertTrue(try driver.eventually { try driver.sliders().count == 2 }, "Ctrl+Z undoes")

        // Ctrl+? shows the shortcuts window.
        _ = try driver.focusWindow()
        try driver.key("ctrl+question")
        XCTAssertTrue(try driver.eventually { try driver.shows("Undo the last deletion") }, "the shortcuts window")
        _ = try driver.focusWindow("^hark$")  // GTK names an untitled window after the program
        try driver.key("Escape")
        XCTAssertTrue(try driver.eventually { try !driver.shows("Undo the last deletion") }, "Escape closes it")
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    func testImportThroughTheChooserAndExportFromTheMenu() throws {
        let good = try tone("Interview.ogg", seconds: 3)
        let bad = data.path("notes.ogg")
        try Data("this is text, not sound".utf8).write(to: URL(fileURLWithPath: bad))
        let app = try startApp()

        // Ctrl+I, then the path typed into GTK's chooser.
        for path in [bad, good] {
            _ = try driver.focusWindow()
            try driver.key("ctrl+i")
            XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Import") }, "the chooser")
            try driver.type(path)
            usleep(300_000)
            try driver.key("Return")
            XCTAssertTrue(try driver.eventually { try !driver.buttons().contains("Import") }, "the chooser closed")
        }
        XCTAssertTrue(try driver.eventually { try driver.shows("“notes.ogg” could not be imported") },
                      "the error names the file")
        XCTAssertTrue(try driver.eventually { try driver.sliders().count == 1 }, "the good one is imported")
        XCTAssertEqual(try driver.sliders().first?.maximum ?? 0, 3, accuracy: 0.05)
        XCTAssertTrue(try driver.shows("Interview"))

        // Export… from the message's menu, to a path typed into the chooser.
        let exported = data.path("copy of interview.ogg")
        try driver.click("Message Menu", "Export…")
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Export") }, "the chooser")
        try driver.key("ctrl+a")
        try driver.type(exported)
        usleep(300_000)
        try driver.key("Return")
        XCTAssertTrue(try driver.eventually { FileManager.default.fileExists(atPath: exported) }, "exported")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: exported)), try Data(contentsOf: URL(fileURLWithPath: good)))
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    func testTheNextMessagePlaysByItselfUnlessTurnedOff() throws {
        // Three seconds each: long enough that the probe (a second a look) sees each one play.
        for name in ["one", "two"] {
            let path = try tone("\(name).ogg", seconds: 3)
            XCTAssertEqual(try ChildProcess.run(harkExecutable, ["import", path],
                                                environment: ["XDG_DATA_HOME": data.url.path]).status, 0)
            usleep(1_100_000)  // imports keep their file's date: "two" is a second newer
        }
        let server = try PulseAudioServer()
        let app = try ChildProcess(harkExecutable, [], environment: environment.merging(server.clientEnvironment) { $1 })
        XCTAssertTrue(try driver.eventually { try driver.sliders().count == 2 }, app.output)

        try driver.click("Play")  // the first row's
        XCTAssertTrue(try driver.eventually { try (driver.sliders().last?.current ?? 0) > 0 }, "the second one plays next")

        try driver.click("Main Menu", "Play Next Message Automatically")
        XCTAssertTrue(try driver.eventually { try !driver.buttons().contains("Pause") }, "everything ended")
        try driver.click("Play")
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Pause") }, "the first plays")
        XCTAssertTrue(try driver.eventually { try !driver.buttons().contains("Pause") }, "and ends")
        for _ in 0..<3 {
            XCTAssertFalse(try driver.buttons().contains("Pause"), "nothing plays next")
            XCTAssertEqual(try driver.sliders().last?.current ?? -1, 0, "the second one stays at its start")
        }
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    func testTheChosenMicrophoneIsOfferedAndRemembered() throws {
        let server = try PulseAudioServer()
        let env = environment.filter { $0.key != "HARK_RECORD_SOURCE" }.merging(server.clientEnvironment) { $1 }
        var app = try ChildProcess(harkExecutable, [], environment: env)
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Record") }, app.output)
        try driver.click("Microphone")
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Monitor of Hark_Test_Sink") },
                      "the server's inputs")
        XCTAssertTrue(try driver.buttons().contains("System Default"))
        try driver.click("Monitor of Hark_Test_Sink")
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        let (_, stored) = try ChildProcess.run("/usr/bin/python3", ["-c",
            "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select value from meta where key='setting.microphone'\").fetchone())",
            data.path("hark/hark.sqlite3")])
        XCTAssertTrue(stored.contains(PulseAudioServer.monitorName), "remembered: \(stored)")

        // Recording after a restart uses it (the test server's monitor is its default too, so
        // the proof is that the choice survives and recording works).
        app = try ChildProcess(harkExecutable, [], environment: env)
        XCTAssertTrue(try driver.eventually { try driver.buttons().contains("Record") }, app.output)
        try server.makeMonitorLive()
        try driver.probe(["--click", "Record", "--sleep", "1.5", "--click", "Stop"])
        XCTAssertTrue(try driver.eventually { try driver.sliders().count == 1 }, "recorded from the chosen input: \(app.output)")
        XCTAssertEqual(try driver.quit(app), 0, app.output)
    }
}
