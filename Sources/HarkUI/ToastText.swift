/// How a message fits a toast: a toast is one short line, so a long one
/// (an error with its reason) shows its gist there and the whole text behind
/// a "Details" button.
enum ToastText {
    /// What fits a toast's line without being cut off at a 360 px window.
    static let longest = 56

    /// The line to show, and whether the full text needs Details to be read.
    static func brief(_ text: String) -> (line: String, needsDetails: Bool) {
        guard text.count > longest else { return (text, false) }
        // The gist is what comes before the reason: "“x” could not be imported".
        for separator in [": ", " (", ". ", "; "] {
            if let range = text.range(of: separator) {
                let gist = String(text[..<range.lowerBound])
                if gist.count >= 12, gist.count <= longest { return (gist, true) }
            }
        }
        let words = text.prefix(longest - 1).split(separator: " ").dropLast()
        let cut = words.isEmpty ? String(text.prefix(longest - 1)) : words.joined(separator: " ")
        return (cut + "…", true)
    }
}
