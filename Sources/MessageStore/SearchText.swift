/// Text as the search index holds it and as a search reads what is typed,
/// so that part of a title is found in any script. SQLite's unicode61
/// tokenizer splits words at spaces and punctuation, folds case, and (on
/// Debian 12's SQLite 3.40) removes diacritics from Latin letters only; the
/// rest is done here, before it:
/// - scripts written without spaces between words (Chinese, Japanese, Thai,
///   Lao, Khmer, Burmese) and Korean, whose words carry their particles
///   ("회의는"), are cut into one token per character, so that a search for
///   any run of them is a phrase of consecutive tokens ("会议", "회의");
/// - accents go from Greek (and Latin, Cyrillic) letters: "Δευτέρα" is
///   "δευτερα", final sigma included;
/// - Arabic-script text loses its short vowels and tatweel, and the Arabic
///   forms of yeh and kaf are the Persian ones, so "كتاب" finds "کتاب";
/// - Persian and Arabic-Indic digits are ASCII digits ("۱۰" finds "10");
/// - apostrophes join a word, never split it ("grandma's" is "grandmas").
/// Pure and deterministic: the index's triggers call it through SQLite
/// (`hark_search_text`, registered on every connection the store opens).
public enum SearchText {
    /// Apostrophes, typed or typeset.
    public static let apostrophes: Set<Character> = ["'", "’", "‘", "ʼ"]

    public static func folded(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var lastWasCut = false
        for character in text.lowercased() {
            if apostrophes.contains(character) { continue }
            if isCutPerCharacter(character) {
                // Spaces on both sides: a token of its own, a phrase with its neighbours.
                if !lastWasCut { result.append(" ") }
                result.append(character)
                result.append(" ")
                lastWasCut = true
                continue
            }
            lastWasCut = false
            result.append(contentsOf: plain(character))
        }
        return result
    }

    /// Whether `character` is in a script written without spaces between
    /// words, or is Korean.
    static func isCutPerCharacter(_ character: Character) -> Bool {
        guard let value = character.unicodeScalars.first?.value else { return false }
        switch value {
        case 0x0E00...0x0EFF,      // Thai, Lao
             0x1000...0x109F,      // Myanmar
             0x1100...0x11FF,      // Hangul Jamo
             0x1780...0x17FF,      // Khmer
             0x3040...0x30FF,      // Hiragana, Katakana
             0x3130...0x318F,      // Hangul compatibility jamo
             0x3400...0x4DBF,      // CJK extension A
             0x4E00...0x9FFF,      // CJK unified ideographs
             0xAC00...0xD7AF,      // Hangul syllables
             0xF900...0xFAFF,      // CJK compatibility ideographs
             0xFF66...0xFF9F,      // half-width Katakana
             0x20000...0x3134F:    // CJK extensions B–G
            return true
        default:
            return false
        }
    }

    /// One character of a spaced script, folded.
    private static func plain(_ character: Character) -> String {
        guard let first = character.unicodeScalars.first else { return "" }
        switch first.value {
        case 0x0041...0x024F, 0x0370...0x04FF, 0x1E00...0x1FFF:
            // Latin, Greek, Cyrillic: the letter without its accents.
            let bare = String(String(character).decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                $0.properties.generalCategory != .nonspacingMark
            })
            return bare == "ς" ? "σ" : bare
        case 0x0600...0x06FF:
            return arabicScript(character)
        default:
            return String(character)
        }
    }

    private static func arabicScript(_ character: Character) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in character.unicodeScalars {
            switch scalar.value {
            case 0x064B...0x065F, 0x0670, 0x0640: continue            // short vowels, superscript alef, tatweel
            case 0x0660...0x0669, 0x06F0...0x06F9:                      // digits
                kept.append(contentsOf: String(scalar.value & 0x0F).unicodeScalars)
            case 0x064A, 0x0649: kept.append(Unicode.Scalar(0x06CC)!)  // Arabic yeh, alef maksura → Persian yeh
            case 0x0643: kept.append(Unicode.Scalar(0x06A9)!)          // Arabic kaf → keheh
            default: kept.append(scalar)
            }
        }
        return String(kept)
    }
}
