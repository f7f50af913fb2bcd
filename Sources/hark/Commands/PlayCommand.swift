import AudioEngine
import Foundation
import GLibSupport
import Localization
import MessageStore

/// `hark play FILE|ID [--start S] [--rate R]`: plays to the default output
/// until the end (status 0), Ctrl+C or SIGTERM. An argument that is no file is taken
/// for a message id.
@MainActor
func runPlay(target: String, start: Double, rate: Double) -> Int32 {
    var path = target
    if !FileManager.default.fileExists(atPath: target), !target.contains("/") {
        // A store that cannot be opened says why, rather than "no such file".
        let store: MessageStore
        do { store = try MessageStore() } catch {
            printFailure(error)
            return 1
        }
        if let message = try? store.message(target) { path = store.audioPath(of: message) }
    }
    var status: Int32 = 0
    let player = Player(audioSink: ProcessInfo.processInfo.environment["HARK_AUDIO_SINK"]) { event in
        switch event {
        case .ended:
            MainLoop.quit()
        case .failed(let error):
            printFailure(error)
            status = 1
            MainLoop.quit()
        default:
            break
        }
    }
    let stop: SourceHandler = {
        player.stop()
        MainLoop.quit()
        return false
    }
    let signals = InterruptSignals(stop)
    defer {
        signals.remove()
    }
    do {
        try player.load(path)
    } catch AudioError.chainedOgg(_, let links) where path != target {
        printFailure(tr("message {id} cannot be played: {reason} (hark export).",
                         ["id": target, "reason": AudioError.chainedMessage(links: links)]))
        return 1
    } catch {
        printFailure(error)
        return 1
    }
    player.setRate(rate)
    if start > 0 { player.seek(to: start) }
    player.play()
    MainLoop.run()
    return status
}
