import CGLib
import Foundation
@testable import HarkUI
import MessageStore
import Testing

/// The autostart entry as a desktop reads it: GLib's key file, then the
/// Exec key's words, whatever the folder `hark` is installed in is called.
struct AutostartEntryTests {
    /// The Exec key's words, as a desktop's launcher splits them.
    func execWords(_ text: String) throws -> [String] {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        #expect(g_key_file_load_from_data(file, text, gsize(text.utf8.count), G_KEY_FILE_NONE, nil) != 0)
        let exec = try #require(g_key_file_get_string(file, "Desktop Entry", "Exec", nil))
        defer { g_free(exec) }
        var count: gint = 0
        var words: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        #expect(g_shell_parse_argv(exec, &count, &words, nil) != 0)
        defer { g_strfreev(words) }
        return (0..<Int(count)).map { String(cString: words![$0]!) }
    }

    @Test(arguments: ["/usr/bin/hark", "/opt/Voice Apps/bin/hark", #"/home/o'neil/"quoted" $HOME\back`tick`/hark"#])
    func theEntryStartsThisHarkInTheBackground(_ executable: String) throws {
        #expect(try execWords(AutostartEntry.text(executable: executable)) == [executable, "--background"])
    }

    @Test func itLivesInTheConfigurationHomesAutostartFolder() {
        let entry = AutostartEntry(directories: XDGDirectories(environment: ["HOME": "/home/x", "XDG_CONFIG_HOME": "/cfg"]))
        #expect(entry.path.path == "/cfg/autostart/io.github.hark.Hark.desktop")
    }
}
