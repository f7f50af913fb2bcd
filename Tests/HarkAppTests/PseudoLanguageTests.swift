import Foundation
import HarkTestSupport
import XCTest

/// Every text Hark shows or gives a screen reader goes through gettext: run
/// in the pseudo-language (LANGUAGE=pseudo, built by scripts/build-locale,
/// where every translated sentence reads ⟦like this⟧), nothing in the
/// window, its main menu or a row's menu may be left unmarked but what is
/// not Hark's to translate: the user's own titles, times and numbers, and
/// GTK's own words (its window buttons, translated by GTK).
final class PseudoLanguageTests: XCTestCase {
    /// The window's title may be marked too ("⟦Hark⟧").
    private let driver = AppDriver(windowName: "Hark")

    /// GTK's own words, which GTK translates (with its own catalogue, not Hark's).
    private static let gtksOwn: Set<String> = ["Minimize", "Maximize", "Restore", "Close", "Minimize the window",
                                               "Maximize the window", "Restore the window", "Close the window"]

    /// What is not Hark's to translate: an unnamed node's type, the user's
    /// titles, the app's name, and times, clocks and numbers.
    private static func isExempt(_ text: String, titles: Set<String>) -> Bool {
        let plain = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if plain.range(of: #"^(Gtk|Adw)[A-Za-z]+$"#, options: .regularExpression) != nil { return true }
        if gtksOwn.contains(plain) || titles.contains(plain) || plain == "Hark" { return true }
        // A shortcut as GTK writes it beside a menu item, in GTK's words.
        if plain.range(of: #"^((Ctrl|Shift|Alt|Super)\+)+\S+$|^(F[0-9]{1,2}|Delete|Escape|Space|Return)$"#,
                       options: .regularExpression) != nil { return true }
        return plain.range(of: #"^[0-9\s:·/.,×%AaPpMm\u200E\u200F\u202F-]*$"#, options: .regularExpression) != nil
    }

    /// The texts a screen reader can read now that carry no mark.
    private func unmarked(titles: Set<String>) throws -> [String] {
        let texts = try driver.shownTexts()
        XCTAssertFalse(texts.isEmpty, "the probe read the window")
        return Array(Set(texts.filter { !$0.text.contains("⟦") && !Self.isExempt($0.text, titles: titles) }
            .map { "\($0.role) \($0.kind): \($0.text)" })).sorted()
    }

    /// The first visible button whose name holds WORDS (its name marked).
    private func button(named words: String) throws -> String {
        AppDriver.plainName(try XCTUnwrap(try driver.buttons().first { $0.contains(words) }, "a button named \(words)"))
    }

    func testNoTextIsLeftUntranslated() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("needs an X display and a session bus: run with `make test`")
        }
        let data = try ScratchFolder()
        let path = data.path("Groceries.ogg")
        try gstLaunch("audiotestsrc num-buffers=500 samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\"\(path)\"")
        XCTAssertEqual(try ChildProcess.run(harkExecutable, ["import", path], environment: ["XDG_DATA_HOME": data.url.path]).status, 0)
        let app = try ChildProcess(harkExecutable, [], environment: [
            "XDG_DATA_HOME": data.url.path, "HOME": data.url.path, "HARK_AUDIO_SINK": "fakesink sync=true",
            "LANG": "en_US.UTF-8", "LC_ALL": "", "LANGUAGE": "pseudo"])
        try driver.waitFor("the message listed") { try driver.shows("Groceries") }
        let titles: Set<String> = ["Groceries"]

        _ = try driver.focusWindow()
        XCTAssertEqual(try unmarked(titles: titles), [], "the window")
        try driver.click(try button(named: "Main Menu"))
        XCTAssertEqual(try unmarked(titles: titles), [], "the main menu")
        try driver.key("Escape")
        try driver.click(try button(named: "Menu for Groceries"))
        XCTAssertEqual(try unmarked(titles: titles), [], "a row's menu")
        try driver.key("Escape")
        XCTAssertEqual(try driver.quit(app), 0, app.output)
    }
}
