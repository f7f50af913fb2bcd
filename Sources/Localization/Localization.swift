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
