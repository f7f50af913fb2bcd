import Foundation
import Synchronization

/// The names of the days of the week and of the months in one language, as
/// a search compares them with what is typed ("Δευτέρα", "دوشنبه", "월요일",
/// "星期一"): folded as the index folds text, without spaces.
public struct DayNames: Sendable {
    /// Sunday first, as Foundation's calendars count; each day's names.
    public let weekdays: [[String]]
    /// January first; each month's names.
    public let months: [[String]]

    /// The locale the user's environment names for dates (LC_ALL, LC_TIME,
    /// then LANG, as the C library reads them): Foundation on Linux does not.
    public static var environmentLocale: Locale {
        let environment = ProcessInfo.processInfo.environment
        for variable in ["LC_ALL", "LC_TIME", "LANG"] {
            guard let value = environment[variable], !value.isEmpty else { continue }
            let name = value.split(separator: ".").first.map(String.init) ?? value
            return name == "C" || name == "POSIX" ? Locale(identifier: "en_US_POSIX") : Locale(identifier: name)
        }
        return Locale(identifier: "en_US_POSIX")
    }

    private static let cache = Mutex<[String: DayNames]>([:])

    public static func names(in locale: Locale) -> DayNames {
        if let known = cache.withLock({ $0[locale.identifier] }) { return known }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = Calendar(identifier: .gregorian)
        // Short names only where they are words of their own ("周一", "10月"),
        // not abbreviations a title word could begin with ("Mo.", "lun").
        func gather(_ lists: [[String]], short: [String]) -> [[String]] {
            (0..<short.count).map { index in
                let full = lists.map { key($0[index]) }
                let brief = key(short[index])
                let kept = brief.unicodeScalars.contains(where: { SearchText.isCutPerCharacter(Character($0)) }) ? [brief] : []
                return Array(Set(full + kept)).filter { !$0.isEmpty }
            }
        }
        let names = DayNames(
            weekdays: gather([formatter.weekdaySymbols, formatter.standaloneWeekdaySymbols],
                             short: formatter.shortWeekdaySymbols),
            months: gather([formatter.monthSymbols, formatter.standaloneMonthSymbols],
                           short: formatter.shortMonthSymbols))
        cache.withLock { $0[locale.identifier] = names }
        return names
    }

    /// A name or a typed word as compared: folded, spaces gone.
    static func key(_ text: String) -> String {
        SearchText.folded(text).filter { $0 != " " }
    }
}
