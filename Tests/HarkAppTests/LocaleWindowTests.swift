import Foundation
import HarkTestSupport
import XCTest

/// The window in each language Hark is translated into, read as a screen
/// reader reads it (AT-SPI): with LANG set as a desktop sets it, its
/// controls carry the translated names (gettext, from the catalogues
/// scripts/build-locale made), its day header is the language's, and in
/// Persian the window is mirrored: the header bar's ends swap sides.
final class LocaleWindowTests: XCTestCase {
    private let driver = AppDriver(windowName: "Hark")
    private static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// ENGLISH in LANGUAGE, as the catalogue says (gettext's own command).
    private static func translated(_ english: String, into language: String) throws -> String {
        let result = try ChildProcess.run("/usr/bin/gettext", ["-d", "hark", english], environment: [
            "TEXTDOMAINDIR": checkout.appendingPathComponent(".build/locale").path,
            "LANGUAGE": language, "LANG": "en_US.UTF-8", "LC_ALL": ""])
        return result.output
    }

    private func texts() throws -> [String] {
        try driver.shownTexts().map(\.text)
    }

    /// Runs Hark with LANG=`locale` over one message, then `body`.
    private func withHark(locale: String, _ body: () throws -> Void) throws {
        let data = try ScratchFolder()
        let path = data.path("Groceries.ogg")
        try gstLaunch("audiotestsrc num-buffers=300 samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\"\(path)\"")
        XCTAssertEqual(try ChildProcess.run(harkExecutable, ["import", path], environment: ["XDG_DATA_HOME": data.url.path]).status, 0)
        let app = try ChildProcess(harkExecutable, [], environment: [
            "XDG_DATA_HOME": data.url.path, "HOME": data.url.path, "HARK_AUDIO_SINK": "fakesink sync=true",
            "LANG": locale, "LC_ALL": "", "LANGUAGE": ""])
        try driver.waitFor("the message listed") { try driver.shows("Groceries") }
        try body()
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: app.output), [], app.output)
    }

    func testTheWindowSpeaksEachLanguage() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("needs an X display and a session bus: run with `make test`")
        }
        for (locale, language) in [("fa_IR.UTF-8", "fa"), ("zh_CN.UTF-8", "zh_CN"), ("el_GR.UTF-8", "el"),
                                   ("ko_KR.UTF-8", "ko"), ("de_DE.UTF-8", "de"), ("es_ES.UTF-8", "es")] {
            let record = try Self.translated("Record", into: language)
            let menu = try Self.translated("Main Menu", into: language)
            let today = try Self.translated("Today", into: language)
            XCTAssertNotEqual(record, "Record", "\(language) translates Record")
            XCTAssertNotEqual(today, "Today", "\(language) translates Today")
            try withHark(locale: locale) {
                let shown = try texts()
                for word in [record, menu, today] {
                    XCTAssertTrue(shown.contains(word), "\(locale): “\(word)” among \(shown)")
                }
                XCTAssertFalse(shown.contains("Record"), "\(locale): no English Record left")
            }
        }
    }

    /// Persian is right to left: GTK mirrors the window, so the header bar's
    /// start (Search) is at the right of its end (the main menu), not the left.
    func testPersianMirrorsTheWindow() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("needs an X display and a session bus: run with `make test`")
        }
        var order: [String: Bool] = [:]
        for (locale, language) in [("en_US.UTF-8", "en"), ("fa_IR.UTF-8", "fa")] {
            try withHark(locale: locale) {
                let search = try driver.extents(of: try Self.translated("Search", into: language))
                let menu = try driver.extents(of: try Self.translated("Main Menu", into: language))
                order[language] = search.x < menu.x
            }
        }
        XCTAssertEqual(order["en"], true, "left to right, Search is at the left of the main menu")
        XCTAssertEqual(order["fa"], false, "in Persian, at its right")
    }
}
