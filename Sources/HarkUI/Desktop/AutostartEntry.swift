import Foundation
import Identity
import MessageStore

/// The XDG autostart entry (`$XDG_CONFIG_HOME/autostart/<app id>.desktop`)
/// that starts Hark at login with no window (`hark --background`), written
/// while Running in the Background is on and an account is signed in.
struct AutostartEntry {
    let path: URL

    init(directories: XDGDirectories = XDGDirectories()) {
        path = directories.configHome.appendingPathComponent("autostart").appendingPathComponent(AppInfo.id + ".desktop")
    }

    /// The entry's text: `executable` quoted as the Desktop Entry
    /// specification's Exec key asks when it holds a space or a quote.
    static func text(executable: String) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=\(AppInfo.name)
        Exec=\(execQuoted(executable)) --background
        Icon=\(AppInfo.id)
        Terminal=false
        NoDisplay=true
        X-GNOME-Autostart-enabled=true

        """
    }

    private static func execQuoted(_ word: String) -> String {
        let reserved = CharacterSet(charactersIn: " \t\n\"'\\><~|&;$*?#()`=%")
        guard word.rangeOfCharacter(from: reserved) != nil else { return word }
        var quoted = ""
        for character in word {
            if "\"`$\\".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        // The desktop file's own string escapes come on top of Exec's.
        return "\"" + quoted.replacingOccurrences(of: "\\", with: "\\\\") + "\""
    }

    /// `hark` beside the window's executable (a build folder) or in
    /// PREFIX/bin for PREFIX/libexec/hark/hark-window; else `hark` on PATH.
    static var harkExecutable: String {
        let own = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
        let folder = own.deletingLastPathComponent()
        let places = [folder.appendingPathComponent("hark"),
                      folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("bin/hark")]
        return places.first { access($0.path, X_OK) == 0 }?.path ?? "hark"
    }

    /// Writes the entry, readable by its owner only, through a file renamed into place.
    func write(executable: String = AutostartEntry.harkExecutable) throws {
        let folder = path.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(path.lastPathComponent).\(getpid())")
        let file = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path]) }
        let bytes = Array(Self.text(executable: executable).utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(file, $0.baseAddress, $0.count) }
        close(file)
        guard written == bytes.count, rename(temporary.path, path.path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path.path])
        }
    }

    func remove() {
        unlink(path.path)
    }
}
