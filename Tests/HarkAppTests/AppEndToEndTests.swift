import Foundation
import HarkTestSupport
import XCTest

/// The whole app as a user meets it, through what a screen reader sees and
/// does (AT-SPI), with speech played into a private PulseAudio server's
/// default source: record, stop, find the message, play it, seek, delete,
/// undo, quit, start again.
final class AppEndToEndTests: XCTestCase {
    private struct Slider: Decodable, Equatable { let minimum, maximum, current: Double }
    private struct Buttons: Decodable { let buttons: [String] }
    private struct Found: Decodable { let found: Bool }

    private var probe: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/atspi-probe").path
    }

    private func run(_ arguments: [String], expectSuccess: Bool = true) throws -> [Substring] {
        let (status, output) = try ChildProcess.run(probe, arguments, seconds: 60)
        if expectSuccess { XCTAssertEqual(status, 0, "\(arguments): \(output)") }
        return output.split(separator: "\n").filter { $0.hasPrefix("{") }
    }

    private func sliders(_ arguments: [String] = []) throws -> [Slider] {
        try run(arguments).filter { $0.contains("\"maximum\"") }
            .map { try JSONDecoder().decode(Slider.self, from: Data($0.utf8)) }
    }

    private func buttons() throws -> [String] {
        try run([]).compactMap { try? JSONDecoder().decode(Buttons.self, from: Data($0.utf8)) }.first?.buttons ?? []
    }

    private func click(_ name: String) throws { _ = try run(["--click", name]) }

    private func shows(_ text: String) throws -> Bool {
        try run(["--text", text]).compactMap { try? JSONDecoder().decode(Found.self, from: Data($0.utf8)) }.first?.found ?? false
    }

    private func eventually(_ seconds: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try condition() { return true }
            usleep(200_000)
        } while Date() < deadline
        return false
    }

    func testRecordPlaySeekDeleteUndoAndRestart() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            return XCTFail("needs an X display and a session bus: run with `make test`")
        }
        let server = try PulseAudioServer()
        let speech = server.folder.path("speech.wav")
        try PulseAudioServer.speech("This is a voice message for the end to end test. " +
                                    "It keeps talking for a while, so that there is something to record. " +
                                    "One, two, three, four, five, six, seven, eight, nine, ten.", to: speech)
        let data = try ScratchFolder()
        let environment = server.clientEnvironment.merging(["XDG_DATA_HOME": data.url.path]) { $1 }

        var app = try ChildProcess(harkExecutable, [], environment: environment)
        XCTAssertTrue(try eventually { try buttons().contains("Record") }, "a Record button; output:\n\(app.output)")
        XCTAssertEqual(try sliders(), [], "no messages yet")

        try click("Record")
        XCTAssertTrue(try eventually { try buttons().contains("Stop") })
        XCTAssertTrue(try buttons().contains("Pause") && buttons().contains("Cancel"))
        try click("Cancel")
        XCTAssertTrue(try eventually { try buttons().contains("Record") }, "cancelled")
        XCTAssertEqual(try sliders(), [], "a cancelled recording leaves nothing")

        // Record 3 s of speech, timed inside one probe run. (The null sink
        // sends nothing while nothing plays: the speech starts just before.)
        try server.play(speech)
        _ = try run(["--sleep", "0.5", "--click", "Record", "--sleep", "3", "--click", "Stop"])
        XCTAssertTrue(try eventually { try !sliders().isEmpty }, "the message appears")
        let recorded = try XCTUnwrap(try sliders().first)
        // The private server's null sink sends its first sound a second or so
        // after a client connects; a microphone does not.
        // About 3 s. Through AT-SPI and this test server the first part of a
        // second is lost (the CLI records 2.95 s of 3 s from the same server);
        // see the session note.
        XCTAssertGreaterThan(recorded.maximum, 1.5, "about 3 s")
        XCTAssertLessThanOrEqual(recorded.maximum, 3.3)
        XCTAssertEqual(recorded.current, 0)

        // Play, and pause after half a second: the button is "Pause" while it plays.
        _ = try run(["--click", "Play", "--sleep", "1.2", "--click", "Pause"])
        XCTAssertTrue(try eventually { try (sliders().first?.current ?? 0) > 0.3 }, "the playhead moved")
        XCTAssertTrue(try buttons().contains("Play"), "paused: Play again")
        let half = recorded.maximum / 2
        XCTAssertEqual(try sliders(["--set", String(half)]).first?.current ?? -1, half, accuracy: 0.05, "seek by the slider")

        _ = try run(["--click", "Delete", "--sleep", "0.5", "--click", "Undo"])
        XCTAssertTrue(try eventually { try !sliders().isEmpty }, "undone: it is back")
        XCTAssertEqual(try sliders().count, 1)

        let window = try XCTUnwrap(try ChildProcess.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "^Hark$"],
                                                        seconds: 15).output.split(separator: "\n").first.map(String.init))
        _ = try ChildProcess.run("/usr/bin/xdotool", ["windowfocus", "--sync", window], seconds: 15)
        _ = try ChildProcess.run("/usr/bin/xdotool", ["key", "ctrl+q"], seconds: 15)
        XCTAssertEqual(app.waitForExit(seconds: 20), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)

        app = try ChildProcess(harkExecutable, [], environment: environment)
        XCTAssertTrue(try eventually { try !sliders().isEmpty }, "still there after a restart")
        XCTAssertEqual(try sliders().first?.maximum ?? 0, recorded.maximum, accuracy: 0.01)
        app.process.terminate()
        app.waitForExit(seconds: 20)
    }

    func testQuittingWhileRecordingSavesTheRecording() throws {
        let data = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": data.url.path,
                           "HARK_RECORD_SOURCE": "audiotestsrc is-live=true wave=sine volume=0.3"]
        let app = try ChildProcess(harkExecutable, [], environment: environment)
        XCTAssertTrue(try eventually { try buttons().contains("Record") }, app.output)
        _ = try run(["--click", "Record", "--sleep", "2"])
        XCTAssertTrue(try buttons().contains("Stop"), "recording")
        let window = try XCTUnwrap(try ChildProcess.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "^Hark$"],
                                                        seconds: 15).output.split(separator: "\n").first.map(String.init))
        _ = try ChildProcess.run("/usr/bin/xdotool", ["windowfocus", "--sync", window], seconds: 15)
        _ = try ChildProcess.run("/usr/bin/xdotool", ["key", "ctrl+q"], seconds: 15)
        XCTAssertEqual(app.waitForExit(seconds: 20), 0, app.output)
        let (_, listed) = try ChildProcess.run(harkExecutable, ["list", "--json"], environment: ["XDG_DATA_HOME": data.url.path])
        XCTAssertTrue(listed.contains("\"state\":\"ready\""), "saved, not thrown away: \(listed)")
    }

    func testWithNoSoundServerRecordSaysSoAndRecordsNothing() throws {
        let data = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": data.url.path, "PULSE_SERVER": "unix:\(data.path("no-server"))"]
        let app = try ChildProcess(harkExecutable, [], environment: environment)
        XCTAssertTrue(try eventually { try buttons().contains("Record") }, app.output)
        try click("Record")
        XCTAssertTrue(try eventually { try shows("No microphone available") }, "the window says what is wrong")
        XCTAssertTrue(try buttons().contains("Record"), "and is ready to try again")
        XCTAssertEqual(try sliders(), [], "nothing recorded")
        app.process.terminate()
        app.waitForExit(seconds: 20)
        let (_, listed) = try ChildProcess.run(harkExecutable, ["list", "--json"], environment: ["XDG_DATA_HOME": data.url.path])
        XCTAssertTrue(listed.contains("[]"), listed)
    }
}

