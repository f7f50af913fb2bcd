/// Everything that can go wrong with sound, each with a message fit to show
/// a user: what happened, and where useful what to check.
public enum AudioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No sound server, no capture device, or the device refused to open.
    case microphoneUnavailable(detail: String)
    /// The capture device went away while recording (unplugged, server gone).
    case deviceLost(detail: String)
    /// The disk filled up while writing `path`.
    case diskFull(path: String)
    /// `path` cannot be created or written.
    case cannotWrite(path: String, detail: String)
    /// No sound output to play to.
    case outputUnavailable(detail: String)
    case fileMissing(path: String)
    /// The file is not audio GStreamer can decode (or not a file at all).
    case notAudio(path: String, detail: String)
    /// An Ogg file of several streams one after another (`cat a.ogg b.ogg`):
    /// GStreamer 1.22 cannot seek in it, so Hark neither imports nor plays it.
    case chainedOgg(path: String, links: Int)
    /// The file is audio, but holds no sound to speak of.
    case noAudio(path: String)
    /// A GStreamer description (from the user or a test) did not parse.
    case invalidSource(detail: String)
    case cancelled
    /// Anything else GStreamer reported.
    case failed(detail: String)

    /// Why a chained Ogg file already in the store does not play, and what
    /// gives all of it (the transcoder reads every link).
    public static func chainedMessage(links: Int) -> String {
        "it is a chained Ogg file (\(links) streams joined one after another), which Hark cannot play reliably; "
            + "export it as WAV or MP3 to hear all of it"
    }

    public var description: String {
        switch self {
        case .microphoneUnavailable(let detail):
            return "No microphone available (\(detail)). Check that a microphone is connected and the sound server (PipeWire or PulseAudio) is running."
        case .deviceLost(let detail):
            return "The microphone was disconnected during the recording (\(detail)); what was recorded until then is kept."
        case .diskFull(let path):
            return "The disk is full: recording stopped, what was written to \(path) is kept."
        case .cannotWrite(let path, let detail):
            return "Cannot write \(path): \(detail)."
        case .outputUnavailable(let detail):
            return "No sound output available (\(detail)). Check that the sound server is running."
        case .fileMissing(let path):
            return "\(path): no such file."
        case .notAudio(let path, let detail):
            return "\(path) is not an audio file Hark can read (\(detail))."
        case .chainedOgg(let path, let links):
            return "\(path) is a chained Ogg file (\(links) streams joined one after another), which Hark cannot "
                + "play reliably; convert it into a single stream first."
        case .noAudio(let path):
            return "\(path) contains no audio."
        case .invalidSource(let detail):
            return "Invalid audio source: \(detail)."
        case .cancelled:
            return "Cancelled."
        case .failed(let detail):
            return detail
        }
    }
}
