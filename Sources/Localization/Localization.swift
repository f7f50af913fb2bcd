import CGLib
import Foundation
import Identity

/// Hark in the user's language: gettext's catalogues for the text domain
/// `hark` (po/ in the checkout, built by scripts/build-locale), found beside
/// an installed Hark (PREFIX/share/locale) or in the checkout's
/// `.build/locale`. Each executable calls `start()` once, before any text.
public enum Localization {
    public static let domain = "hark"

    /// Takes the user's locale from the environment (LANG, LC_*, LANGUAGE)
    /// and binds Hark's catalogues.
    public static func start() {
        setlocale(LC_ALL, "")
        if let folder = catalogueFolder {
            bindtextdomain(domain, folder)
        }
        bind_textdomain_codeset(domain, "UTF-8")
    }

    /// The locale Hark's text is in, as gettext picks it: the first language
    /// of LANGUAGE that is a real one (not "pseudo"), unless the messages'
    /// locale is C (gettext then ignores LANGUAGE), else LC_ALL, LC_MESSAGES
    /// or LANG. For what the catalogue cannot hold, such as the names of
    /// languages in the user's own.
    public static var messagesLocale: Locale {
        let messages = LocaleNumbers.environmentLocale(category: "LC_MESSAGES")
        guard messages.identifier != "en_US_POSIX",
              let languages = ProcessInfo.processInfo.environment["LANGUAGE"] else { return messages }
        let known = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
        for name in languages.split(separator: ":") {
            let locale = Locale(identifier: String(name))
            if let code = locale.language.languageCode?.identifier, known.contains(code) { return locale }
        }
        return messages
    }

    /// Where the compiled catalogues are: HARK_LOCALE_DIR when set (tests),
    /// PREFIX/share/locale installed, the checkout's .build/locale otherwise.
    public static var catalogueFolder: String? {
        if let folder = ProcessInfo.processInfo.environment["HARK_LOCALE_DIR"], !folder.isEmpty {
            return folder
        }
        if let prefix = InstalledLayout.prefix {
            return prefix + "/share/locale"
        }
        return InstalledLayout.checkout(fromSourceFile: #filePath, depth: 3).map { $0 + "/.build/locale" }
    }
}
