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

    func testLanguagesAreNamedAndOrderedInTheUsersLanguage() {
        XCTAssertEqual(TranscriptionLanguage.fixed("de").name(in: Locale(identifier: "en_US")), "German")
        XCTAssertEqual(TranscriptionLanguage.fixed("mi").name(in: Locale(identifier: "en_US_POSIX")), "Maori", "English's own list")
        XCTAssertEqual(TranscriptionLanguage.fixed("de").name(in: Locale(identifier: "de_DE")), "Deutsch")
        XCTAssertEqual(TranscriptionLanguage.fixed("fa").name(in: Locale(identifier: "fa_IR")), "فارسی")
        XCTAssertEqual(TranscriptionLanguage.fixed("ko").name(in: Locale(identifier: "zh_CN")), "韩语")
        XCTAssertEqual(TranscriptionLanguage.fixed("el").name(in: Locale(identifier: "ko_KR")), "그리스어")
        XCTAssertEqual(TranscriptionLanguage.fixed("de").name(in: Locale(identifier: "es_ES")), "Alemán", "a list's line begins in capitals")
        XCTAssertEqual(TranscriptionLanguage.fixed("jw").name(in: Locale(identifier: "de_DE")), "Javanisch", "Whisper's code for Javanese")

        XCTAssertEqual(TranscriptionLanguage.all(in: Locale(identifier: "en_US")), TranscriptionLanguage.all(in: Locale(identifier: "en_GB")))
        let german = Locale(identifier: "de_DE")
        let all = TranscriptionLanguage.all(in: german)
        XCTAssertEqual(all.prefix(2), [.english, .detected])
        XCTAssertEqual(Set(all.map(\.setting)), Set(TranscriptionLanguage.all(in: Locale(identifier: "en_US")).map(\.setting)))
        let names = all.dropFirst(2).map { $0.name(in: german) }
        XCTAssertEqual(names.first, "Afrikaans")
        // German's order, not English's: "Deutsch" (German) before "Finnisch" (Finnish), "Ägyptisch"-like
        // capitals with umlauts among their letters ("Dänisch" between "Chinesisch" and "Deutsch").
        XCTAssertLessThan(try XCTUnwrap(names.firstIndex(of: "Deutsch")), try XCTUnwrap(names.firstIndex(of: "Finnisch")))
        XCTAssertLessThan(try XCTUnwrap(names.firstIndex(of: "Chinesisch")), try XCTUnwrap(names.firstIndex(of: "Dänisch")))
        XCTAssertLessThan(try XCTUnwrap(names.firstIndex(of: "Dänisch")), try XCTUnwrap(names.firstIndex(of: "Deutsch")))
    }
}
