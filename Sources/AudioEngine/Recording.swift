import Levels

/// A finished recording: the file, how long it is, and its levels — which
/// become the message's cached waveform, never decoded again.
public struct Recording: Sendable, Equatable {
    public var path: String
    public var duration: Double
    public var levels: LevelTrack
    /// Why the recording ended early, when it did (device lost, disk full);
    /// what was recorded until then is in the file.
    public var interruption: AudioError?
    /// The maximum duration stopped it.
    public var reachedMaximumDuration: Bool
}

public enum RecorderEvent: Sendable, Equatable {
    /// Sound is flowing into the file.
    case started
    /// One level interval (50 ms): RMS and peak in dBFS, and the recorded time so far.
    case level(rms: Double, peak: Double, elapsed: Double)
    /// The microphone's raw input became too quiet, began clipping, or
    /// recovered (sent on each change; `.fine` after a warning).
    case input(InputCondition)
    case paused
    case resumed
    /// The file is complete and closed (also after an interruption that kept audio).
    case finished(Recording)
    /// Cancelled: the file is deleted.
    case cancelled
    /// Nothing was recorded (no microphone, unwritable file…); no file is left.
    case failed(AudioError)
}

public enum RecorderState: Sendable, Equatable {
    case idle, starting, recording, paused, stopping, finished, cancelled, failed
}
