import Foundation
import HarkUI
import Localization

// The window's executable: `hark` execs it for `hark` (the window) and
// `hark gallery [--still]` and `hark record --toggle` and `hark --background`, keeping GTK out of every other command.
// Top-level code runs on the main actor, on the main thread GTK needs;
// HarkApplication.run bridges Swift concurrency onto GLib's loop.

/// Named as the process the user started ("hark", not "hark-window"), for
/// ps, pkill and the accessibility tree's process checks. Set before GTK
/// starts threads, which inherit it.
private func nameProcessHark() {
    let file = open("/proc/self/comm", O_WRONLY)
    guard file >= 0 else { return }
    _ = "hark".withCString { write(file, $0, strlen($0)) }
    close(file)
}

@MainActor
private func runWindow(_ arguments: [String]) -> Int32 {
    let programName = CommandLine.arguments.first ?? "hark"
    switch arguments {
    case []:
        return HarkApplication().run(programName: programName)
    case ["--background"]:
        return HarkApplication().runInBackground(programName: programName)
    case ["record", "--toggle"]:
        return HarkApplication().runTogglingRecording(programName: programName)
    case ["gallery"], ["gallery", "--still"]:
        return HarkApplication.gallery(still: arguments.count == 2).run(programName: programName)
    default:
        FileHandle.standardError.write(Data("hark-window: started by 'hark' (see 'hark --help')\n".utf8))
        return 2
    }
}

nameProcessHark()
Localization.start()
exit(runWindow(Array(CommandLine.arguments.dropFirst())))
