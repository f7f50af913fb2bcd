/// Text from the store (a title) made safe to print to a terminal: control
/// characters, which could move the cursor, recolour or retitle the
/// terminal, are shown in caret notation (ESC as `^[`, DEL as `^?`) and the
/// C1 controls as `\u{9B}`. Everything else, every script and emoji, is kept.
func terminalSafe(_ text: String) -> String {
    var shown = ""
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x00..<0x20:
            shown += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
        case 0x7F:
            shown += "^?"
        case 0x80..<0xA0:
            shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default:
            shown.unicodeScalars.append(scalar)
        }
    }
    return shown
}
