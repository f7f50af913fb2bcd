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
        ["XDG_DATA_HOME": data.url.path, "HOME": data.url.path, "HARK_RECORD_SOURCE": "audiotestsrc is-live=true wave=sine volume=0.3"]
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
        try driver.waitFor("the Record button") { try driver.buttons().contains("Record") }
        return app
    }

    func testHoldingRecordRecordsUntilReleaseAndDraggingAwayCancels() throws {
        let app = try startApp()
        let record = try driver.centre(of: "Record")
        try driver.xdotool("mousemove", String(record.x), String(record.y))
        try driver.xdotool("mousedown", "1")
        try driver.waitFor("recording while held") { try driver.buttons().contains("Stop") }
        XCTAssertTrue(try driver.shows("Release to save"))
        usleep(1_500_000)
        try driver.xdotool("mouseup", "1")
        try driver.waitFor("released: saved") { try driver.sliders().count == 1 }
        XCTAssertTrue(try driver.buttons().contains("Record"), "and not recording again: the release is not a click")
        let saved = try XCTUnwrap(try driver.sliders().first)
        XCTAssertGreaterThan(saved.maximum, 1.0)

        // Held, dragged away, released: nothing is kept.
        try driver.xdotool("mousemove", String(record.x), String(record.y))
        try driver.xdotool("mousedown", "1")
        try driver.waitFor("recording: a Stop button") { try driver.buttons().contains("Stop") }
        usleep(1_000_000)
        for step in 1...6 { try driver.xdotool("mousemove", String(record.x), String(record.y - 25 * step)) }
        try driver.waitFor("it says what releasing will do") { try driver.shows("Release to cancel") }
        try driver.xdotool("mouseup", "1")
        try driver.waitFor("the Record button") { try driver.buttons().contains("Record") }
        XCTAssertEqual(try driver.sliders().count, 1, "the dragged-away take is gone")

        // A plain click still toggles.
        try driver.xdotool("mousemove", String(record.x), String(record.y))
        try driver.xdotool("click", "1")
        try driver.waitFor("a click starts") { try driver.buttons().contains("Stop") }
        usleep(1_000_000)
        try driver.xdotool("click", "1")
        try driver.waitFor("a second click saves") { try driver.sliders().count == 2 }
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
        try driver.waitFor("both messages listed") { try driver.sliders().count == 2 }

        // Space plays the last message, and pauses it.
        _ = try driver.focusWindow()
        try driver.key("space")
        try driver.waitFor("Space plays") { try driver.isPlaying() }
        try driver.key("space")
        try driver.waitFor("Space pauses") { try !driver.isPlaying() }
        let position = try XCTUnwrap(try driver.sliders().last).current
        XCTAssertGreaterThan(position, 0)

        // F2 renames the last message.
        try driver.key("F2")
        try driver.waitFor("the rename dialog") { try driver.buttons().contains("Rename") }
        try driver.key("ctrl+a")
        try driver.type("Dentist on Monday")
        try driver.key("Return")
        try driver.waitFor("renamed") { try driver.shows("Dentist on Monday") }
        XCTAssertTrue(try listed().contains("Dentist on Monday"), "in the store")

        // Delete from the menu, Ctrl+Z brings it back.
        try driver.click(try driver.rowMenu(), "Delete")
        try driver.waitFor("deleted") { try driver.sliders().count == 1 }
        _ = try driver.focusWindow()
        try driver.key("ctrl+z")
        try driver.waitFor("Ctrl+Z undoes") { try driver.sliders().count == 2 }

        // Ctrl+? shows the shortcuts window.
        _ = try driver.focusWindow()
        try driver.key("ctrl+question")
        try driver.waitFor("the shortcuts window") { try driver.shows("Undo the last deletion") }
        _ = try driver.focusWindow("^hark$")  // GTK names an untitled window after the program
        try driver.key("Escape")
        try driver.waitFor("Escape closes it") { try !driver.shows("Undo the last deletion") }
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    func testTypingSearchesTheHistoryAndEscapeBringsItBack() throws {
        for name in ["Dentist-appointment", "Groceries"] {
            let path = try tone("\(name).ogg", seconds: 2)
            XCTAssertEqual(try ChildProcess.run(harkExecutable, ["import", path],
                                                environment: ["XDG_DATA_HOME": data.url.path]).status, 0)
        }
        let app = try ChildProcess(harkExecutable, [], environment: environment)
        try driver.waitFor("both messages listed") { try driver.sliders().count == 2 }
        XCTAssertTrue(try driver.shows("Today"), "under today's header")

        // The mouse wheel over a waveform scrolls; it never seeks.
        let first = try XCTUnwrap(try driver.sliders().first)
        let over = try driver.screenPoint(x: first.x + first.width / 2, y: first.y + first.height / 2)
        try driver.xdotool("mousemove", String(over.x), String(over.y))
        try driver.xdotool("click", "--repeat", "6", "--delay", "50", "5")
        try driver.xdotool("click", "--repeat", "3", "--delay", "50", "4")
        XCTAssertEqual(try driver.sliders().map(\.current), [0, 0], "no message moved")
        _ = try driver.focusWindow()
        try driver.type("dent")
        try driver.waitFor("only the match") { try driver.sliders().count == 1 }
        XCTAssertTrue(try driver.shows("Dentist-appointment"))
        try driver.type("xyz")
        try driver.waitFor("no match") { try driver.shows("No Messages Found") }
        try driver.key("Escape")
        try driver.waitFor("the whole history again") { try driver.sliders().count == 2 }
        try driver.key("ctrl+f")
        try driver.type("yesterday")
        try driver.waitFor("a day with nothing recorded") { try driver.shows("No Messages Found") }
        try driver.key("Escape")
        try driver.waitFor("the whole history again") { try driver.sliders().count == 2 }
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
            try driver.waitFor("the chooser") { try driver.buttons().contains("Import") }
            try driver.type(path)
            try driver.waitFor("the typed path in the chooser") { try driver.entryHolds(path) }
            try driver.key("Return")
            try driver.waitFor("the chooser closed") { try !driver.buttons().contains("Import") }
        }
        try driver.waitFor("the error names the file") { try driver.shows("“notes.ogg” could not be imported") }
        try driver.waitFor("the good one is imported") { try driver.sliders().count == 1 }
        XCTAssertEqual(try driver.sliders().first?.maximum ?? 0, 3, accuracy: 0.05)
        XCTAssertTrue(try driver.shows("Interview"))

        // Export… from the message's menu, to a path typed into the chooser.
        let exported = data.path("copy of interview.ogg")
        try driver.click(try driver.rowMenu(), "Export…")
        try driver.waitFor("the chooser") { try driver.buttons().contains("Export") }
        try driver.key("ctrl+a")
        try driver.type(exported)
        try driver.waitFor("the typed path in the chooser") { try driver.entryHolds(exported) }
        try driver.key("Return")
        driver.waitFor("exported") { FileManager.default.fileExists(atPath: exported) }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: exported)), try Data(contentsOf: URL(fileURLWithPath: good)))
        try driver.waitFor("the toast offers to show the file") { try driver.buttons().contains("Show in Files") }

        // A name ending in .mp3: an MP3, transcoded off the main thread, readable by anyone.
        let mp3 = data.path("for my phone.mp3")
        try driver.click(try driver.rowMenu(), "Export…")
        try driver.waitFor("the chooser") { try driver.buttons().contains("Export") }
        try driver.key("ctrl+a")
        try driver.type(mp3)
        try driver.waitFor("the typed path in the chooser") { try driver.entryHolds(mp3) }
        try driver.key("Return")
        driver.waitFor("exported as MP3") { FileManager.default.fileExists(atPath: mp3) }
        let (_, type) = try ChildProcess.run("/usr/bin/gst-typefind-1.0", [mp3])
        XCTAssertTrue(type.contains("audio/mpeg"), type)
        let (_, levels) = try ChildProcess.run(harkExecutable, ["levels", mp3, "--json"])
        XCTAssertTrue(levels.contains("\"duration_s\": 3.0") || levels.contains("\"duration_s\": 2.9"), levels)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: mp3)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o044, 0o044, "readable by others: \(String(mode, radix: 8))")

        // The next export offers MP3 again, in the name and the list alike; a
        // typed ".wav" turns the list to WAV as it is typed, and a WAV is written.
        try driver.click(try driver.rowMenu(), "Export…")
        try driver.waitFor("the chooser") { try driver.buttons().contains("Export") }
        try driver.waitFor("the name offered as an MP3") { try driver.entryHolds("Interview.mp3") }
        XCTAssertEqual(try listedFormats(), ["MP3"], "the format list agrees with the name")
        let wav = data.path("take three.wav")
        try driver.key("ctrl+a")
        try driver.type(wav)
        try driver.waitFor("the typed path in the chooser") { try driver.entryHolds(wav) }
        try driver.waitFor("the list follows the typed extension") { try listedFormats() == ["WAV"] }
        try driver.key("Return")
        driver.waitFor("exported as WAV") { FileManager.default.fileExists(atPath: wav) }
        let (_, wavType) = try ChildProcess.run("/usr/bin/gst-typefind-1.0", [wav])
        XCTAssertTrue(wavType.contains("audio/x-wav"), wavType)
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.path("take three.ogg")), "nothing under another name")

        // Typed over the offered name's selected base ("Interview" of
        // "Interview.wav", in the last export's folder): the typed extension
        // replaces the offered one.
        try driver.click(try driver.rowMenu(), "Export…")
        try driver.waitFor("the chooser") { try driver.buttons().contains("Export") }
        try driver.waitFor("the name offered as a WAV") { try driver.entryHolds("Interview.wav") }
        try driver.type("take four.mp3")
        try driver.waitFor("only the typed extension") { try driver.entryHolds("take four.mp3") }
        try driver.waitFor("the list follows it") { try listedFormats() == ["MP3"] }
        try driver.key("Return")
        let four = data.path("take four.mp3")
        driver.waitFor("exported as MP3 into the last export's folder") { FileManager.default.fileExists(atPath: four) }
        XCTAssertTrue(try ChildProcess.run("/usr/bin/gst-typefind-1.0", [four]).output.contains("audio/mpeg"))

        // Copy from the menu: the clipboard holds a file, as other apps read it (xclip).
        try driver.click(try driver.rowMenu(), "Copy")
        var uris = ""
        driver.waitFor("a file on the clipboard") {
            uris = (try? ChildProcess.run("/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", "text/uri-list"],
                                          seconds: 10).output) ?? ""
            return uris.hasPrefix("file://")
        }
        let copied = try XCTUnwrap(uris.split(whereSeparator: \.isNewline).first.flatMap { URL(string: String($0)) }, uris)
        XCTAssertEqual(copied.lastPathComponent, "Interview.ogg", "named after the message")
        XCTAssertEqual(try Data(contentsOf: copied), try Data(contentsOf: URL(fileURLWithPath: good)), "its audio, unchanged")
        let copiedMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: copied.path)[.posixPermissions] as? Int)
        XCTAssertEqual(copiedMode & 0o044, 0o044, "readable by the app it is pasted in")
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    /// The formats the export chooser's list of file types shows: its one
    /// selected item. (GTK's empty list read "(None)", which a GtkDropDown
    /// keeps in a page of its own that AT-SPI reports even when not shown.)
    private func listedFormats() throws -> Set<String> {
        let names = Set(["Ogg Opus", "MP3", "WAV"].flatMap { [$0, "\($0) (original)"] })
        return Set(try driver.shownTexts().map(\.text).filter(names.contains))
    }

    func testTheNextMessagePlaysByItselfUnlessTurnedOff() throws {
        // Twelve seconds each: long enough that the probe (a second a look,
        // several on a loaded machine) sees each one play.
        for (name, minutesAgo) in [("one", 2.0), ("two", 1.0)] {
            let path = try tone("\(name).ogg", seconds: 12)
            // Imports keep their file's date: "two" is the newer.
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60 * minutesAgo)],
                                                  ofItemAtPath: path)
            XCTAssertEqual(try ChildProcess.run(harkExecutable, ["import", path],
                                                environment: ["XDG_DATA_HOME": data.url.path]).status, 0)
        }
        let server = try PulseAudioServer()
        let app = try ChildProcess(harkExecutable, [], environment: environment.merging(server.clientEnvironment) { $1 })
        try driver.waitFor("both messages listed") { try driver.sliders().count == 2 }

        try driver.click(try XCTUnwrap(try driver.rowButtons("Play").first))  // the first row's
        try driver.waitFor("the second one plays next", seconds: 40) { try (driver.sliders().last?.current ?? 0) > 0 }

        try driver.click("Main Menu", "Play Next Message Automatically")
        try driver.waitFor("everything ended", seconds: 60) { try !driver.isPlaying() }
        try driver.click(try XCTUnwrap(try driver.rowButtons("Play").first))
        try driver.waitFor("the first plays") { try driver.isPlaying() }
        try driver.waitFor("and ends", seconds: 60) { try !driver.isPlaying() }
        for _ in 0..<3 {
            XCTAssertFalse(try driver.isPlaying(), "nothing plays next")
            XCTAssertEqual(try driver.sliders().last?.current ?? -1, 0, "the second one stays at its start")
        }
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    func testThroughAtSpiTheNowPlayingStripNamesWhatPlaysPausesAndCloses() throws {
        let path = try tone("strip.ogg", seconds: 30)
        XCTAssertEqual(try ChildProcess.run(harkExecutable, ["import", path], environment: ["XDG_DATA_HOME": data.url.path]).status, 0)
        let app = try ChildProcess(harkExecutable, [], environment: environment.merging(["HARK_AUDIO_SINK": "fakesink sync=true"]) { $1 })
        try driver.waitFor("the message listed") { try driver.sliders().count == 1 }
        XCTAssertFalse(try driver.buttons().contains("Stop and Close"), "nothing loaded: no strip")
        let play = try XCTUnwrap(try driver.rowButtons("Play").first)
        let title = String(play.dropFirst("Play ".count))
        try driver.click(play)
        try driver.waitFor("the strip, playing") {
            let buttons = try driver.buttons()
            return ["Go to “\(title)”", "Pause Playback", "Stop and Close"].allSatisfy(buttons.contains)
        }
        try driver.click("Pause Playback")
        try driver.waitFor("paused from the strip") { try driver.buttons().contains("Resume Playback") && !driver.isPlaying() }
        try driver.click("Stop and Close")
        try driver.waitFor("the strip gone") { try !driver.buttons().contains("Stop and Close") }
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    func testTheChosenMicrophoneIsOfferedAndRemembered() throws {
        let server = try PulseAudioServer()
        let env = environment.filter { $0.key != "HARK_RECORD_SOURCE" }.merging(server.clientEnvironment) { $1 }
        var app = try ChildProcess(harkExecutable, [], environment: env)
        try driver.waitFor("the Record button") { try driver.buttons().contains("Record") }
        try driver.click("Microphone")
        try driver.waitFor("the server's inputs") { try driver.buttons().contains("Monitor of Hark_Test_Sink") }
        // The test server has no microphone: its default input is the sink's monitor, and both
        // the menu and the composer say so before anything is recorded.
        let offered = try driver.buttons()
        XCTAssertTrue(offered.contains("System Default (no microphone: records what plays)"), "\(offered)")
        XCTAssertTrue(try driver.shows("No microphone was found"), "the composer says so")
        XCTAssertTrue(offered.contains("Reduce Background Noise"), "\(offered)")
        try driver.click("Monitor of Hark_Test_Sink")
        try driver.waitFor("no warning for a monitor chosen on purpose") { try !driver.shows("No microphone was found") }
        try driver.click("Microphone")
        try driver.waitFor("the menu again") { try driver.buttons().contains("Reduce Background Noise") }
        try driver.click("Reduce Background Noise")
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        func setting(_ key: String) throws -> String {
            try ChildProcess.run("/usr/bin/python3", ["-c",
                "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select value from meta where key=?\", (sys.argv[2],)).fetchone())",
                data.path("hark/hark.sqlite3"), "setting." + key]).output
        }
        let stored = try setting("microphone")
        XCTAssertTrue(stored.contains(PulseAudioServer.monitorName), "remembered: \(stored)")
        XCTAssertTrue(try setting("reduce-noise").contains("off"), "turned off and remembered")

        // Recording after a restart uses it (the test server's monitor is its default too, so
        // the proof is that the choice survives and recording works).
        app = try ChildProcess(harkExecutable, [], environment: env)
        try driver.waitFor("the Record button") { try driver.buttons().contains("Record") }
        try server.makeMonitorLive()
        try driver.probe(["--click", "Record", "--sleep", "1.5", "--click", "Stop"])
        try driver.waitFor("recorded from the chosen input") { try driver.sliders().count == 1 }
        XCTAssertEqual(try driver.quit(app), 0, app.output)
    }
}
