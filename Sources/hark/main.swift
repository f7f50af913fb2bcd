import Foundation
import HarkUI

// Top-level code runs on the main actor, on the process's main thread: the
// thread GTK and the GLib main loop need. Keep it synchronous: one `await`
// here would make it an async main running inside libdispatch's main-queue
// drain, where the GLib bridge could no longer run any main-actor task.
switch CommandLineRequest.parse(Array(CommandLine.arguments.dropFirst())) {
case .gui:
    let application = HarkApplication()
    exit(application.run(programName: CommandLine.arguments.first ?? "hark"))
case .help:
    print(CommandLineRequest.usage)
case .version:
    print("hark \(AppInfo.version)")
case .record(let output, let duration, let source):
    exit(runRecord(output: output, duration: duration, source: source))
case .play(let path, let start, let rate):
    exit(runPlay(path: path, start: start, rate: rate))
case .levels(let path):
    exit(runLevels(path: path))
case .usageError(let reason):
    printFailure("\(reason) (see 'hark --help')")
    exit(2)
}
