/// Text that other people and servers wrote (a room's name, a member's
/// display name, a received message's title), made fit to show on one line:
/// line breaks and control characters become spaces (a title of 100 lines
/// made a row of 100 lines), the bidirectional embeddings, overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069) are dropped (“Invoice ‮gpj.exe”
/// read “Invoice exe.jpg”), and the text is cut by characters (grapheme
/// clusters) with “…”: a 60,000-character room name kept Pango busy for
/// minutes. Right-to-left scripts and emoji are kept as they are.
public enum ReceivedText {
    /// Characters shown where a name or a title appears (a row, a page, a notification).
    public static let shownLength = 200
    /// Characters the store keeps of a received name or title: the whole
    /// text a tooltip offers when the shown one is cut.
    public static let storedLength = 1_000
    /// Code points one character may hold: an emoji sequence needs about ten,
    /// and “Zalgo” text stacks thousands of marks on one letter.
    static let scalarsPerCharacter = 16
    /// Characters the store keeps of a transcript a sender sent (half an hour spoken is about 25,000).
    public static let transcriptLength = 40_000
    static let ellipsis: Character = "…"

    /// `text` on one line, cut to `limit` characters (the last one “…” when cut).
    public static func cleaned(_ text: String, limit: Int = storedLength) -> String {
        let limit = max(limit, 1)
        // More code points than this can never be kept: stop reading there.
        let scalarBudget = (limit + 1) * scalarsPerCharacter
        var line = String.UnicodeScalarView()
        var pendingSpace = false
        var marksInARow = 0
        for scalar in text.unicodeScalars {
            if line.count >= scalarBudget { break }
            if isDirectionalFormatting(scalar) { continue }
            if isExtending(scalar) {
                marksInARow += 1
                if marksInARow >= scalarsPerCharacter { continue }
            } else {
                marksInARow = 0
            }
            if isSpaceOrControl(scalar) {
                pendingSpace = !line.isEmpty
                continue
            }
            if pendingSpace {
                line.append(" ")
                pendingSpace = false
            }
            line.append(scalar)
        }
        var kept = ""
        var count = 0
        var cut = false
        for character in String(line) {
            if count == limit {
                cut = true
                break
            }
            let scalars = character.unicodeScalars
            if scalars.count > scalarsPerCharacter {
                var trimmed = String.UnicodeScalarView()
                trimmed.append(contentsOf: scalars.prefix(scalarsPerCharacter))
                kept.unicodeScalars.append(contentsOf: trimmed)
            } else {
                kept.append(character)
            }
            count += 1
        }
        guard cut else { return kept }
        kept.removeLast()
        while kept.last == " " { kept.removeLast() }
        kept.append(ellipsis)
        return kept
    }

    /// `text` as a row, a page or a notification shows it.
    public static func shown(_ text: String) -> String {
        cleaned(text, limit: shownLength)
    }

    static func isDirectionalFormatting(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// What joins the character before it: combining marks, joiners, variation selectors, tags.
    static func isExtending(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)
            || (0xE0020...0xE007F).contains(scalar.value) || (0x1F3FB...0x1F3FF).contains(scalar.value)
        }
    }

    /// Line breaks, tabs, other controls and every kind of space.
    static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .spaceSeparator: return true
        default: return scalar.properties.isWhitespace
        }
    }
}
