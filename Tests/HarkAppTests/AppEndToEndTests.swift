import Foundation
import HarkTestSupport
import XCTest

/// The whole app as a user meets it, with speech played into a private
/// PulseAudio server's default source: record with the mouse, stop, find the
/// message, play it, drag its waveform to seek, delete it from its menu,
/// undo, quit, start again. Read back through what a screen reader sees.
final class AppEndToEndTests: XCTestCase {
    private let driver = AppDriver()

    func testRecordPlaySeekDeleteUndoAndRestart() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            return XCTFail("needs an X display and a session bus: run with `make test`")
        }
        let server = try PulseAudioServer()
        try server.makeMonitorLive()
        let speech = server.folder.path("speech.wav")
        try PulseAudioServer.speech("This is a voice message for the end to end test. " +
                                    "It keeps talking for a while, so that there is something to record. " +
                                    "One, two, three, four, five, six, seven, eight, nine, ten.", to: speech)
        let data = try ScratchFolder()
        let environment = server.clientEnvironment.merging(["XDG_DATA_HOME": data.url.path]) { $1 }

        var app = try ChildProcess(harkExecutable, [], environment: environment)
        try driver.waitFor("a Record button") { try driver.buttons().contains("Record") }
        XCTAssertEqual(try driver.sliders(), [], "no messages yet")
        XCTAssertTrue(try driver.shows("No messages yet"), "the empty state")

        // Ctrl+R and at once Esc: a moment's recording goes without a question.
        _ = try driver.focusWindow()
        try driver.key("ctrl+r", "Escape")
        try driver.waitFor("cancelled") { try driver.buttons().contains("Record") }
        XCTAssertFalse(try driver.buttons().contains("Discard"), "nothing asked")

        // Longer than a few seconds: Cancel asks first, and Keep Recording keeps it.
        try driver.click("Record")
        try driver.waitFor("recording: a Stop button") { try driver.buttons().contains("Stop") }
        XCTAssertTrue(try driver.buttons().contains("Pause") && driver.buttons().contains("Cancel"))
        usleep(4_000_000)
        try driver.click("Cancel")
        try driver.waitFor("Cancel asks") { try driver.buttons().contains("Discard") }
        XCTAssertTrue(try driver.shows("seconds recorded so far will be lost"), "and says what would be lost")
        try driver.click("Keep Recording")
        try driver.waitFor("the question closed") { try !driver.buttons().contains("Discard") }
        XCTAssertTrue(try driver.buttons().contains("Stop"), "still recording")
        try driver.click("Cancel", "Discard")
        try driver.waitFor("discarded") { try driver.buttons().contains("Record") }
        XCTAssertEqual(try driver.sliders(), [], "a cancelled recording leaves nothing")

        // Record 3 s of speech with real clicks on the round button.
        try server.play(speech)
        let button = try driver.centre(of: "Record")
        try driver.xdotool("mousemove", String(button.x), String(button.y))
        try driver.xdotool("click", "1")
        let started = Date()
        usleep(3_000_000)
        try driver.xdotool("click", "1")
        let held = Date().timeIntervalSince(started)
        try driver.waitFor("the message appears") { try !driver.sliders().isEmpty }
        let recorded = try XCTUnwrap(try driver.sliders().first)
        XCTAssertEqual(recorded.maximum, held, accuracy: 0.3, "its duration is the time between the clicks")
        XCTAssertEqual(recorded.maximum, 3, accuracy: 0.4, "about 3 s")
        XCTAssertEqual(recorded.current, 0)

        // Play, and pause a second later: the button is "Pause <title>" while it plays.
        let play = try XCTUnwrap(try driver.rowButtons("Play").first, "the row's play button names its message")
        let title = String(play.dropFirst("Play ".count))
        try driver.click(play, "Pause \(title)")
        try driver.waitFor("the playhead moved") { try (driver.sliders().first?.current ?? 0) > 0.1 }
        XCTAssertTrue(try driver.buttons().contains(play), "paused: Play again")

        // Drag the waveform from its start to its middle: the position follows.
        // (Where it is now: the strip of what plays came under the header bar.)
        let waveform = try XCTUnwrap(try driver.sliders().first)
        let y = waveform.y + waveform.height / 2
        let start = try driver.screenPoint(x: waveform.x + 1, y: y)
        try driver.xdotool("mousemove", String(start.x), String(start.y))
        try driver.xdotool("mousedown", "1")
        for step in 1...10 {
            try driver.xdotool("mousemove", String(start.x + waveform.width * step / 20), String(start.y))
        }
        try driver.xdotool("mouseup", "1")
        let half = recorded.maximum / 2
        let perPixel = recorded.maximum / Double(waveform.width)
        let followed = try driver.eventually { abs((try driver.sliders().first?.current ?? -1) - half) < 0.1 + 2 * perPixel }
        let after = try driver.sliders()
        XCTAssertTrue(followed, "dragged to half: \(after)")
        // A screen reader sets the value: the same seek.
        XCTAssertEqual(try driver.sliders(["--set", "1"]).first?.current ?? -1, 1, accuracy: 0.05)

        // Delete from the message's menu, then Undo in the toast.
        try driver.click(try driver.rowMenu(), "Delete")
        try driver.waitFor("deleted") { try driver.sliders().isEmpty }
        try driver.click("Undo")
        try driver.waitFor("undone: it is back") { try driver.sliders().count == 1 }

        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)

        app = try ChildProcess(harkExecutable, [], environment: environment)
        try driver.waitFor("still there after a restart") { try !driver.sliders().isEmpty }
        XCTAssertEqual(try driver.sliders().first?.maximum ?? 0, recorded.maximum, accuracy: 0.01)
        XCTAssertEqual(try driver.quit(app), 0, app.output)
    }

    /// A window recording a test tone for 2 s into a store of its own, still
    /// recording; and how to list that store (`hark list --json`).
    private func appRecordingForTwoSeconds() throws -> (app: ChildProcess, listed: () throws -> String) {
        let data = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": data.url.path,
                           "HARK_RECORD_SOURCE": "audiotestsrc is-live=true wave=sine volume=0.3"]
        let app = try ChildProcess(harkExecutable, [], environment: environment)
        try driver.waitFor("the Record button") { try driver.buttons().contains("Record") }
        try driver.probe(["--click", "Record", "--sleep", "2"])
        XCTAssertTrue(try driver.buttons().contains("Stop"), "recording")
        return (app, { try ChildProcess.run(harkExecutable, ["list", "--json"], environment: ["XDG_DATA_HOME": data.url.path]).output })
    }

    func testQuittingWhileRecordingSavesTheRecording() throws {
        let (app, list) = try appRecordingForTwoSeconds()
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        let listed = try list()
        XCTAssertTrue(listed.contains("\"state\":\"ready\""), "saved, not thrown away: \(listed)")
    }

    func testSIGTERMWhileRecordingSavesTheTakeAndQuits() throws {
        let (app, list) = try appRecordingForTwoSeconds()
        app.process.terminate()  // SIGTERM, as a session ending sends
        XCTAssertEqual(app.waitForExit(seconds: 20), 0, "quits as Ctrl+Q does: \(app.output)")
        let listed = try list()
        XCTAssertTrue(listed.contains("\"state\":\"ready\""), "the take was saved before it quit: \(listed)")
        XCTAssertFalse(listed.contains("recovered"), "saved by the window, not left for recovery: \(listed)")
    }

    func testWithNoSoundServerRecordSaysSoAndRecordsNothing() throws {
        let data = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": data.url.path, "PULSE_SERVER": "unix:\(data.path("no-server"))"]
        let app = try ChildProcess(harkExecutable, [], environment: environment)
        try driver.waitFor("the Record button") { try driver.buttons().contains("Record") }
        try driver.click("Record")
        try driver.waitFor("the window says what is wrong") { try driver.shows("No microphone available") }
        XCTAssertTrue(try driver.shows("Check that a microphone is connected"), "and what to check")
        XCTAssertTrue(try driver.buttons().contains("Record"), "and is ready to try again")
        XCTAssertEqual(try driver.sliders(), [], "nothing recorded")
        app.process.terminate()
        app.waitForExit(seconds: 20)
        let (_, listed) = try ChildProcess.run(harkExecutable, ["list", "--json"], environment: ["XDG_DATA_HOME": data.url.path])
        XCTAssertTrue(listed.contains("[]"), listed)
    }
}
