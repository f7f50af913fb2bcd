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
