import Foundation
import Localization
import XCTest

/// gettext itself, through Hark's wrapper: a catalogue compiled here with
/// msgfmt, in a language with three plural forms, looked up by tr, trn, trc.
final class CatalogueTests: XCTestCase {
    func testTranslationsPluralsAndContextsComeFromTheCatalogue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hark-locale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let messages = folder.appendingPathComponent("uk/LC_MESSAGES")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        let po = folder.appendingPathComponent("uk.po")
        try """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

            msgid "“{title}” was deleted"
            msgstr "«{title}» видалено"

            msgid "{count} message"
            msgid_plural "{count} messages"
            msgstr[0] "{count} повідомлення"
            msgstr[1] "{count} повідомлення (2-4)"
            msgstr[2] "{count} повідомлень"

            msgctxt "a button"
            msgid "Play"
            msgstr "Відтворити"

            """.write(to: po, atomically: true, encoding: .utf8)
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        compile.arguments = ["-o", messages.appendingPathComponent("hark.mo").path, po.path]
        try compile.run()
        compile.waitUntilExit()
        XCTAssertEqual(compile.terminationStatus, 0)

        setenv("HARK_LOCALE_DIR", folder.path, 1)
        setenv("LC_ALL", "uk_UA.UTF-8", 1)
        setenv("LANGUAGE", "uk", 1)
        Localization.start()
        defer {
            unsetenv("HARK_LOCALE_DIR"); unsetenv("LANGUAGE"); setenv("LC_ALL", "C", 1)
            Localization.start()
        }
        XCTAssertEqual(tr("“{title}” was deleted", ["title": "Dentist"]), "«Dentist» видалено")
        XCTAssertEqual(trn("{count} message", "{count} messages", 1), "1 повідомлення")
        XCTAssertEqual(trn("{count} message", "{count} messages", 3), "3 повідомлення (2-4)")
        XCTAssertEqual(trn("{count} message", "{count} messages", 11), "11 повідомлень")
        XCTAssertEqual(trc("a button", "Play"), "Відтворити")
        XCTAssertEqual(trc("a noun", "Play"), "Play", "a context without a translation is the English")
        XCTAssertEqual(tr("Not in the catalogue"), "Not in the catalogue")
    }
}
