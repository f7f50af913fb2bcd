/// What an imported file's name gives its message: a title, and the
/// extension its copy in the store keeps. A name is not cut at any dot:
/// "Notes v1.2 final" and "Dr. Smith appointment" have no extension.
public enum ImportName {
    /// Extensions of audio (and audio-bearing) files: the title drops these.
    static let audioExtensions: Set<String> = [
        "3gp", "aac", "ac3", "aif", "aifc", "aiff", "amr", "ape", "au", "caf", "flac", "m4a", "m4b", "mka", "mkv",
        "mov", "mp2", "mp3", "mp4", "mpc", "mpga", "oga", "ogg", "ogv", "opus", "snd", "spx", "wav", "wave", "weba",
        "webm", "wma", "wv",
    ]

    /// "talk" for `…/talk.ogg`, "Notes v1.2 final" for `…/Notes v1.2 final`.
    public static func title(forFileAt path: String) -> String {
        let name = lastComponent(path)
        guard let (stem, suffix) = split(name), audioExtensions.contains(suffix.lowercased()) else { return name }
        return stem
    }

    /// The extension the store's copy keeps (lowercased), or "" for none:
    /// what follows the last dot when it reads as one (1 to 5 ASCII letters
    /// or digits), so "Notes v1.2 final" keeps none.
    static func fileExtension(forFileAt path: String) -> String {
        guard let (_, suffix) = split(lastComponent(path)), (1...5).contains(suffix.count),
              suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return "" }
        return suffix.lowercased()
    }

    private static func lastComponent(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    /// The name before and after its last dot; nil without one (or with only
    /// a leading one: ".ogg" is a hidden file's whole name).
    private static func split(_ name: String) -> (stem: String, suffix: String)? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}
