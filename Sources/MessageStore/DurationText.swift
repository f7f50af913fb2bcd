import Foundation
import Localization

/// How durations and positions are written, the same in the window and on
/// the command line: to the nearest second, so a 0.92 s message is "0:01"
/// and its end reads "0:01 / 0:01" (truncating would show a message of
/// "0:00" and disagree with the rounding elsewhere).
public enum DurationText {
    /// "1:05" for 65.3 s; "1:02:05" past an hour; in LOCALE's digits
    /// ("۱:۰۵" in Persian), the environment's by default. (What scripts read
    /// passes `Locale(identifier: "en_US_POSIX")`.)
    public static func clock(_ seconds: Double,
                             locale: Locale = LocaleNumbers.environmentLocale(category: "LC_NUMERIC")) -> String {
        let whole = wholeSeconds(seconds)
        let hours = whole / 3600, minutes = whole / 60 % 60, rest = whole % 60
        let tail = (rest < 10 ? "0" : "") + "\(rest)"
        if hours > 0 { return LocaleNumbers.digits("\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):" + tail, locale: locale) }
        return LocaleNumbers.digits("\(minutes):" + tail, locale: locale)
    }

    /// "1 minute 5 seconds" for 65.3 s: for sentences and screen readers.
    public static func spoken(_ seconds: Double) -> String {
        let whole = wholeSeconds(seconds)
        let minutes = whole / 60, rest = whole % 60
        if minutes == 0 { return trn("{count} second", "{count} seconds", rest) }
        guard rest > 0 else { return trn("{count} minute", "{count} minutes", minutes) }
        // TRANSLATORS: a length of time, "1 minute 5 seconds"; each part is translated on its own.
        return tr("{minutes} {seconds}", ["minutes": trn("{count} minute", "{count} minutes", minutes),
                                          "seconds": trn("{count} second", "{count} seconds", rest)])
    }

    /// The whole seconds shown for `seconds`: rounded, never negative.
    public static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(seconds.rounded(.toNearestOrAwayFromZero))
    }
}
