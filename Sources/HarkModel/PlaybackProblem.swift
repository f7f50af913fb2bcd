import AudioEngine
import Localization

/// Why a message did not play, in words for its toast: "Cannot play
/// “Parking spot”: no sound output". The reason is short enough to stay on
/// the toast's line (a bare title with the reason behind Details said
/// nothing). Pure, so it is tested without a display.
public enum PlaybackProblem {
    public static func sentence(title: String, error: AudioError) -> String {
        tr("Cannot play “{title}”: {reason}", ["title": title, "reason": reason(error)])
    }

    static func reason(_ error: AudioError) -> String {
        switch error {
        case .outputUnavailable: return tr("no sound output")
        case .fileMissing: return tr("its audio file is gone")
        case .notAudio: return tr("its audio file cannot be read")
        case .chainedOgg(_, let links): return AudioError.chainedMessage(links: links)
        default: return error.description
        }
    }

    /// Whether the failure means the message's file is gone (the message
    /// then shows as missing at once).
    static func meansFileGone(_ error: AudioError) -> Bool {
        if case .fileMissing = error { return true }
        return false
    }
}
