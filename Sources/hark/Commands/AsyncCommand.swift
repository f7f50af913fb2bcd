import Foundation
import GLibSupport

/// Runs an asynchronous command on GLib's main loop (where libsoup and
/// libsecret answer) and returns its exit status. Ctrl+C or SIGTERM cancel
/// it: the command ends what it was doing (a long-poll is cancelled, a send
/// stays queued in the store) and returns; a second signal ends the process.
@MainActor
func runOnLoop(_ body: @escaping @MainActor () async -> Int32) -> Int32 {
    var status: Int32 = 1
    var interrupted = false
    let task = Task { @MainActor in
        status = await body()
        MainLoop.quit()
    }
    let stop: SourceHandler = {
        if interrupted { exit(130) }
        interrupted = true
        task.cancel()
        return true
    }
    let signals = InterruptSignals(stop)
    defer {
        signals.remove()
    }
    MainLoop.run()
    return status
}
