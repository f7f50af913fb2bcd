import Foundation

/// What the user typed into the search bar, understood: words to find in
/// titles, and at most one day (or month) named — "yesterday", "monday",
/// "1 dec", "december 2025". The words that name a day may as well be in a
/// title ("Dentist on Monday"), so a message matches the day's words in its
/// title or comes from that day: either. Pure: the clock and the calendar
/// are given, so tests choose them.
public struct SearchQuery: Equatable, Sendable {
    /// Words every matching title contains (as word beginnings), lowercased,
    /// without apostrophes.
    public var words: [String]
    /// The words that named a day ("monday", "1 dec"), as typed: a message
    /// matches them in its title or by its date.
    public var dayWords: [String]
    /// The spans of time the named day covers: one day, a month of one year,
    /// or a month of every year ("october": each year's October, oldest
    /// first). Empty when no day was named.
    public var periods: [Range<Date>]

    public init(words: [String], dayWords: [String] = [], periods: [Range<Date>] = []) {
        self.words = words
        self.dayWords = dayWords
        self.periods = periods
    }

    /// Nothing to search for: the whole history.
    public var isEmpty: Bool { words.isEmpty && periods.isEmpty }

    /// The first year a month without a year reaches back to.
    static let earliestYear = 1970

    private static let months = ["january", "february", "march", "april", "may", "june", "july", "august",
                                 "september", "october", "november", "december"]
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// `text` lowercased, without apostrophes: they join a word, never split
    /// it ("grandma's" is "grandmas").
    static func folded(_ text: String) -> String {
        String(text.lowercased().filter { !SearchText.apostrophes.contains($0) })
    }

    /// LOCALE's names of days and months are understood beside the English ones.
    public init(_ text: String, now: Date = Date(), calendar: Calendar = .current,
                locale: Locale = DayNames.environmentLocale) {
        let names = DayNames.names(in: locale)
        var tokens = Self.folded(text).split { !$0.isLetter && !$0.isNumber }.map(String.init)
        var periods: [Range<Date>] = []
        var dayWords: [String] = []
        let today = calendar.startOfDay(for: now)
        func day(_ start: Date) -> [Range<Date>] { [start..<calendar.date(byAdding: .day, value: 1, to: start)!] }

        // One day named, at most; the rest are title words.
        var index = 0
        while index < tokens.count, periods.isEmpty {
            let token = tokens[index]
            var used: [Int] = []
            if token == "today" {
                periods = day(today)
                used = [index]
            } else if token == "yesterday" {
                periods = day(calendar.date(byAdding: .day, value: -1, to: today)!)
                used = [index]
            } else if let weekday = Self.match(token, in: Self.weekdays, or: names.weekdays) {
                // The latest such day, today included.
                let todayWeekday = calendar.component(.weekday, from: today) - 1
                let back = (todayWeekday - weekday + 7) % 7
                periods = day(calendar.date(byAdding: .day, value: -back, to: today)!)
                used = [index]
            } else if let month = Self.match(token, in: Self.months, or: names.months) {
                // "1 dec", "dec 1", "december", each with an optional year.
                var dayOfMonth: Int?
                var year: Int?
                used = [index]
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
                periods = Self.periods(month: month + 1, day: dayOfMonth, year: year, today: today, calendar: calendar)
                if periods.isEmpty { used = [] }  // no such date ("31 feb"): only words
            }
            if used.isEmpty {
                index += 1
            } else {
                dayWords = used.sorted().map { tokens[$0] }
                for position in used.sorted(by: >) { tokens.remove(at: position) }
            }
        }
        self.init(words: tokens, dayWords: dayWords, periods: periods)
    }

    /// `token` as a name from `english` (the whole name, or its first three
    /// letters or more) or from `local` (one of a day's or month's names in
    /// the user's language, whole or its first three letters or more).
    private static func match(_ token: String, in english: [String], or local: [[String]]) -> Int? {
        if token.count >= 3, let index = english.firstIndex(where: { $0.hasPrefix(token) }) { return index }
        let key = DayNames.key(token)
        guard !key.isEmpty else { return nil }
        return local.firstIndex { names in
            names.contains { $0 == key || (key.count >= 3 && $0.hasPrefix(key)) }
        }
    }

    /// A day (the latest one not in the future, without a year), a month of
    /// a year, or without a year a month of every year, oldest first.
    private static func periods(month: Int, day: Int?, year: Int?, today: Date, calendar: Calendar) -> [Range<Date>] {
        let thisYear = calendar.component(.year, from: today)
        func span(in year: Int) -> Range<Date>? {
            let components = DateComponents(year: year, month: month, day: day ?? 1)
            // A day the month does not have is no day: the calendar would move on to the next month.
            guard components.isValidDate(in: calendar), let first = calendar.date(from: components),
                  let end = calendar.date(byAdding: day == nil ? .month : .day, value: 1, to: first) else { return nil }
            return first..<end
        }
        if let year { return span(in: year).map { [$0] } ?? [] }
        if day == nil { return (earliestYear...thisYear).compactMap(span(in:)) }
        guard let this = span(in: thisYear) else {
            return span(in: thisYear - 1).map { [$0] } ?? []  // 29 February
        }
        if this.lowerBound > today, let earlier = span(in: thisYear - 1) { return [earlier] }
        return [this]
    }

    /// The words as an FTS5 query: each a quoted prefix, all required. Each
    /// is folded as the index is (`SearchText`): a run of Chinese or Korean
    /// becomes a phrase of its characters, found inside longer runs.
    var fullTextQuery: String? { Self.fullText(words) }

    /// The day's words as an FTS5 query, for titles that name the day.
    var dayWordsQuery: String? { Self.fullText(dayWords) }

    private static func fullText(_ words: [String]) -> String? {
        guard !words.isEmpty else { return nil }
        let folded = words.map { SearchText.folded($0).replacingOccurrences(of: "\"", with: "") }
            .map { $0.split(separator: " ").joined(separator: " ") }.filter { !$0.isEmpty }
        guard !folded.isEmpty else { return nil }
        return folded.map { "\"" + $0 + "\"*" }.joined(separator: " ")
    }
}
