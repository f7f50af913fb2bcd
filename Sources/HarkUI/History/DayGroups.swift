import Foundation
import Localization

/// The history's items: messages, and the take being recorded at the end.
/// Each day's first message carries that day's header, as a messenger shows
/// them: a header is no item of its own, so it never takes the keyboard focus
/// and a screen reader counts only messages.
enum HistoryItem: Equatable {
    case message(String)
    /// The take being recorded, at the end: it is not a message yet.
    case recording

    static let recordingKey = "recording:"

    /// The list model holds strings: a message's id, or `recordingKey`.
    var key: String {
        switch self {
        case .message(let id): return id
        case .recording: return Self.recordingKey
        }
    }

    init(key: String) {
        self = key == Self.recordingKey ? .recording : .message(key)
    }
}

enum DayGroups {
    /// The locale of the user's dates and times: LC_TIME's (through LC_ALL
    /// and LANG), read as the C library reads it, since Foundation's
    /// Locale.current on Linux ignores the environment. In the C locale,
    /// Foundation's own (English, "Tuesday, 24 November").
    static var userLocale: Locale {
        let locale = LocaleNumbers.environmentLocale(category: "LC_TIME")
        return locale.identifier == "en_US_POSIX" ? .current : locale
    }

    /// "Today", "Yesterday", the weekday within the last week, then the date,
    /// with the year only when it is not this one. `calendar` tells the days
    /// (and the time zone); the date is written in the locale's own calendar
    /// (the Solar Hijri one in Persian, "۱۰ آذر").
    static func title(of day: Date, now: Date = Date(), calendar: Calendar = .current, locale: Locale = userLocale) -> String {
        let today = calendar.startOfDay(for: now)
        let daysAgo = calendar.dateComponents([.day], from: calendar.startOfDay(for: day), to: today).day ?? 0
        if daysAgo == 0 { return tr("Today") }
        if daysAgo == 1 { return tr("Yesterday") }
        var shown = Calendar(identifier: locale.calendar.identifier)
        shown.timeZone = calendar.timeZone
        shown.locale = locale
        let template: String
        if (2...6).contains(daysAgo) {
            template = "EEEE"
        } else if shown.component(.year, from: day) == shown.component(.year, from: now) {
            template = "EEEE d MMMM"
        } else {
            template = "d MMMM y"
        }
        return DateFormats.shared.string(from: day, .template(template), calendar: shown, locale: locale)
    }

    /// The start of each date's day. The calendar is asked once a day, not
    /// once a message: dates come oldest first (the history's order), and a
    /// date inside the day found last needs no asking. 10,000 messages open
    /// the window as quickly as 10.
    static func dayStarts(of dates: [Date], calendar: Calendar = .current) -> [Date] {
        var starts: [Date] = []
        starts.reserveCapacity(dates.count)
        var day: Range<Date>?
        for date in dates {
            if let day, day.contains(date) {
                starts.append(day.lowerBound)
                continue
            }
            let start = calendar.startOfDay(for: date)
            let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
            day = start < end ? start..<end : nil
            starts.append(start)
        }
        return starts
    }

    /// The time of day of a message, as the user's clock shows it ("5:15 PM"
    /// with a plain space, or "17:15").
    static func clockTime(_ date: Date, calendar: Calendar = .current, locale: Locale = userLocale) -> String {
        DateFormats.shared.string(from: date, .shortTime, calendar: calendar, locale: locale)
            .replacingOccurrences(of: "\u{202F}", with: " ")
    }
}
