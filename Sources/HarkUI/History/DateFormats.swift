import Foundation

/// Date formatters made once for each pattern, calendar and locale, not once
/// for each date: making one costs ICU a pattern generator (milliseconds),
/// and each row the history binds asks for two or three (its time, its day
/// for a screen reader, its day's header). With 10,000 messages the list
/// binds all the rows a screen holds at start, with 10 only ten: making them
/// anew was most of what opening a large history cost more.
final class DateFormats: @unchecked Sendable {  // `formatters` only under `lock`
    enum Pattern: Hashable {
        /// A localized template ("EEEE d MMMM").
        case template(String)
        /// The user's clock: a time of day in its short style.
        case shortTime
    }

    private struct Key: Hashable {
        let pattern: Pattern
        let calendar: Calendar
        let locale: Locale
    }

    static let shared = DateFormats()
    private let lock = NSLock()
    private var formatters: [Key: DateFormatter] = [:]

    /// `date` as `pattern` has it, in `calendar` (its time zone too) and `locale`.
    func string(from date: Date, _ pattern: Pattern, calendar: Calendar, locale: Locale) -> String {
        lock.lock()
        defer { lock.unlock() }
        let key = Key(pattern: pattern, calendar: calendar, locale: locale)
        if let formatter = formatters[key] { return formatter.string(from: date) }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        switch pattern {
        case .template(let template):
            formatter.setLocalizedDateFormatFromTemplate(template)
        case .shortTime:
            formatter.dateStyle = .none
            formatter.timeStyle = .short
        }
        formatters[key] = formatter
        return formatter.string(from: date)
    }
}
