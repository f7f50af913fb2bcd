import AudioEngine
import Foundation
import MessageStore

/// What the composer says, in the user's words: what is wrong with the
/// input, and why a recording stopped and what was kept.
extension ComposerView {
    /// The notice for the input as it is, nil when all is well.
    var inputNotice: String? {
        let text: String?
        switch inputCondition {
        case .quiet:
            text = "Your microphone is very quiet. Check that it is not muted and that its volume is up."
        case .clipping:
            text = "Your microphone is too loud, so the sound is clipping. Turn its volume down or move back a little."
        case .fine:
            text = recordsSpeakerOutput()
                ? "No microphone was found: System Default records what the speakers play. Choose an input in the microphone menu."
                : nil
        }
        return text
    }

    /// Why a recording stopped early, and what was kept, in the user's words.
    nonisolated static func explain(_ interruption: AudioError, saved seconds: Double) -> String {
        let kept = "the \(DurationText.spoken(seconds)) recorded until then were saved"
        switch interruption {
        case .diskFull:
            return "The disk is full, so the recording stopped; \(kept). Free some space to record more."
        case .deviceLost:
            return "The microphone was disconnected, so the recording stopped; \(kept)."
        default:
            return "The recording stopped early (\(interruption.description)); \(kept)."
        }
    }

    /// A take whose audio is in its file but whose message could not be
    /// written (a full disk): recovery completes it at the next start.
    nonisolated static func explainUnfinished(seconds: Double, interruption: AudioError?, error: Error) -> String {
        let kept = "The \(DurationText.spoken(seconds)) recorded are kept in their file"
        let later = "the message will be completed the next time Hark starts"
        if case .diskFull? = interruption {
            return "The disk is full, so the recording stopped. \(kept), and \(later) with space free."
        }
        return "\(kept), but the message could not be completed (\(error)); \(later)."
    }
}
