import AudioEngine
import Foundation
import GLibSupport
import Localization
import MessageStore
import StoreAudio
import Synchronization

/// `hark export ID PATH [--format F] [--force]`. The writing runs on a thread
/// of its own while the main loop watches for Ctrl+C (SIGINT) and SIGTERM, as
/// `record` does: a signal removes the half-written temporary file at once and
/// the command ends with a failure, leaving PATH as it was; a second signal,
/// or the write not stopping within `stopPatienceMilliseconds`, ends it then.
@MainActor
func runExport(id: String, path: String, force: Bool, format: String?) -> Int32 {
    guard let store = openStore(busyWait: 1_000) else { return 1 }  // as withStore: a locked store is busy, said soon
    defer { compareFilesAfterwards(store) }  // as withStore: the folder check after the work
    let source: String
    do { source = try store.exportSource(id) } catch {
        printFailure(error)
        return 1
    }
    let wanted = format.flatMap(AudioFormat.init(rawValue:))
    let outcome = Outcome()
    var interrupted = false
    let worker = Thread {
        do throws(StoreError) {
            try MessageStore.writeExport(from: source, to: path, format: wanted, overwrite: force)
        } catch {
            outcome.failure.withLock { $0 = error }
        }
        MainLoop.post { MainLoop.quit() }
    }
    worker.name = "hark-export"
    let stop: SourceHandler = {
        if interrupted { exit(1) }
        interrupted = true
        ExportWriter.abandonAll()
        MainLoop.timeout(milliseconds: stopPatienceMilliseconds) { exit(1) }
        return true
    }
    let signals = InterruptSignals(stop)
    defer {
        signals.remove()
    }
    worker.start()
    MainLoop.run()
    if let failure = outcome.failure.withLock({ $0 }) {
        printFailure(interrupted ? tr("interrupted: {path} was not written", ["path": path]) : "\(failure)")
        return 1
    }
    return 0
}

/// How long an interrupted export may take to stop writing.
private let stopPatienceMilliseconds: UInt32 = 1_500

/// What the export's thread hands back to the main thread.
private final class Outcome: Sendable {
    let failure = Mutex<StoreError?>(nil)
}
