import Foundation
import Localization

/// The window lives in an executable of its own (`hark-window`), so that the
/// command line never loads GTK: `hark` with no command, or `hark gallery`,
/// becomes that executable in the same process (same pid, same arguments'
/// first word, so the desktop sees the "hark" it started).
enum WindowLauncher {
    static let executableName = "hark-window"

    /// Where the window's executable is, relative to this one: beside it (a
    /// build folder), or in PREFIX/libexec/hark (an installation).
    static func candidates(besides executable: URL) -> [URL] {
        let folder = executable.deletingLastPathComponent()
        return [
            folder.appendingPathComponent(executableName),
            folder.deletingLastPathComponent().appendingPathComponent("libexec/hark/\(executableName)"),
        ]
    }

    /// Execs the window with ARGUMENTS; returns only when it could not.
    static func replaceProcess(with arguments: [String]) -> Int32 {
        let own = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
        let places = candidates(besides: own)
        guard let window = places.first(where: { access($0.path, X_OK) == 0 }) else {
            printFailure(tr("Hark's window is not installed: no {program} at {place} or {other}",
                            ["program": executableName, "place": places[0].path, "other": places[1].path]))
            return 1
        }
        let argv0 = CommandLine.arguments.first ?? "hark"
        var argv: [UnsafeMutablePointer<CChar>?] = ([argv0] + arguments).map { strdup($0) } + [nil]
        execv(window.path, &argv)
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        printFailure(tr("Hark's window could not be started ({program}): {reason}", ["program": window.path, "reason": reason]))
        return 1
    }
}
