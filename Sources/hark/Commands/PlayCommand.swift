import AudioEngine
import Foundation
import GLibSupport
import Levels
import Localization
import MessageStore

/// `hark play FILE|ID [--start S] [--rate R] [--skip-silence]`: plays to the
/// default output until the end (status 0), Ctrl+C or SIGTERM. An argument
/// that is no file is taken for a message id. With Skip Silence, the pauses
/// are judged from the message's stored levels (a file is analysed first),
/// and the time saved is printed at the end.
@MainActor
func runPlay(target: String, start: Double, rate: Double, skipSilence: Bool) -> Int32 {
    var path = target
    var storedLevels: (LevelTrack, duration: Double)?
    if !FileManager.default.fileExists(atPath: target), !target.contains("/") {
        // A store that cannot be opened says why, rather than "no such file".
        let store: MessageStore
        do { store = try MessageStore() } catch {
            printFailure(error)
            return 1
        }
        if let message = try? store.message(target) {
            path = store.audioPath(of: message)
            if skipSilence, let levels = try? store.levels(of: message.id) { storedLevels = (levels, message.duration) }
        }
    }
    var skipping: SilenceSkipping?
    if skipSilence {
        if storedLevels == nil {
            do throws(AudioError) {
                let analysis = try Analyzer.analyze(path: path)
                storedLevels = (analysis.levels, analysis.duration)
            } catch {
                printFailure(error)
                return 1
            }
        }
        skipping = storedLevels.map { SilenceSkipping(levels: $0.0, duration: $0.duration) }
    }
    var status: Int32 = 0
    var reached = start
    let player = Player(audioSink: ProcessInfo.processInfo.environment["HARK_AUDIO_SINK"]) { event in
        switch event {
        case .position(let seconds):
            reached = max(reached, seconds)
        case .ended:
            reached = .infinity
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
    player.skipping = skipping
    if start > 0 { player.seek(to: start) }
    player.play()
    MainLoop.run()
    if let skipping, status == 0 {
        let saved = skipping.savedSeconds(before: reached) - skipping.savedSeconds(before: start)
        // TRANSLATORS: printed when `hark play --skip-silence` ends: "Skip Silence saved 3.4 s".
        print(tr("Skip Silence saved {seconds} s", ["seconds": String(format: "%.1f", saved)]))
    }
    return status
}
