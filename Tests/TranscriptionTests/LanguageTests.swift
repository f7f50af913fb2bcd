import Transcription
import XCTest

final class LanguageTests: XCTestCase {
    func testSettingsAndWhichModelEachNeeds() {
        XCTAssertEqual(TranscriptionLanguage(setting: "en"), .english)
        XCTAssertEqual(TranscriptionLanguage(setting: "auto"), .detected)
        XCTAssertEqual(TranscriptionLanguage(setting: "de"), .fixed("de"))
        XCTAssertNil(TranscriptionLanguage(setting: "xx"))
        XCTAssertNil(TranscriptionLanguage(setting: "DE"))
        XCTAssertEqual(TranscriptionLanguage(storedSetting: nil), .english)
        XCTAssertEqual(TranscriptionLanguage(storedSetting: "garbage"), .english)
        XCTAssertFalse(TranscriptionLanguage.english.needsMultilingualModel)
        XCTAssertTrue(TranscriptionLanguage.detected.needsMultilingualModel)
        XCTAssertTrue(TranscriptionLanguage.fixed("es").needsMultilingualModel)
        XCTAssertEqual(TranscriptionLanguage.fixed("es").name, "Spanish")
        for language in TranscriptionLanguage.all {
            XCTAssertEqual(TranscriptionLanguage(setting: language.setting), language)
        }
        XCTAssertEqual(TranscriptionLanguage.all.prefix(2), [.english, .detected])
        XCTAssertEqual(TranscriptionLanguage.all.count, TranscriptionLanguage.languages.count + 1, "English once")
        let names = TranscriptionLanguage.all.dropFirst(2).map(\.name)
        XCTAssertEqual(names, names.sorted())
    }
}
