import Foundation
import MessageStore
import XCTest

/// The one way Hark writes a duration, in the window and on the command line.
final class DurationTextTests: XCTestCase {
    func testClocksRoundToTheNearestSecond() {
        XCTAssertEqual(DurationText.clock(0.92), "0:01", "a short message is never 0:00")
        XCTAssertEqual(DurationText.clock(0.49), "0:00")
        XCTAssertEqual(DurationText.clock(3.5), "0:04")
        XCTAssertEqual(DurationText.clock(19.6), "0:20")
        XCTAssertEqual(DurationText.clock(65.3), "1:05")
        XCTAssertEqual(DurationText.clock(599.5), "10:00")
        XCTAssertEqual(DurationText.clock(3725), "1:02:05")
    }

    func testClocksAreInTheLocalesDigits() {
        XCTAssertEqual(DurationText.clock(65.3, locale: Locale(identifier: "fa_IR")), "۱:۰۵")
        XCTAssertEqual(DurationText.clock(3725, locale: Locale(identifier: "fa_IR")), "۱:۰۲:۰۵")
        for identifier in ["de_DE", "zh_CN", "ko_KR", "en_US_POSIX"] {
            XCTAssertEqual(DurationText.clock(65.3, locale: Locale(identifier: identifier)), "1:05", identifier)
        }
    }

    func testNegativeAndNonFiniteTimesReadZero() {
        XCTAssertEqual(DurationText.clock(-2), "0:00")
        XCTAssertEqual(DurationText.clock(.nan), "0:00")
        XCTAssertEqual(DurationText.clock(.infinity), "0:00")
    }

    func testSpokenDurationsRoundTheSameWay() {
        XCTAssertEqual(DurationText.spoken(0.4), "0 seconds")
        XCTAssertEqual(DurationText.spoken(0.92), "1 second")
        XCTAssertEqual(DurationText.spoken(65.3), "1 minute 5 seconds")
        XCTAssertEqual(DurationText.spoken(120), "2 minutes")
        XCTAssertEqual(DurationText.wholeSeconds(3.5), 4, "the clock and the sentence agree")
    }
}

final class DamageSummaryTests: XCTestCase {
    func testTheUserIsToldWhatWasSavedFromADamagedDatabase() {
        var report = RecoveryReport()
        XCTAssertNil(report.damageSummary)
        report.movedAsideDatabase = "/data/hark.sqlite3.damaged-1"
        XCTAssertEqual(report.damageSummary, "The message database was damaged and could not be read; the messages were "
                       + "rebuilt from their audio files, without their titles, and the damaged file is kept as /data/hark.sqlite3.damaged-1.")
        report.salvagedMessages = 40
        report.lostMessages = 2
        XCTAssertEqual(report.damageSummary, "The message database was damaged: 40 messages were saved from it with their "
                       + "titles (2 could not be read), and the damaged file is kept as /data/hark.sqlite3.damaged-1.")
    }
}
