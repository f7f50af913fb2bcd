import Foundation

/// The user's data and cache folders, as the XDG Base Directory
/// specification has them: `$XDG_DATA_HOME` and `$XDG_CACHE_HOME` when set to
/// an absolute path (a relative or empty one is ignored, as the specification
/// asks), else `$HOME/.local/share` and `$HOME/.cache`. `$HOME` is the home:
/// the passwd entry's only when `HOME` is unset or empty (Foundation's
/// `NSHomeDirectory()` reads the passwd entry and ignores `HOME`). Hark keeps
/// no configuration files: its settings live in the store's database; the
/// configuration home (`$XDG_CONFIG_HOME`, else `$HOME/.config`) holds only
/// the autostart entry that Running in the Background writes.
public struct XDGDirectories: Sendable, Equatable {
    public let home: String
    public let dataHome: URL
    public let cacheHome: URL
    public let configHome: URL

    /// The folders `environment` names; `passwdHome` is asked only when
    /// `HOME` is of no use.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                passwdHome: () -> String? = XDGDirectories.passwdHome) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? passwdHome() ?? "/"
        self.home = home
        func folder(_ variable: String, default relative: String) -> URL {
            if let set = environment[variable], set.hasPrefix("/") { return URL(fileURLWithPath: set) }
            return URL(fileURLWithPath: home).appendingPathComponent(relative)
        }
        dataHome = folder("XDG_DATA_HOME", default: ".local/share")
        cacheHome = folder("XDG_CACHE_HOME", default: ".cache")
        configHome = folder("XDG_CONFIG_HOME", default: ".config")
    }

    /// The home folder of the process's user in the passwd database.
    public static func passwdHome() -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        return buffer.withUnsafeMutableBufferPointer { strings in
            guard let start = strings.baseAddress, getpwuid_r(getuid(), &entry, start, strings.count, &found) == 0, found != nil,
                  let directory = entry.pw_dir else { return nil }
            return String(cString: directory)  // points into `strings`
        }
    }
}
