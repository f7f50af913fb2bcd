import Foundation
import HarkTestSupport
import XCTest

/// Drives a running Hark as its users do: through what a screen reader sees
/// and does (AT-SPI, scripts/atspi-probe) and through the real pointer and
/// keyboard (xdotool). Positions from AT-SPI are inside the window; the
/// window's origin on screen comes from xdotool.
struct AppDriver {
    struct Slider: Decodable, Equatable {
        let minimum, maximum, current: Double
        let x, y, width, height: Int
    }
    struct Extents: Decodable { let x, y, width, height: Int }
    private struct Buttons: Decodable { let buttons: [String] }
    private struct Found: Decodable { let found: Bool }
    struct Click: Decodable { let clicked: String; let at: Double }

    /// The window's title, for xdotool.
    var windowName = "^Hark$"

    private var probe: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/atspi-probe").path
    }

    /// Runs the probe; its JSON lines.
    @discardableResult
    func probe(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [Substring] {
        let (status, output) = try ChildProcess.run(probe, arguments, seconds: 90)
        XCTAssertEqual(status, 0, "\(arguments): \(output)", file: file, line: line)
        return output.split(separator: "\n").filter { $0.hasPrefix("{") }
    }

    func sliders(_ arguments: [String] = []) throws -> [Slider] {
        try probe(arguments).filter { $0.contains("\"maximum\"") }
            .map { try JSONDecoder().decode(Slider.self, from: Data($0.utf8)) }
    }

    /// The names of the visible buttons and menu items.
    func buttons() throws -> [String] {
        try probe([]).compactMap { try? JSONDecoder().decode(Buttons.self, from: Data($0.utf8)) }.first?.buttons
            .map(Self.plainName) ?? []
    }

    /// The history rows' play (or pause) buttons, in order: a row's button
    /// is named after its message ("Play Dentist on Monday").
    func rowButtons(_ verb: String) throws -> [String] {
        try buttons().filter { $0.hasPrefix(verb + " ") && $0 != "Play Next Message Automatically" }
    }

    /// The first row's menu button, named after its message ("Menu for Dentist on Monday").
    func rowMenu() throws -> String {
        try XCTUnwrap(try buttons().first { $0.hasPrefix("Menu for ") }, "no row menu")
    }

    /// Whether a message plays: its row's button reads "Pause <title>" (the
    /// composer's own is plain "Pause").
    func isPlaying() throws -> Bool {
        try !rowButtons("Pause").isEmpty
    }

    /// GTK 4.8 names a button with a mnemonic by its label and its text:
    /// "_Keep Recording Keep Recording" is "Keep Recording".
    static func plainName(_ name: String) -> String {
        let words = name.replacingOccurrences(of: "_", with: "").split(separator: " ")
        let half = words.count / 2
        if words.count % 2 == 0, half > 0, Array(words[..<half]) == Array(words[half...]) {
            return words[..<half].joined(separator: " ")
        }
        return name
    }

    /// Activates buttons (or menu items) by name, in order; when they were clicked.
    @discardableResult
    func click(_ names: String..., file: StaticString = #filePath, line: UInt = #line) throws -> [Click] {
        try probe(names.flatMap { ["--click", $0] }, file: file, line: line)
            .compactMap { try? JSONDecoder().decode(Click.self, from: Data($0.utf8)) }
    }

    func shows(_ text: String) throws -> Bool {
        try probe(["--text", text]).compactMap { try? JSONDecoder().decode(Found.self, from: Data($0.utf8)) }
            .first?.found ?? false
    }

    /// A text a screen reader can say: a node's name, description or shown text.
    struct ShownText: Decodable { let role: String; let kind: String; let text: String }
    private struct ShownTexts: Decodable { let texts: [ShownText] }

    /// Every visible node's texts (the probe's `--all-text`).
    func shownTexts(file: StaticString = #filePath, line: UInt = #line) throws -> [ShownText] {
        let output = try XCTUnwrap(try probe(["--all-text"], file: file, line: line).first, "the probe read nothing",
                                   file: file, line: line)
        return try JSONDecoder().decode(ShownTexts.self, from: Data(output.utf8)).texts
    }

    /// Where a button is, inside its window.
    func extents(of name: String) throws -> Extents {
        let line = try XCTUnwrap(try probe(["--extents", name]).first, "no button named \(name)")
        return try JSONDecoder().decode(Extents.self, from: Data(line.utf8))
    }

    @discardableResult
    func xdotool(_ arguments: String...) throws -> String {
        try ChildProcess.run("/usr/bin/xdotool", arguments, seconds: 15).output
    }

    /// The window's id, after giving it the keyboard focus (by hand: under
    /// Xvfb no window manager moves the focus to a new window).
    func focusWindow(_ title: String? = nil) throws -> String {
        let name = title ?? windowName
        let window = try XCTUnwrap(try xdotool("search", "--onlyvisible", "--name", name)
            .split(separator: "\n").first.map(String.init), "no window named \(name)")
        try xdotool("windowactivate", "--sync", window)
        try xdotool("windowfocus", "--sync", window)
        return window
    }

    /// Presses keys ("ctrl+r", "space"…) in whatever window has the focus
    /// (a dialog, once one is up); call `focusWindow` first for the main one.
    func key(_ keys: String...) throws {
        for key in keys { try xdotool("key", "--clearmodifiers", key) }
    }

    /// Types text into the focused widget.
    func type(_ text: String) throws {
        try xdotool("type", "--delay", "20", text)
    }

    /// The screen position of a point given inside the window.
    func screenPoint(x: Int, y: Int) throws -> (x: Int, y: Int) {
        let geometry = try xdotool("getwindowgeometry", "--shell", try focusWindow())
        func field(_ name: String) -> Int {
            Int(geometry.split(separator: "\n").first { $0.hasPrefix(name + "=") }?.dropFirst(name.count + 1) ?? "") ?? 0
        }
        return (field("X") + x, field("Y") + y)
    }

    /// The centre of a button on screen.
    func centre(of name: String) throws -> (x: Int, y: Int) {
        let box = try extents(of: name)
        return try screenPoint(x: box.x + box.width / 2, y: box.y + box.height / 2)
    }

    /// Looks every 0.2 s until `condition` holds or `seconds` pass; true if it held.
    func eventually(_ seconds: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try condition() { return true }
            usleep(200_000)
        } while Date() < deadline
        return false
    }

    /// Waits for `condition`; when time runs out, the test fails saying what
    /// it waited for, what the screen reader saw last and what Hark printed.
    @discardableResult
    func waitFor(_ what: String, seconds: Double = 20, file: StaticString = #filePath, line: UInt = #line,
                 _ condition: () throws -> Bool) rethrows -> Bool {
        if try eventually(seconds, condition) { return true }
        let seen = (try? probe([], file: file, line: line).joined(separator: "\n")) ?? "(nothing)"
        let outputs = ChildProcess.held(running: harkExecutable).map { child in
            "--- hark \(child.process.arguments?.joined(separator: " ") ?? "") "
                + "(\(child.isRunning ? "running" : "exited \(child.process.terminationStatus)")):\n\(child.output)"
        }
        XCTFail("gave up after \(Int(seconds)) s waiting for: \(what)\nthe screen reader saw:\n\(seen)\n"
                + (outputs.isEmpty ? "(no hark process held by the test)" : outputs.joined(separator: "\n")),
                file: file, line: line)
        return false
    }

    /// Whether a text field of Hark's holds exactly `text` (what was typed arrived).
    func entryHolds(_ text: String) throws -> Bool {
        try probe(["--entry", text]).compactMap { try? JSONDecoder().decode(Found.self, from: Data($0.utf8)) }
            .first?.found ?? false
    }

    /// Quits with Ctrl+Q; the exit status.
    func quit(_ app: ChildProcess) throws -> Int32? {
        _ = try focusWindow()
        try key("ctrl+q")
        return app.waitForExit(seconds: 20)
    }
}
