import AudioEngine
import Foundation
import GLibSupport
import Levels
import Localization

/// `hark record --output FILE.ogg [--duration S] [--source D] [--raw]`: records
/// until the duration is reached or Ctrl+C (SIGINT/SIGTERM), which stop cleanly.
@MainActor
func runRecord(output: String, duration: Double?, source: String?, raw: Bool) -> Int32 {
    var status: Int32 = 0
    let recorder = Recorder(outputPath: output, source: source.map { .pipeline($0) } ?? .defaultMicrophone,
                            maximumDuration: duration, voiceProcessing: !raw) { event in
        switch event {
        case .input(let condition):
            warnAbout(condition)
        case .finished(let recording):
            if let interruption = recording.interruption {
                printFailure(interruption)
                status = 1
            }
            MainLoop.quit()
        case .failed(let error):
            printFailure(error)
            status = 1
            MainLoop.quit()
        case .cancelled:
            status = 1
            MainLoop.quit()
        default:
            break
        }
    }
    warnIfUnprocessed(recorder, raw: raw)
    if let error = record(with: recorder, starting: recorder.start) {
        printFailure(error)
        return 1
    }
    return status
}

/// Starts `recorder` and runs the main loop until an event handler quits it.
/// Ctrl+C (SIGINT) or SIGTERM stops the recording cleanly; a second one, or
/// the stop taking longer than `stopPatience`, ends it at once with what was
/// written. Returns the error that kept the recording from starting, if one did.
/// `starting` starts it (the recorder's own start, or a take into the store's).
@MainActor
func record(with recorder: Recorder, starting: () throws(AudioError) -> Void) -> AudioError? {
    var impatience: Source?
    var stopRequested = false
    let stop: SourceHandler = {
        if stopRequested {
            recorder.finishNow()
            return true
        }
        stopRequested = true
        recorder.stop()
        impatience = MainLoop.timeout(milliseconds: stopPatienceMilliseconds) {
            impatience = nil
            recorder.finishNow()
            return false
        }
        return true
    }
    let signals = InterruptSignals(stop)
    defer {
        signals.remove()
        impatience?.remove()
    }
    do {
        try starting()
    } catch {
        return error
    }
    MainLoop.run()
    return nil
}

/// How long a signalled recording may take to close its file cleanly before
/// it is ended as it is: a user pressing Ctrl+C expects the command to end.
private let stopPatienceMilliseconds: UInt32 = 1_500

/// Says on stderr when the microphone is very quiet or clips (and when it
/// recovers), as the window does, so a silent take is not a surprise.
func warnAbout(_ condition: InputCondition) {
    switch condition {
    case .quiet: printFailure(tr("warning: the microphone is very quiet (check that it is not muted)"))
    case .clipping: printFailure(tr("warning: the microphone is clipping (turn its volume down)"))
    case .fine: printFailure(tr("the microphone's level is fine again"))
    }
}

/// Warns when voice processing was asked for but cannot be had.
@MainActor
func warnIfUnprocessed(_ recorder: Recorder, raw: Bool) {
    if !raw, !recorder.processesVoice, let reason = VoiceProcessing.unavailableReason {
        printFailure(tr("warning: recording without noise reduction. {reason}", ["reason": reason]))
    }
}
