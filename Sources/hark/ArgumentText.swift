import Localization

/// How the command line reads numbers written by people.
enum DecimalNumber {
    /// Digits with an optional sign, point and exponent (`-1.5`, `.5`, `2e3`),
    /// and nothing else.
    static func isPlain(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        let whole = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(whole.count)
        var fraction = Substring()
        if rest.first == "." {
            rest = rest.dropFirst()
            fraction = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(fraction.count)
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return false }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
            let exponent = rest.prefix { $0.isASCII && $0.isNumber }
            guard !exponent.isEmpty else { return false }
            rest = rest.dropFirst(exponent.count)
        }
        return rest.isEmpty
    }
}

/// The file `record --output` writes: always Ogg Opus, so a name promising
/// another format (`take.mp3`) is refused rather than silently filled with
/// Ogg.
enum OutputName {
    static let oggExtensions: Set<String> = ["ogg", "oga", "opus"]

    /// Why `path` is no name for an Ogg Opus recording, or nil when it is one
    /// (`.ogg`, `.oga`, `.opus`, or no extension at all).
    static func refusal(_ path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let suffix = name[name.index(after: dot)...]
        // Only what reads as an extension: "take 1.final cut" has none.
        guard (1...5).contains(suffix.count), suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
              !oggExtensions.contains(suffix.lowercased()) else { return nil }
        return tr("--output records Ogg Opus: name the file .ogg or .opus, not .{extension} (hark export writes MP3 and WAV)",
                  ["extension": String(suffix)])
    }
}
