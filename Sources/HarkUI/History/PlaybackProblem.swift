import AudioEngine

/// Why a message did not play, in words for its toast: "Cannot play
/// “Parking spot”: no sound output". The reason is short enough to stay on
/// the toast's line (a bare title with the reason behind Details said
/// nothing). Pure, so it is tested without a display.
enum PlaybackProblem {
    static func sentence(title: String, error: AudioError) -> String {
        "Cannot play “\(title)”: \(reason(error))"
    }

    static func reason(_ error: AudioError) -> String {
        switch error {
        case .outputUnavailable: return "no sound output"
        case .fileMissing: return "its audio file is gone"
        case .notAudio: return "its audio file cannot be read"
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
