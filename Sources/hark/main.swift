import Foundation
import GLibSupport
import HarkUI

// Top-level code runs on the main actor, on the process's main thread: the
// thread GTK and the GLib main loop need. Keep it synchronous: one `await`
// here would make it an async main running inside libdispatch's main-queue
// drain, where the GLib bridge could no longer run any main-actor task.
// The bridge goes in here, once, for every command: no command's loop can
// then be one where a main-actor task silently never runs (rule 4).
MainLoop.bridgeSwiftConcurrency()
let request: CommandLineRequest
switch RawArguments.read() {
case .success(let arguments): request = CommandLineRequest.parse(arguments)
case .failure(let error): request = .usageError(error.reason)
}
switch request {
case .gui:
    let application = HarkApplication()
    exit(application.run(programName: CommandLine.arguments.first ?? "hark"))
case .gallery(let still):
    let gallery = HarkApplication.gallery(still: still)
    exit(gallery.run(programName: CommandLine.arguments.first ?? "hark"))
case .help:
    print(CommandLineRequest.usage)
case .version:
    print("hark \(AppInfo.version)")
case .record(let output?, let duration, let source, _, let raw):
    exit(runRecord(output: output, duration: duration, source: source, raw: raw))
case .record(nil, let duration, let source, let title, let raw):
    exit(runRecordIntoStore(duration: duration, source: source, title: title, raw: raw))
case .play(let target, let start, let rate):
    exit(runPlay(target: target, start: start, rate: rate))
case .list(let json, let limit):
    exit(runList(json: json, limit: limit))
case .importFiles(let files):
    exit(runImport(files))
case .rename(let id, let title):
    exit(runRename(id: id, title: title))
case .delete(let id):
    exit(runDelete(id: id))
case .undelete(let id):
    exit(runUndelete(id: id))
case .export(let id, let path, let force, let format):
    exit(runExport(id: id, path: path, force: force, format: format))
case .waveform(let input, let png, let width, let height, let played, let style, let dark, let force):
    exit(runWaveform(input: input, png: png, width: width, height: height, played: played, style: style, dark: dark,
                     force: force))
case .levels(let path):
    exit(runLevels(path: path))
case .usageError(let reason):
    printFailure("\(reason) (see 'hark --help')")
    exit(2)
}
