/// Text from the store (a title) made safe to print to a terminal: control
/// characters, which could move the cursor, recolour or retitle the
/// terminal, are shown in caret notation (ESC as `^[`, DEL as `^?`) and the
/// C1 controls as `\u{9B}`. So are the bidirectional embeddings, overrides
/// and isolates (U+202A–U+202E, U+2066–U+2069): one in a title would reverse
/// the rest of its line, the ids and dates after it too. Everything else,
/// every script (right-to-left ones included) and emoji, is kept.
func terminalSafe(_ text: String) -> String {
    var shown = ""
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x00..<0x20:
            shown += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
        case 0x7F:
            shown += "^?"
        case 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069:
            shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default:
            shown.unicodeScalars.append(scalar)
        }
    }
    return shown
}
