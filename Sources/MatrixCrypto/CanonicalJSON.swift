import Foundation

/// Canonical JSON (spec appendix "Canonical JSON"), the bytes that get signed:
/// UTF-8, no insignificant whitespace, object keys sorted by code point,
/// integers only, and the shortest escapes (only `"`, `\` and U+0000–U+001F).
public enum CanonicalJSON {
    /// The largest magnitude canonical JSON allows: 2^53 − 1.
    public static let largestInteger: Int64 = 9_007_199_254_740_991

    public static func encode(_ value: JSONValue) throws(CryptoError) -> Data {
        var text = ""
        try write(value, into: &text)
        return Data(text.utf8)
    }

    public static func string(_ value: JSONValue) throws(CryptoError) -> String {
        var text = ""
        try write(value, into: &text)
        return text
    }

    private static func write(_ value: JSONValue, into text: inout String) throws(CryptoError) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .integer(let number):
            guard number >= -largestInteger, number <= largestInteger else { throw CryptoError.notCanonical }
            text += String(number)
        case .number(let number):
            // A whole number written with a fraction or an exponent (1e10, -0.0) is still an integer.
            guard number.isFinite, number == number.rounded(), abs(number) <= Double(largestInteger) else {
                throw CryptoError.notCanonical
            }
            text += String(Int64(number))
        case .string(let string): writeString(string, into: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                try write(element, into: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            // UTF-8 byte order is code point order (Swift's own String order is not).
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { text += "," }
                writeString(key, into: &text)
                text += ":"
                try write(members[key]!, into: &text)
            }
            text += "}"
        }
    }

    /// The escapes with a short form; other characters below U+0020 take `\u00xx`.
    private static let shortEscapes: [Unicode.Scalar: String] = [
        "\"": "\\\"", "\\": "\\\\", "\u{08}": "\\b", "\u{0C}": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
    ]

    private static func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            if let escape = shortEscapes[scalar] {
                text += escape
            } else if scalar.value < 0x20 {
                text += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
