import Foundation

/// How a transcript is shown, without a display: its first line, the part a
/// search found with the matched words marked, and the segment being spoken
/// at a time. Pure, so the history's row only draws what this decides.
public enum TranscriptDisplay {
    /// A run of text, marked when it is a word the search matched.
    public struct Piece: Equatable, Sendable {
        public var text: String
        public var matched: Bool

        public init(_ text: String, matched: Bool = false) {
            self.text = text
            self.matched = matched
        }
    }

    /// About what one line of a row holds; the label cuts it further to its width.
    public static let lineLength = 80

    /// The segment being spoken at `time` (its index), nil in a pause between
    /// two, before the first and after the last. `segments` in time order.
    public static func segmentIndex(at time: Double, in segments: [TranscriptSegment]) -> Int? {
        guard let index = lastStartedIndex(at: time, in: segments), time < segments[index].end else { return nil }
        return index
    }

    /// The segment spoken at `time` or, in a pause, the one spoken last
    /// (what a line following the speech keeps showing); nil before the first.
    public static func lastStartedIndex(at time: Double, in segments: [TranscriptSegment]) -> Int? {
        var low = 0, high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].start <= time { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    /// The transcript's first line: its words up to the first line break,
    /// cut at a word after about `length` characters, "…" where words follow.
    public static func firstLine(of transcript: String, length: Int = lineLength) -> String {
        let (line, more) = firstLineParts(of: transcript, length: length)
        return more ? line + "…" : line
    }

    private static func firstLineParts(of transcript: String, length: Int) -> (line: String, more: Bool) {
        let lines = transcript.split(whereSeparator: \.isNewline).map(words(in:)).filter { !$0.isEmpty }
        let words = lines.first ?? []
        let cut = kept(words, from: 0, length: length)
        return (words[0..<cut].joined(separator: " "), cut < words.count || lines.count > 1)
    }

    /// The transcript's words around the first one a search matched (a few
    /// words before it, "…" at a cut), the matched words marked; nil when no
    /// word matches. `words` as the search holds them (`SearchQuery.words`).
    public static func excerpt(of transcript: String, matching words: [String], length: Int = lineLength,
                               wordsBefore: Int = 3) -> [Piece]? {
        let tokens = Self.words(in: transcript)
        let searched = searchForms(words)
        guard let first = tokens.firstIndex(where: { !matches(in: $0, searched).isEmpty }) else { return nil }
        // From the start when the match is early enough to be seen there.
        let leading = tokens[0..<first].reduce(0) { $0 + $1.count + 1 }
        let start = leading <= length / 2 ? 0 : max(0, first - wordsBefore)
        let end = max(start + kept(tokens, from: start, length: length), first + 1)
        var pieces: [Piece] = start > 0 ? [Piece("…")] : []
        for (offset, token) in tokens[start..<end].enumerated() {
            append(offset == 0 ? [] : [Piece(" ")], to: &pieces)
            append(marked(token, searched), to: &pieces)
        }
        if end < tokens.count { append([Piece("…")], to: &pieces) }
        return pieces
    }

    /// All of `text` (its spaces evened), the words matching the search marked.
    public static func marked(_ text: String, matching words: [String]) -> [Piece] {
        let searched = searchForms(words)
        var pieces: [Piece] = []
        for (index, token) in Self.words(in: text).enumerated() {
            append(index == 0 ? [] : [Piece(" ")], to: &pieces)
            append(searched.isEmpty ? [Piece(token)] : marked(token, searched), to: &pieces)
        }
        return pieces
    }

    // MARK: - Words

    private static func words(in text: Substring) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    private static func words(in text: String) -> [String] {
        words(in: text[...])
    }

    /// How many of `words` from `start` fit in `length` characters (one at least).
    private static func kept(_ words: [String], from start: Int, length: Int) -> Int {
        var used = 0, count = 0
        for word in words[start...] {
            let added = (count == 0 ? 0 : 1) + word.count
            if count > 0, used + added > length { break }
            used += added
            count += 1
        }
        return count
    }

    /// A search's words as the index folds them; those of scripts written
    /// without spaces are found anywhere inside a word, the others at a word's start.
    private struct Searched {
        var prefixes: [String] = []
        var inside: [String] = []
        var isEmpty: Bool { prefixes.isEmpty && inside.isEmpty }
    }

    private static func searchForms(_ words: [String]) -> Searched {
        var searched = Searched()
        for word in words {
            let folded = SearchText.folded(word)
            let isCut = word.contains(where: SearchText.isCutPerCharacter)
            let compact = folded.split(separator: " ").joined()
            guard !compact.isEmpty else { continue }
            if isCut { searched.inside.append(word.lowercased()) } else { searched.prefixes.append(compact) }
        }
        return searched
    }

    /// The ranges of `token` a search matched: the whole word (without its
    /// punctuation) when one of its parts or its number in the other form
    /// ("10", "ten") starts with a searched word; runs inside it for scripts
    /// written without spaces.
    private static func matches(in token: String, _ searched: Searched) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        let letters = token.indices.filter { token[$0].isLetter || token[$0].isNumber }
        if let first = letters.first, let last = letters.last, !searched.prefixes.isEmpty {
            let core = token[first...last]
            var forms = SearchText.folded(String(core)).split { !$0.isLetter && !$0.isNumber }.map(String.init)
            for part in forms {
                if part.allSatisfy(\.isASCII), let number = Int(part), let spelled = NumberWords.spelled(number) {
                    forms += spelled.split(separator: " ").map(String.init)
                } else if let number = NumberWords.digits(of: part) {
                    forms.append(String(number))
                }
            }
            if forms.contains(where: { form in searched.prefixes.contains { form.hasPrefix($0) } }) {
                ranges.append(first..<token.index(after: last))
            }
        }
        if ranges.isEmpty {
            for word in searched.inside {
                var from = token.startIndex
                while from < token.endIndex,
                      let found = token.range(of: word, options: .caseInsensitive, range: from..<token.endIndex) {
                    ranges.append(found)
                    from = found.upperBound
                }
            }
        }
        return ranges.sorted { $0.lowerBound < $1.lowerBound }
    }

    private static func marked(_ token: String, _ searched: Searched) -> [Piece] {
        var pieces: [Piece] = []
        var position = token.startIndex
        for range in matches(in: token, searched) where range.lowerBound >= position {
            if position < range.lowerBound { pieces.append(Piece(String(token[position..<range.lowerBound]))) }
            pieces.append(Piece(String(token[range]), matched: true))
            position = range.upperBound
        }
        if position < token.endIndex { pieces.append(Piece(String(token[position...]))) }
        return pieces
    }

    /// Appends, joining runs of the same kind.
    private static func append(_ added: [Piece], to pieces: inout [Piece]) {
        for piece in added {
            if let last = pieces.last, last.matched == piece.matched {
                pieces[pieces.count - 1].text += piece.text
            } else {
                pieces.append(piece)
            }
        }
    }
}
