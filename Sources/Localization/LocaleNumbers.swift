import Foundation
import Synchronization

/// Numbers as the user's locale writes them (Persian digits in Persian,
/// "1.234" in German), from the environment as the C library reads it:
/// Foundation's Locale.current on Linux ignores LANG.
public enum LocaleNumbers {
    /// The locale named by LC_ALL, then CATEGORY (e.g. "LC_NUMERIC"), then LANG.
    public static func environmentLocale(category: String) -> Locale {
        let environment = ProcessInfo.processInfo.environment
        for variable in ["LC_ALL", category, "LANG"] {
            guard let value = environment[variable], !value.isEmpty else { continue }
            let name = value.split(separator: ".").first.map(String.init) ?? value
            return name == "C" || name == "POSIX" ? Locale(identifier: "en_US_POSIX") : Locale(identifier: name)
        }
        return Locale(identifier: "en_US_POSIX")
    }

    private static let formatters = Mutex<[String: NumberFormatter]>([:])

    /// N in the digits and grouping of LOCALE (the environment's by default).
    public static func integer(_ number: Int, locale: Locale = environmentLocale(category: "LC_NUMERIC")) -> String {
        formatters.withLock { cache in
            let formatter = cache[locale.identifier] ?? {
                let made = NumberFormatter()
                made.locale = locale
                made.numberStyle = .decimal
                return made
            }()
            cache[locale.identifier] = formatter
            // "1234" stays whole, as GNOME writes it; "12,345" is grouped.
            formatter.usesGroupingSeparator = abs(number) >= 10_000
            return formatter.string(from: NSNumber(value: number)) ?? String(number)
        }
    }

    private static let decimalFormatters = Mutex<[String: NumberFormatter]>([:])

    /// NUMBER with up to two decimals, as LOCALE writes it: "1.5", "1,5" in
    /// German, "۱٫۵" in Persian; a whole number without any ("2").
    public static func decimal(_ number: Double, locale: Locale = environmentLocale(category: "LC_NUMERIC")) -> String {
        decimalFormatters.withLock { cache in
            let formatter = cache[locale.identifier] ?? {
                let made = NumberFormatter()
                made.locale = locale
                made.numberStyle = .decimal
                made.minimumFractionDigits = 0
                made.maximumFractionDigits = 2
                made.usesGroupingSeparator = false
                return made
            }()
            cache[locale.identifier] = formatter
            return formatter.string(from: NSNumber(value: number)) ?? String(number)
        }
    }

    /// DIGITS (ASCII 0-9 in TEXT, such as "3:05") in the locale's own digits.
    public static func digits(_ text: String, locale: Locale = environmentLocale(category: "LC_NUMERIC")) -> String {
        let zero = integer(0, locale: locale)
        guard zero != "0", let base = zero.unicodeScalars.first?.value else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            guard ("0"..."9").contains(scalar) else { return scalar }
            return Unicode.Scalar(base + scalar.value - 48) ?? scalar
        }))
    }
}
