import Foundation

/// `{name}` placeholders in a translated sentence.
public enum Placeholders {
    /// TEXT with each `{key}` replaced by its value; unknown names stay.
    public static func fill(_ text: String, _ values: [(String, String)]) -> String {
        var filled = text
        for (key, value) in values {
            filled = filled.replacingOccurrences(of: "{" + key + "}", with: value)
        }
        return filled
    }

    /// The placeholder names TEXT uses, in order of first use.
    public static func names(in text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = String(after[..<close])
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "_" }), !found.contains(name) {
                found.append(name)
            }
            rest = after[after.index(after: close)...]
        }
        return found
    }
}
