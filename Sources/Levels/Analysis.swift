/// What analysing an audio file learns: its exact duration and its levels,
/// in the same 50 ms RMS/peak form the recorder produces. AudioEngine's
/// Analyzer makes it; MessageStore keeps it (and never analyses itself).
public struct Analysis: Sendable, Equatable {
    public var duration: Double
    public var levels: LevelTrack
    /// How many pipelines decoded the file side by side (2 for long Opus files).
    public var parallelParts: Int = 1

    public init(duration: Double, levels: LevelTrack, parallelParts: Int = 1) {
        self.duration = duration
        self.levels = levels
        self.parallelParts = parallelParts
    }
}
