/// Where a recording's sound comes from.
public enum RecorderSource: Sendable, Equatable {
    /// The system's default input, through the sound server (PulseAudio or
    /// PipeWire). Not `autoaudiosrc`: with no server it falls back to a silent
    /// test source, and the user would record nothing without knowing.
    case defaultMicrophone
    /// A sound-server source by its internal name (see `AudioDevices`).
    case device(String)
    /// A GStreamer description of a source, e.g. `audiotestsrc is-live=true`.
    case pipeline(String)

    /// The sound server hands over what it captured every 100 ms, two level
    /// readings' worth, not every 10 ms (pulsesrc's default): each hand-over
    /// wakes the server's and Hark's threads and finds the voice processor's
    /// and encoder's state out of the CPU's caches, so fewer of them cost
    /// less (50 ms took 0.55 % of a core more while recording, 10 ms 1.5 %
    /// more than that). The window paces the readings (`LevelPacer`). Which
    /// audio is kept does not change: the gate judges each sample by its
    /// capture time.
    private static let server = "pulsesrc client-name=Hark latency-time=100000"

    var pipelineDescription: String {
        switch self {
        case .defaultMicrophone:
            return Self.server
        case .device(let name):
            return "\(Self.server) device=\(Pipeline.quoted(name))"
        case .pipeline(let description):
            return description
        }
    }

    /// True for the sound server's sources: their failures are microphone failures.
    var isMicrophone: Bool {
        if case .pipeline = self { return false }
        return true
    }

}
