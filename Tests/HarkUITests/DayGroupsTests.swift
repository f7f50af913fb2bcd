import Foundation
@testable import HarkUI
import Testing

/// The history's day headers, against a fixed clock: Tuesday 1 December 2026.
struct DayGroupsTests {
    let calendar = FixedClock.calendar
    let locale = Locale(identifier: "en_GB")
    let now = FixedClock.now

    func daysAgo(_ days: Int, hour: Int = 9) -> Date {
        calendar.date(byAdding: .hour, value: hour, to: calendar.date(byAdding: .day, value: -days, to: calendar.startOfDay(for: now))!)!
    }

    func title(_ date: Date) -> String {
        DayGroups.title(of: calendar.startOfDay(for: date), now: now, calendar: calendar, locale: locale)
    }

    @Test func daysAreNamedAsAMessengerNamesThem() {
        #expect(title(daysAgo(0)) == "Today")
        #expect(title(daysAgo(1)) == "Yesterday")
        #expect(title(daysAgo(2)) == "Sunday")
        #expect(title(daysAgo(6)) == "Wednesday")
        #expect(title(daysAgo(7)) == "Tuesday 24 November", "a week ago: the date, without the year")
        #expect(title(daysAgo(365)) == "1 December 2025", "last year: with the year")
    }

    @Test func dayStartsAreEachDatesOwnAcrossSummerTimeAndInAnyOrder() throws {
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
        // Every 5 hours over three weeks around the end of summer time (25 October 2026), oldest first,
        // then a few out of order.
        let start = try #require(berlin.date(from: DateComponents(year: 2026, month: 10, day: 15, hour: 0, minute: 30)))
        var dates = (0..<100).map { start.addingTimeInterval(Double($0) * 5 * 3600) }
        dates += [dates[3], dates[90], dates[0], dates[45]]
        #expect(DayGroups.dayStarts(of: dates, calendar: berlin) == dates.map { berlin.startOfDay(for: $0) })
        #expect(DayGroups.dayStarts(of: [], calendar: berlin).isEmpty)
    }

    @Test func historyKeysRoundTrip() {
        for item in [HistoryItem.message("a"), .recording] { #expect(HistoryItem(key: item.key) == item) }
    }

    @Test func theTimeOfDayHasNoHiddenSpace() {
        let time = DayGroups.clockTime(daysAgo(0, hour: 17), calendar: calendar, locale: Locale(identifier: "en_US"))
        #expect(time == "5:00 PM")
        #expect(DayGroups.clockTime(daysAgo(0, hour: 17), calendar: calendar, locale: locale) == "17:00")
    }
}

/// Day headers and times of day in the user's locale: its words, its digits,
/// its order, and in Persian its calendar (Solar Hijri, as Iran's).
struct LocalDayGroupsTests {
    let calendar = FixedClock.calendar
    let now = FixedClock.now

    func title(daysAgo days: Int, _ identifier: String) -> String {
        let day = calendar.date(byAdding: .day, value: -days, to: calendar.startOfDay(for: now))!
        return DayGroups.title(of: day, now: now, calendar: calendar, locale: Locale(identifier: identifier))
    }

    func time(hour: Int, _ identifier: String) -> String {
        let date = calendar.date(byAdding: .hour, value: hour, to: calendar.startOfDay(for: now))!
        return DayGroups.clockTime(date, calendar: calendar, locale: Locale(identifier: identifier))
    }

    @Test func weekdaysAndDatesAreTheLocalesOwn() {
        #expect(title(daysAgo: 2, "de_DE") == "Sonntag")
        #expect(title(daysAgo: 7, "de_DE") == "Dienstag, 24. November")
        #expect(title(daysAgo: 365, "de_DE") == "1. Dezember 2025")
        #expect(title(daysAgo: 2, "zh_CN") == "星期日")
        #expect(title(daysAgo: 7, "zh_CN") == "11月24日 星期二")
        #expect(title(daysAgo: 365, "zh_CN") == "2025年12月1日")
        #expect(title(daysAgo: 2, "ko_KR") == "일요일")
        #expect(title(daysAgo: 7, "ko_KR") == "11월 24일 화요일")
        #expect(title(daysAgo: 365, "ko_KR") == "2025년 12월 1일")
    }

    @Test func persianDatesAreInTheSolarHijriCalendarWithPersianDigits() {
        #expect(title(daysAgo: 2, "fa_IR") == "یکشنبه")
        // Tuesday 24 November 2026 is 3 Azar 1405; 1 December 2025 is 10 Azar 1404.
        #expect(title(daysAgo: 7, "fa_IR") == "سه‌شنبه ۳ آذر")
        #expect(title(daysAgo: 365, "fa_IR") == "۱۰ آذر ۱۴۰۴")
        // 1 March 2026 is this Gregorian year but the last Persian one (10 Esfand 1404): its year is said.
        #expect(title(daysAgo: 275, "fa_IR") == "۱۰ اسفند ۱۴۰۴")
        #expect(title(daysAgo: 275, "en_GB") == "Sunday 1 March")
    }

    @Test func timesOfDayAreTheLocalesClock() {
        #expect(time(hour: 17, "fa_IR") == "۱۷:۰۰")
        #expect(time(hour: 17, "de_DE") == "17:00")
        #expect(time(hour: 17, "zh_CN") == "17:00")
        #expect(time(hour: 17, "ko_KR") == "오후 5:00")
    }
}

/// The numbers the window writes beside its sentences, in the locale's digits.
struct LocalNumberTextTests {
    @Test func playbackSpeedsAreTheLocalesDecimals() {
        #expect(MessageRow.rateText(1.5, locale: Locale(identifier: "en_US_POSIX")) == "1.5×")
        #expect(MessageRow.rateText(2, locale: Locale(identifier: "en_US_POSIX")) == "2×")
        #expect(MessageRow.rateText(1.5, locale: Locale(identifier: "de_DE")) == "1,5×")
        #expect(MessageRow.rateText(1.5, locale: Locale(identifier: "fa_IR")) == "۱٫۵×")
        #expect(MessageRow.rateText(2, locale: Locale(identifier: "ko_KR")) == "2×")
    }

    @Test func theInstallsShareIsInTheLocalesDigits() {
        #expect(TranscriptionDialog.percentText(0.456, locale: Locale(identifier: "en_US_POSIX")) == "45 %")
        #expect(TranscriptionDialog.percentText(0.456, locale: Locale(identifier: "fa_IR")) == "۴۵ %")
        #expect(TranscriptionDialog.percentText(1, locale: Locale(identifier: "zh_CN")) == "100 %")
    }
}
