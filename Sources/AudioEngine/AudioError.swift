import Localization

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
        trn("it is a chained Ogg file ({count} stream joined one after another), which Hark cannot play reliably; "
                + "export it as WAV or MP3 to hear all of it",
            "it is a chained Ogg file ({count} streams joined one after another), which Hark cannot play reliably; "
                + "export it as WAV or MP3 to hear all of it", links)
    }

    public var description: String {
        switch self {
        case .microphoneUnavailable(let detail):
            return tr("No microphone available ({reason}). Check that a microphone is connected and the sound server "
                      + "(PipeWire or PulseAudio) is running.", ["reason": detail])
        case .deviceLost(let detail):
            return tr("The microphone was disconnected during the recording ({reason}); what was recorded until then is kept.",
                      ["reason": detail])
        case .diskFull(let path):
            return tr("The disk is full: recording stopped, what was written to {path} is kept.", ["path": path])
        case .cannotWrite(let path, let detail):
            return tr("Cannot write {path}: {reason}.", ["path": path, "reason": detail])
        case .outputUnavailable(let detail):
            return tr("No sound output available ({reason}). Check that the sound server is running.", ["reason": detail])
        case .fileMissing(let path):
            return tr("{path}: no such file.", ["path": path])
        case .notAudio(let path, let detail):
            return tr("{path} is not an audio file Hark can read ({reason}).", ["path": path, "reason": detail])
        case .chainedOgg(let path, let links):
            return trn("{path} is a chained Ogg file ({count} stream joined one after another), which Hark cannot "
                           + "play reliably; convert it into a single stream first.",
                       "{path} is a chained Ogg file ({count} streams joined one after another), which Hark cannot "
                           + "play reliably; convert it into a single stream first.", links, ["path": path])
        case .noAudio(let path):
            return tr("{path} contains no audio.", ["path": path])
        case .invalidSource(let detail):
            return tr("Invalid audio source: {reason}.", ["reason": detail])
        case .cancelled:
            return tr("Cancelled.")
        case .failed(let detail):
            return detail
        }
    }
}
