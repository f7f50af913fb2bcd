import Foundation
import Localization
import XCTest

final class PlaceholderAndNumberTests: XCTestCase {
    func testPlaceholdersAreFilledByNameWhereverTheTranslationPutsThem() {
        // A translation may order the values differently from English.
        let filled = Placeholders.fill("«{title}» → {file}", [("file", "a.ogg"), ("title", "Dentist")])
        XCTAssertEqual(filled, "«Dentist» → a.ogg")
        XCTAssertEqual(Placeholders.fill("{unknown} stays", [("title", "x")]), "{unknown} stays")
    }

    func testPlaceholderNamesAreFoundInOrderOnce() {
        XCTAssertEqual(Placeholders.names(in: "“{title}” exported as {file} ({title})"), ["title", "file"])
        XCTAssertEqual(Placeholders.names(in: "no {} braces {1} here"), [])
    }

    func testNumbersAreWrittenInTheLocalesDigits() {
        XCTAssertEqual(LocaleNumbers.integer(123, locale: Locale(identifier: "fa_IR")), "۱۲۳")
        XCTAssertEqual(LocaleNumbers.integer(12_345, locale: Locale(identifier: "de_DE")), "12.345")
        XCTAssertEqual(LocaleNumbers.integer(1_234, locale: Locale(identifier: "en_US")), "1234")
        XCTAssertEqual(LocaleNumbers.integer(7, locale: Locale(identifier: "zh_CN")), "7")
        XCTAssertEqual(LocaleNumbers.digits("3:05", locale: Locale(identifier: "fa_IR")), "۳:۰۵")
        XCTAssertEqual(LocaleNumbers.digits("3:05", locale: Locale(identifier: "el_GR")), "3:05")
    }

    func testDecimalsAreWrittenAsTheLocaleWritesThem() {
        XCTAssertEqual(LocaleNumbers.decimal(1.5, locale: Locale(identifier: "fa_IR")), "۱٫۵")
        XCTAssertEqual(LocaleNumbers.decimal(1.5, locale: Locale(identifier: "de_DE")), "1,5")
        XCTAssertEqual(LocaleNumbers.decimal(1.5, locale: Locale(identifier: "zh_CN")), "1.5")
        XCTAssertEqual(LocaleNumbers.decimal(1.5, locale: Locale(identifier: "en_US_POSIX")), "1.5")
        XCTAssertEqual(LocaleNumbers.decimal(2, locale: Locale(identifier: "en_US_POSIX")), "2", "a whole number has no decimals")
        XCTAssertEqual(LocaleNumbers.decimal(2, locale: Locale(identifier: "fa_IR")), "۲")
        XCTAssertEqual(LocaleNumbers.decimal(1250.5, locale: Locale(identifier: "de_DE")), "1250,5", "never grouped")
    }

    func testTheEnvironmentNamesTheLocaleAsTheCLibraryReadsIt() {
        setenv("LANG", "fa_IR.UTF-8", 1)
        setenv("LC_NUMERIC", "de_DE.UTF-8", 1)
        unsetenv("LC_ALL")
        defer { unsetenv("LANG"); unsetenv("LC_NUMERIC") }
        XCTAssertEqual(LocaleNumbers.environmentLocale(category: "LC_NUMERIC").identifier, "de_DE")
        XCTAssertEqual(LocaleNumbers.environmentLocale(category: "LC_TIME").identifier, "fa_IR")
        setenv("LC_ALL", "C", 1)
        defer { unsetenv("LC_ALL") }
        XCTAssertEqual(LocaleNumbers.environmentLocale(category: "LC_TIME").identifier, "en_US_POSIX")
    }
}
