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

    var pipelineDescription: String {
        switch self {
        case .defaultMicrophone:
            return "pulsesrc client-name=Hark"
        case .device(let name):
            return "pulsesrc client-name=Hark device=\(Pipeline.quoted(name))"
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
