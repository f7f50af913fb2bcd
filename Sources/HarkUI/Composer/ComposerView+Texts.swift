import AudioEngine
import Foundation
import Localization
import MessageStore

/// What the composer says, in the user's words: what is wrong with the
/// input, and why a recording stopped and what was kept.
extension ComposerView {
    /// The notice for the input as it is, nil when all is well.
    var inputNotice: String? {
        let text: String?
        switch inputCondition {
        case .quiet:
            text = tr("Your microphone is very quiet. Check that it is not muted and that its volume is up.")
        case .clipping:
            text = tr("Your microphone is too loud, so the sound is clipping. Turn its volume down or move back a little.")
        case .fine:
            // TRANSLATORS: “System Default” is the first item of the microphone menu: the same words as there.
            text = recordsSpeakerOutput()
                ? tr("No microphone was found: System Default records what the speakers play. "
                     + "Choose an input in the microphone menu.")
                : nil
        }
        return text
    }

    /// Why a recording stopped early, and what was kept, in the user's words.
    nonisolated static func explain(_ interruption: AudioError, saved seconds: Double) -> String {
        let duration = DurationText.spoken(seconds)
        switch interruption {
        case .diskFull:
            // TRANSLATORS: {duration} is a length of time, "12 seconds", "1 minute 5 seconds".
            return tr("The disk is full, so the recording stopped; the {duration} recorded until then were saved. "
                      + "Free some space to record more.", ["duration": duration])
        case .deviceLost:
            // TRANSLATORS: {duration} is a length of time, "12 seconds", "1 minute 5 seconds".
            return tr("The microphone was disconnected, so the recording stopped; "
                      + "the {duration} recorded until then were saved.", ["duration": duration])
        default:
            // TRANSLATORS: {reason} is what went wrong, {duration} a length of time, "12 seconds".
            return tr("The recording stopped early ({reason}); the {duration} recorded until then were saved.",
                      ["reason": interruption.description, "duration": duration])
        }
    }

    /// A take whose audio is in its file but whose message could not be
    /// written (a full disk): recovery completes it at the next start.
    nonisolated static func explainUnfinished(seconds: Double, interruption: AudioError?, error: Error) -> String {
        let duration = DurationText.spoken(seconds)
        if case .diskFull? = interruption {
            // TRANSLATORS: {duration} is a length of time, "12 seconds", "1 minute 5 seconds".
            return tr("The disk is full, so the recording stopped. The {duration} recorded are kept in their file, "
                      + "and the message will be completed the next time Hark starts with space free.",
                      ["duration": duration])
        }
        // TRANSLATORS: {duration} is a length of time, "12 seconds"; {reason} is what went wrong.
        return tr("The {duration} recorded are kept in their file, but the message could not be completed "
                  + "({reason}); the message will be completed the next time Hark starts.",
                  ["duration": duration, "reason": "\(error)"])
    }
}
