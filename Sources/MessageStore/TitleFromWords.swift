/// A title made of a transcript's first words: "Dentist moved to Thursday
/// at…", cut at a word, never in one. Pure.
public enum TitleFromWords {
    /// At most this many characters before the ellipsis.
    public static let length = 40

    public static func title(from transcript: String, length: Int = TitleFromWords.length) -> String? {
        let words = transcript.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        var title = ""
        for word in words {
            let candidate = title.isEmpty ? word : title + " " + word
            if candidate.count > length {
                // The first word alone too long: cut it, as nothing else is left.
                let kept = title.isEmpty ? String(word.prefix(length)) : title
                return trimmed(kept) + "…"
            }
            title = candidate
        }
        return trimmed(title)
    }

    /// Without the punctuation that ended a sentence or a clause.
    private static func trimmed(_ text: String) -> String {
        var text = text
        while let last = text.last, ".,;:!?-–—".contains(last) { text.removeLast() }
        return text.isEmpty ? "…" : text
    }
}
