import Foundation
import Localization

/// The language transcripts are made in, as the store keeps it
/// (`transcription.language`): English by the small English-only model (the
/// default), or any language by the multilingual model, detected in each
/// message or fixed to one. Pure: the dialog's choices, the command line's
/// `--language`, and which model a choice needs.
public enum TranscriptionLanguage: Equatable, Sendable {
    /// English, by Whisper tiny.en.
    case english
    /// The multilingual model finds each message's language.
    case detected
    /// The multilingual model, told the language (a Whisper code: "de").
    case fixed(String)

    /// "en", "auto" or a code; nil for anything else (an unknown code).
    public init?(setting: String) {
        switch setting {
        case "en": self = .english
        case "auto": self = .detected
        case let code where Self.names[code] != nil: self = .fixed(code)
        default: return nil
        }
    }

    /// The store's setting; an unknown or missing one is English.
    public init(storedSetting: String?) {
        self = storedSetting.flatMap(TranscriptionLanguage.init(setting:)) ?? .english
    }

    public var setting: String {
        switch self {
        case .english: return "en"
        case .detected: return "auto"
        case .fixed(let code): return code
        }
    }

    /// Whether it takes the multilingual model (installed on demand).
    public var needsMultilingualModel: Bool { self != .english }

    /// As the dialog lists it, in the user's language: "English", "Detected
    /// in Each Message", "German" ("Deutsch" in German).
    public var name: String { name(in: Localization.messagesLocale) }

    /// The name in LOCALE's language: English's own list in English, the
    /// name Unicode's CLDR gives in any other (the catalogue holds English
    /// and "Detected in Each Message").
    public func name(in locale: Locale) -> String {
        switch self {
        case .english: return tr("English")
        case .detected: return tr("Detected in Each Message")
        case .fixed(let code):
            let english = Self.names[code] ?? code
            guard let language = locale.language.languageCode?.identifier, language != "en",
                  let local = locale.localizedString(forLanguageCode: Self.isoCodes[code] ?? code),
                  !local.isEmpty, local != code, local != Self.isoCodes[code] else { return english }
            // "alemán" begins a line of a list as "Alemán".
            return local.prefix(1).uppercased(with: locale) + local.dropFirst()
        }
    }

    /// Every choice, in the dialog's order: English, detected, then each
    /// other language by its name in the user's language.
    public static let all: [TranscriptionLanguage] = all(in: Localization.messagesLocale)

    /// English, detected, then each other language in the order of its name in LOCALE.
    public static func all(in locale: Locale) -> [TranscriptionLanguage] {
        let others = languages.filter { $0.code != "en" }.map { TranscriptionLanguage.fixed($0.code) }
        guard locale.language.languageCode?.identifier != "en" else { return [.english, .detected] + others }
        let named = others.map { ($0, $0.name(in: locale)) }
            .sorted { $0.1.compare($1.1, options: [.caseInsensitive], locale: locale) == .orderedAscending }
        return [.english, .detected] + named.map(\.0)
    }

    /// Whisper's codes that are not ISO 639's.
    private static let isoCodes = ["jw": "jv"]

    /// The languages Whisper knows (faster-whisper's codes), by English name.
    public static let languages: [(code: String, name: String)] = [
        ("af", "Afrikaans"),
        ("sq", "Albanian"),
        ("am", "Amharic"),
        ("ar", "Arabic"),
        ("hy", "Armenian"),
        ("as", "Assamese"),
        ("az", "Azerbaijani"),
        ("ba", "Bashkir"),
        ("eu", "Basque"),
        ("be", "Belarusian"),
        ("bn", "Bengali"),
        ("bs", "Bosnian"),
        ("br", "Breton"),
        ("bg", "Bulgarian"),
        ("my", "Burmese"),
        ("yue", "Cantonese"),
        ("ca", "Catalan"),
        ("zh", "Chinese"),
        ("hr", "Croatian"),
        ("cs", "Czech"),
        ("da", "Danish"),
        ("nl", "Dutch"),
        ("en", "English"),
        ("et", "Estonian"),
        ("fo", "Faroese"),
        ("fi", "Finnish"),
        ("fr", "French"),
        ("gl", "Galician"),
        ("ka", "Georgian"),
        ("de", "German"),
        ("el", "Greek"),
        ("gu", "Gujarati"),
        ("ht", "Haitian Creole"),
        ("ha", "Hausa"),
        ("haw", "Hawaiian"),
        ("he", "Hebrew"),
        ("hi", "Hindi"),
        ("hu", "Hungarian"),
        ("is", "Icelandic"),
        ("id", "Indonesian"),
        ("it", "Italian"),
        ("ja", "Japanese"),
        ("jw", "Javanese"),
        ("kn", "Kannada"),
        ("kk", "Kazakh"),
        ("km", "Khmer"),
        ("ko", "Korean"),
        ("lo", "Lao"),
        ("la", "Latin"),
        ("lv", "Latvian"),
        ("ln", "Lingala"),
        ("lt", "Lithuanian"),
        ("lb", "Luxembourgish"),
        ("mk", "Macedonian"),
        ("mg", "Malagasy"),
        ("ms", "Malay"),
        ("ml", "Malayalam"),
        ("mt", "Maltese"),
        ("mi", "Maori"),
        ("mr", "Marathi"),
        ("mn", "Mongolian"),
        ("ne", "Nepali"),
        ("no", "Norwegian"),
        ("nn", "Norwegian Nynorsk"),
        ("oc", "Occitan"),
        ("ps", "Pashto"),
        ("fa", "Persian"),
        ("pl", "Polish"),
        ("pt", "Portuguese"),
        ("pa", "Punjabi"),
        ("ro", "Romanian"),
        ("ru", "Russian"),
        ("sa", "Sanskrit"),
        ("sr", "Serbian"),
        ("sn", "Shona"),
        ("sd", "Sindhi"),
        ("si", "Sinhala"),
        ("sk", "Slovak"),
        ("sl", "Slovenian"),
        ("so", "Somali"),
        ("es", "Spanish"),
        ("su", "Sundanese"),
        ("sw", "Swahili"),
        ("sv", "Swedish"),
        ("tl", "Tagalog"),
        ("tg", "Tajik"),
        ("ta", "Tamil"),
        ("tt", "Tatar"),
        ("te", "Telugu"),
        ("th", "Thai"),
        ("bo", "Tibetan"),
        ("tr", "Turkish"),
        ("tk", "Turkmen"),
        ("uk", "Ukrainian"),
        ("ur", "Urdu"),
        ("uz", "Uzbek"),
        ("vi", "Vietnamese"),
        ("cy", "Welsh"),
        ("yi", "Yiddish"),
        ("yo", "Yoruba"),
    ]

    private static let names: [String: String] = Dictionary(uniqueKeysWithValues: languages.map { ($0.code, $0.name) })
}
