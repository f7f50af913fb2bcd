import Foundation
import HarkUI

// Top-level code runs on the main actor, on the process's main thread: the
// thread GTK and the GLib main loop need.
switch CommandLineRequest.parse(Array(CommandLine.arguments.dropFirst())) {
case .gui:
    let application = HarkApplication()
    exit(application.run(programName: CommandLine.arguments.first ?? "hark"))
case .help:
    print(CommandLineRequest.usage)
case .version:
    print("hark \(AppInfo.version)")
case .usageError(let reason):
    FileHandle.standardError.write(Data("hark: \(reason) (see 'hark --help')\n".utf8))
    exit(2)
}
