import Foundation

/// Base64 as Matrix writes it: the standard alphabet without `=` padding
/// (spec appendix "Unpadded Base64"), and the URL-safe alphabet, also unpadded,
/// for a JSON Web Key's `k`. Decoding accepts input with or without padding,
/// as the spec asks of readers.
public enum MatrixBase64 {
    public static func encode(_ data: Data) -> String {
        var text = data.base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    public static func encodeURLSafe(_ data: Data) -> String {
        String(encode(data).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// nil for anything that is not base64 in the standard alphabet.
    public static func decode(_ text: String) -> Data? {
        guard !text.contains("-"), !text.contains("_") else { return nil }
        return Data(base64Encoded: padded(text))
    }

    /// nil for anything that is not base64 in the URL-safe alphabet.
    public static func decodeURLSafe(_ text: String) -> Data? {
        guard !text.contains("+"), !text.contains("/") else { return nil }
        return Data(base64Encoded: padded(String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })))
    }

    private static func padded(_ text: String) -> String {
        var unpadded = Substring(text)
        while unpadded.hasSuffix("=") { unpadded.removeLast() }
        let remainder = unpadded.utf8.count % 4
        // One character over a multiple of four carries fewer than eight bits: never valid.
        guard remainder != 1 else { return "!" }
        return String(unpadded) + String(repeating: "=", count: remainder == 0 ? 0 : 4 - remainder)
    }
}
