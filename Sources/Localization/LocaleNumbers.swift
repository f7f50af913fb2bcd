import Foundation
import Synchronization

/// Numbers as the user's locale writes them (Persian digits in Persian,
/// "1.234" in German), from the environment as the C library reads it:
/// Foundation's Locale.current on Linux ignores LANG.
public enum LocaleNumbers {
    /// The locale named by LC_ALL, then CATEGORY (e.g. "LC_NUMERIC"), then LANG.
    public static func environmentLocale(category: String) -> Locale {
        var name = "en_US_POSIX"
        for variable in ["LC_ALL", category, "LANG"] {
            guard let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty else { continue }
            let named = value.split(separator: ".").first.map(String.init) ?? value
            name = named == "C" || named == "POSIX" ? "en_US_POSIX" : named
            break
        }
        // Made once per name: a clock shown 20 times a second asks each time.
        return locales.withLock { cache in
            if let known = cache[name] { return known }
            let made = Locale(identifier: name)
            cache[name] = made
            return made
        }
    }

    private static let locales = Mutex<[String: Locale]>([:])
    /// Each locale's zero digit, once worked out.
    private static let zeros = Mutex<[String: String]>([:])

    private static let formatters = Mutex<[String: NumberFormatter]>([:])

    /// LOCALE's decimal formatter of one KIND, made once: `configure` sets
    /// it up the first time. (Not changed afterwards: Foundation makes its
    /// ICU formatter again after any change, which cost each history row's
    /// description a new one.)
    private static func format(_ number: NSNumber, locale: Locale, kind: String,
                               configure: (NumberFormatter) -> Void = { _ in }) -> String? {
        formatters.withLock { cache in
            let key = kind + "|" + locale.identifier
            let formatter = cache[key] ?? {
                let made = NumberFormatter()
                made.locale = locale
                made.numberStyle = .decimal
                configure(made)
                return made
            }()
            cache[key] = formatter
            return formatter.string(from: number)
        }
    }

    /// N in the digits and grouping of LOCALE (the environment's by default).
    public static func integer(_ number: Int, locale: Locale = environmentLocale(category: "LC_NUMERIC")) -> String {
        // "1234" stays whole, as GNOME writes it; "12,345" is grouped.
        let grouped = abs(number) >= 10_000
        return format(NSNumber(value: number), locale: locale, kind: grouped ? "grouped integer" : "integer",
                      configure: { $0.usesGroupingSeparator = grouped }) ?? String(number)
    }

    /// NUMBER with up to two decimals, as LOCALE writes it: "1.5", "1,5" in
    /// German, "۱٫۵" in Persian; a whole number without any ("2").
    public static func decimal(_ number: Double, locale: Locale = environmentLocale(category: "LC_NUMERIC")) -> String {
        format(NSNumber(value: number), locale: locale, kind: "decimal", configure: {
            $0.minimumFractionDigits = 0
            $0.maximumFractionDigits = 2
            $0.usesGroupingSeparator = false
        }) ?? String(number)
    }

    /// DIGITS (ASCII 0-9 in TEXT, such as "3:05") in the locale's own digits.
    public static func digits(_ text: String, locale: Locale = environmentLocale(category: "LC_NUMERIC")) -> String {
        let zero = zeros.withLock { cache in
            if let known = cache[locale.identifier] { return known }
            let found = integer(0, locale: locale)
            cache[locale.identifier] = found
            return found
        }
        guard zero != "0", let base = zero.unicodeScalars.first?.value else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            guard ("0"..."9").contains(scalar) else { return scalar }
            return Unicode.Scalar(base + scalar.value - 48) ?? scalar
        }))
    }
}
