import Foundation
import Localization

/// File names for messages that leave the store (Export…, a drag, a copy):
/// the title, safe for any file system, shell, chat app or mail program.
public enum ExportName {
    /// Longest name in bytes, leaving room for an extension within the
    /// 255-byte limit of common file systems.
    static let maximumBytes = 200

    /// `Dentist on Monday.ogg` for "Dentist on Monday": every kind of space
    /// (the narrow no-break space in "5:15 PM", tabs, new lines) becomes a
    /// plain one, invisible and control characters go, `/` and `\` become
    /// `-`, `:` becomes `.`, characters other systems refuse (`*?"<>|`) go,
    /// and no name starts with a dot or is empty.
    public static func forTitle(_ title: String, fileExtension: String) -> String {
        var name = ""
        for scalar in title.unicodeScalars {
            switch scalar {
            case "/", "\\": name.append("-")
            case ":": name.append(".")
            case "*", "?", "\"", "<", ">", "|": continue
            default:
                if scalar.properties.isWhitespace {
                    name.append(" ")
                } else if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                    continue
                } else {
                    name.unicodeScalars.append(scalar)
                }
            }
        }
        while name.contains("  ") { name = name.replacingOccurrences(of: "  ", with: " ") }
        name = name.trimmingCharacters(in: CharacterSet(charactersIn: " .-"))
        while name.utf8.count > maximumBytes { name.removeLast() }
        name = name.trimmingCharacters(in: CharacterSet(charactersIn: " .-"))
        if name.isEmpty { name = tr("Voice message") }
        return fileExtension.isEmpty ? name : "\(name).\(fileExtension)"
    }
}
