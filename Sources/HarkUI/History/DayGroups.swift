import Foundation

/// The history's items: messages, each day's preceded by a header, as a
/// messenger shows them. Pure (the clock and calendar are given), so the
/// grouping is tested without a display.
enum HistoryItem: Equatable {
    case day(Date)  // the start of the day
    case message(String)
    /// The take being recorded, at the end: it is not a message yet.
    case recording

    static let recordingKey = "recording:"

    /// The list model holds strings: a header is "day:" and its time.
    var key: String {
        switch self {
        case .day(let start): return "day:\(Int(start.timeIntervalSince1970))"
        case .message(let id): return id
        case .recording: return Self.recordingKey
        }
    }

    init(key: String) {
        if key.hasPrefix("day:"), let seconds = Double(key.dropFirst(4)) {
            self = .day(Date(timeIntervalSince1970: seconds))
        } else if key == Self.recordingKey {
            self = .recording
        } else {
            self = .message(key)
        }
    }
}

enum DayGroups {
    /// `messages` (oldest first) with a header before each day's first.
    static func items(_ messages: [(id: String, createdAt: Date)], calendar: Calendar = .current) -> [HistoryItem] {
        var items: [HistoryItem] = []
        var current: Date?
        for message in messages {
            let day = calendar.startOfDay(for: message.createdAt)
            if day != current {
                items.append(.day(day))
                current = day
            }
            items.append(.message(message.id))
        }
        return items
    }

    /// "Today", "Yesterday", the weekday within the last week, then the date,
    /// with the year only when it is not this one.
    static func title(of day: Date, now: Date = Date(), calendar: Calendar = .current, locale: Locale = .current) -> String {
        let today = calendar.startOfDay(for: now)
        let daysAgo = calendar.dateComponents([.day], from: calendar.startOfDay(for: day), to: today).day ?? 0
        if daysAgo == 0 { return "Today" }
        if daysAgo == 1 { return "Yesterday" }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        if (2...6).contains(daysAgo) {
            formatter.setLocalizedDateFormatFromTemplate("EEEE")
        } else if calendar.component(.year, from: day) == calendar.component(.year, from: now) {
            formatter.setLocalizedDateFormatFromTemplate("EEEE d MMMM")
        } else {
            formatter.setLocalizedDateFormatFromTemplate("d MMMM y")
        }
        return formatter.string(from: day)
    }

    /// The time of day of a message, as the user's clock shows it ("5:15 PM"
    /// with a plain space, or "17:15").
    static func clockTime(_ date: Date, calendar: Calendar = .current, locale: Locale = .current) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateStyle = .none
        formatter.timeStyle = .short
        return formatter.string(from: date).replacingOccurrences(of: "\u{202F}", with: " ")
    }
}
