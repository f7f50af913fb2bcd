import Foundation

/// What the user typed into the search bar, understood: words to find in
/// titles, and at most one day (or month) the message must be from —
/// "yesterday", "monday", "1 dec", "december 2025". Pure: the clock and the
/// calendar are given, so tests choose them.
public struct SearchQuery: Equatable, Sendable {
    /// Words every matching title contains (as word beginnings), lowercased.
    public var words: [String]
    /// The span of time a matching message was recorded in, if a day was named.
    public var period: Range<Date>?

    public init(words: [String], period: Range<Date>? = nil) {
        self.words = words
        self.period = period
    }

    /// Nothing to search for: the whole history.
    public var isEmpty: Bool { words.isEmpty && period == nil }

    private static let months = ["january", "february", "march", "april", "may", "june", "july", "august",
                                 "september", "october", "november", "december"]
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    public init(_ text: String, now: Date = Date(), calendar: Calendar = .current) {
        var tokens = text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        var period: Range<Date>?
        let today = calendar.startOfDay(for: now)
        func day(_ start: Date) -> Range<Date> { start..<calendar.date(byAdding: .day, value: 1, to: start)! }

        // One day word, at most; the rest are title words.
        var index = 0
        while index < tokens.count, period == nil {
            let token = tokens[index]
            if token == "today" {
                period = day(today)
                tokens.remove(at: index)
            } else if token == "yesterday" {
                period = day(calendar.date(byAdding: .day, value: -1, to: today)!)
                tokens.remove(at: index)
            } else if let weekday = Self.match(token, in: Self.weekdays) {
                // The latest such day, today included.
                let todayWeekday = calendar.component(.weekday, from: today) - 1
                let back = (todayWeekday - weekday + 7) % 7
                period = day(calendar.date(byAdding: .day, value: -back, to: today)!)
                tokens.remove(at: index)
            } else if let month = Self.match(token, in: Self.months) {
                // "1 dec", "dec 1", "december", each with an optional year.
                var dayOfMonth: Int?
                var year: Int?
                var used = [index]
                if index > 0, let number = Int(tokens[index - 1]), (1...31).contains(number) {
                    dayOfMonth = number
                    used.append(index - 1)
                } else if index + 1 < tokens.count, let number = Int(tokens[index + 1]), (1...31).contains(number) {
                    dayOfMonth = number
                    used.append(index + 1)
                }
                if let last = used.max(), last + 1 < tokens.count, let number = Int(tokens[last + 1]), number >= 1970 {
                    year = number
                    used.append(last + 1)
                }
                period = Self.period(month: month + 1, day: dayOfMonth, year: year, today: today, calendar: calendar)
                for position in used.sorted(by: >) { tokens.remove(at: position) }
            } else {
                index += 1
            }
        }
        self.init(words: tokens, period: period)
    }

    /// `token` as a name from `names`: the whole name, or its first three letters or more.
    private static func match(_ token: String, in names: [String]) -> Int? {
        guard token.count >= 3 else { return nil }
        return names.firstIndex { $0.hasPrefix(token) }
    }

    /// A day, or a whole month; without a year, the latest one not in the future.
    private static func period(month: Int, day: Int?, year: Int?, today: Date, calendar: Calendar) -> Range<Date>? {
        let thisYear = calendar.component(.year, from: today)
        func start(in year: Int) -> Date? {
            calendar.date(from: DateComponents(year: year, month: month, day: day ?? 1))
        }
        guard var first = start(in: year ?? thisYear) else { return nil }
        if year == nil, first > today, let earlier = start(in: thisYear - 1) { first = earlier }
        let length: Calendar.Component = day == nil ? .month : .day
        guard let end = calendar.date(byAdding: length, value: 1, to: first) else { return nil }
        return first..<end
    }

    /// The words as an FTS5 query: each a quoted prefix, all required.
    var fullTextQuery: String? {
        guard !words.isEmpty else { return nil }
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "") + "\"*" }.joined(separator: " ")
    }
}
