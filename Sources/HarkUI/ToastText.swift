/// How a message fits a toast: a toast is short (its title wraps onto a
/// second line where the window is narrow), so a long one (an error with
/// its reason) shows its gist there and the whole text behind a "Details"
/// button.
enum ToastText {
    /// Longer than this, a message with a reason shows only its gist.
    static let longest = 56
    /// Longer than this, any message is cut (between words) and has Details:
    /// two lines of a toast at 360 px.
    static let longestWrapped = 80

    /// The line to show, and whether the full text needs Details to be read.
    static func brief(_ text: String) -> (line: String, needsDetails: Bool) {
        guard text.count > longest else { return (text, false) }
        // The gist is what comes before the reason: "“x” could not be imported".
        for separator in [": ", " (", ". ", "; ", "：", "（", "。", "；"] {
            if let range = text.range(of: separator) {
                let gist = String(text[..<range.lowerBound])
                if gist.count >= 12, gist.count <= longest { return (gist, true) }
            }
        }
        // One sentence, such as one naming a long title: whole, wrapped.
        guard text.count > longestWrapped else { return (text, false) }
        let words = text.prefix(longestWrapped - 1).split(separator: " ").dropLast()
        let cut = words.isEmpty ? String(text.prefix(longestWrapped - 1)) : words.joined(separator: " ")
        return (cut + "…", true)
    }
}
