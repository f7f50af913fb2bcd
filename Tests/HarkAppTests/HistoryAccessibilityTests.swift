import Foundation
import HarkTestSupport
import XCTest

/// What a screen reader finds in the history (AT-SPI, as Orca reads it): a
/// list, whose rows are named by their messages, as are their controls.
final class HistoryAccessibilityTests: XCTestCase {
    private let driver = AppDriver()
    private struct Node: Decodable { let role: String; let name: String }
    private struct List: Decodable { let role: String; let name: String; let items: [Node] }

    /// Hark over a store of test tones (title, seconds), imported first.
    private func startHark(over messages: [(title: String, seconds: Int)], in data: ScratchFolder) throws -> ChildProcess {
        for (title, seconds) in messages {
            let path = data.path("\(title).ogg")
            try gstLaunch("audiotestsrc num-buffers=\(seconds * 50) samplesperbuffer=960 volume=0.3 "
                          + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\"\(path)\"")
            XCTAssertEqual(try ChildProcess.run(harkExecutable, ["import", path], environment: ["XDG_DATA_HOME": data.url.path]).status, 0)
        }
        return try ChildProcess(harkExecutable, [], environment: ["XDG_DATA_HOME": data.url.path, "HOME": data.url.path,
                                                                "HARK_AUDIO_SINK": "fakesink sync=true"])
    }

    func testTheHistoryIsAListOfRowsNamedByTheirMessages() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("needs an X display and a session bus: run with `make test`")
        }
        let data = try ScratchFolder()
        let app = try startHark(over: [("Dentist on Monday", 19), ("Groceries", 42)], in: data)
        try driver.waitFor("both messages listed") { try driver.sliders().count == 2 }

        let line = try XCTUnwrap(try driver.probe(["--list", "Messages"]).first)
        let list = try JSONDecoder().decode(List.self, from: Data(line.utf8))
        XCTAssertEqual(list.role, "list", "the history is announced as a list, not a grid")
        XCTAssertEqual(list.items.count, 2, "one item per message (the day's header is no item): \(list.items)")
        for (item, (title, spoken)) in zip(list.items, [("Dentist on Monday", "19 seconds"), ("Groceries", "42 seconds")]) {
            XCTAssertEqual(item.role, "list item", "\(item)")
            XCTAssertTrue(item.name.hasPrefix(title + ", Today at "), "the row reads as its title, day and time: \(item.name)")
            XCTAssertTrue(item.name.hasSuffix(", " + spoken), "and its duration: \(item.name)")
        }
        let buttons = try driver.buttons()
        for title in ["Dentist on Monday", "Groceries"] {
            XCTAssertTrue(buttons.contains("Play \(title)"), "\(buttons)")
            XCTAssertTrue(buttons.contains("Menu for \(title)"), "\(buttons)")
        }
        XCTAssertFalse(buttons.contains("Play"), "no bare Play among the rows: \(buttons)")

        // A rename is heard at once: the row and its controls take the new title.
        struct Listed: Decodable { let id: String; let title: String }
        let store = ["XDG_DATA_HOME": data.url.path]
        let listed = try JSONDecoder().decode([Listed].self, from: Data(try ChildProcess.run(harkExecutable, ["list", "--json"],
                                                                                              environment: store).output.utf8))
        let dentist = try XCTUnwrap(listed.first { $0.title == "Dentist on Monday" })
        XCTAssertEqual(try ChildProcess.run(harkExecutable, ["rename", dentist.id, "Dentist on Tuesday"], environment: store).status, 0)
        try driver.waitFor("the renamed row") { try driver.buttons().contains("Play Dentist on Tuesday") }
        let renamed = try JSONDecoder().decode(List.self, from: Data(try XCTUnwrap(try driver.probe(["--list", "Messages"]).first).utf8))
        XCTAssertTrue(renamed.items.first?.name.hasPrefix("Dentist on Tuesday, Today at ") ?? false, "\(renamed.items)")

        // Playing changes the name with the state (while it plays: a message
        // long enough that one look of the screen reader's, seconds on a busy
        // machine, cannot miss it).
        try driver.click("Play Groceries")
        try driver.waitFor("Pause Groceries") { try driver.buttons().contains("Pause Groceries") }
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    /// Buttons are heard by their words, once: GTK 4.8 named a button by its
    /// inner label and its own name together ("Cancel Cancel", "Send … again
    /// Retry") and kept a mnemonic's underscore ("_Undo Undo").
    func testButtonsAreHeardByTheirWordsOnce() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("needs an X display and a session bus: run with `make test`")
        }
        let data = try ScratchFolder()  // kept until the end: its folder goes with it
        let app = try startHark(over: [("Groceries", 3)], in: data)
        try driver.waitFor("the message listed") { try driver.sliders().count == 1 }
        func buttonNames() throws -> [String] {
            try driver.shownTexts().filter { $0.role == "push button" && $0.kind == "name" }.map(\.text)
        }

        try driver.click("Menu for Groceries", "Rename…")
        try driver.waitFor("the rename dialog") { try buttonNames().contains("Rename") }
        let dialog = try buttonNames()
        XCTAssertTrue(dialog.contains("Cancel"), "\(dialog)")
        XCTAssertFalse(dialog.contains("Cancel Cancel") || dialog.contains("Rename Rename"), "\(dialog)")
        try driver.click("Cancel")
        try driver.waitFor("the dialog closed") { try !buttonNames().contains("Rename") }

        try driver.click("Menu for Groceries", "Delete")
        try driver.waitFor("the deletion's toast") { try buttonNames().contains { $0.contains("Undo") } }
        let toast = try buttonNames().filter { $0.contains("Undo") }
        XCTAssertEqual(Set(toast), ["Undo"], "no underscore, said once")
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }
}
