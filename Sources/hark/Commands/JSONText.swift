/// JSON text written by hand for `hark list --json`, byte for byte as
/// Foundation's JSONSerialization writes it (which costs ~60 µs an object:
/// 6 s for 100,000 messages).
enum JSONText {
    /// A string literal: quotes, backslashes and slashes escaped, control
    /// characters as \b \f \n \r \t or \u00xx, everything else as it is.
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += "\\/"
            case "\u{8}": out += "\\b"
            case "\u{c}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A number: whole ones without a fraction ("60"), others as Swift
    /// writes them ("1.234"); one that is not finite (never a duration) as 0.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
