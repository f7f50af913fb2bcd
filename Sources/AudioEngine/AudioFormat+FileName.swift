import Foundation

/// How an export's file name and its format are kept in step: the extension
/// the user types picks the format, and picking a format rewrites the
/// extension, so what is written is always what the name says.
extension AudioFormat {
    /// The file extensions that ask for each format (lower case).
    public var fileExtensions: [String] {
        switch self {
        case .opus: return ["ogg", "opus", "oga"]
        case .mp3: return ["mp3"]
        case .wav: return ["wav"]
        }
    }

    /// The format to write for a typed name: the one its extension asks
    /// for, else `selected` (the format list's).
    public static func forTypedName(_ name: String, selected: AudioFormat) -> AudioFormat {
        AudioFormat(pathExtensionOf: name) ?? selected
    }

    /// `name` (a file name or a path) with this format's extension: a known
    /// audio extension is replaced, anything else kept and the extension
    /// added; a name that already asks for this format is left as typed.
    public func name(_ name: String) -> String {
        if AudioFormat(pathExtensionOf: name) == self { return name }
        let url = URL(fileURLWithPath: name)
        let base = AudioFormat(pathExtensionOf: name) != nil ? url.deletingPathExtension().lastPathComponent : url.lastPathComponent
        let folder = name.contains("/") ? url.deletingLastPathComponent().path : nil
        let renamed = base + "." + fileExtension
        guard let folder else { return renamed }
        return folder == "/" ? "/" + renamed : folder + "/" + renamed
    }

    /// A name whose last two extensions are both audio ones ("take
    /// three.wav.ogg"): what typing over a suggested name's selected base
    /// makes (GTK selects the name without its extension). The earlier one is
    /// the user's, so the name without the last one; nil for any other name.
    public static func typedOverSuggested(_ name: String) -> String? {
        let url = URL(fileURLWithPath: name)
        guard AudioFormat(pathExtensionOf: name) != nil else { return nil }
        let typed = String(name.dropLast(url.pathExtension.count + 1))
        guard AudioFormat(pathExtensionOf: typed) != nil, !URL(fileURLWithPath: typed).deletingPathExtension().lastPathComponent.isEmpty
        else { return nil }
        return typed
    }
}
