/// What the raw microphone input sounds like while recording, in words the
/// composer can show: nothing worth saying, too quiet, or clipping.
public enum InputCondition: Sendable, Equatable {
    case fine
    /// Every peak stayed below `MicrophoneCheck.quietBelow` for a while: a
    /// muted, unplugged or turned-down microphone, or one far away.
    case quiet
    /// Peaks reached full scale recently: the sound is cut off (distorted).
    case clipping
}

/// Watches the input's level reports (one per interval, before any voice
/// processing) and says when the microphone is too quiet or clips, and when
/// it has recovered. Pure: fed levels, it keeps no clock of its own.
public struct MicrophoneCheck: Sendable, Equatable {
    /// An input whose every peak stays under this (dBFS) is "very quiet".
    public static let quietBelow = -45.0
    /// A peak at or above this (dBFS) is full scale: clipping. (16-bit full
    /// scale is -0.0003 dBFS; float input may go past 0.)
    public static let clippingAt = -0.1
    /// How long the input must stay quiet before it is said, and how long a
    /// clip is still mentioned after the last one.
    public static let window = 2.0
    /// Once the input has been heard, a silence is most likely a pause in
    /// speech: only one this long says the microphone went quiet (muted,
    /// unplugged), so the notice does not come and go between sentences.
    public static let pauseWindow = 10.0

    public private(set) var condition: InputCondition = .fine
    /// Seconds since the last peak at or above `quietBelow`.
    private var quietFor = 0.0
    /// Seconds since the last clipped peak; nil when none was seen.
    private var sinceClip: Double?
    /// Whether any peak reached `quietBelow` yet.
    private var heard = false

    public init() {}

    /// Takes one level report (`peak` in dBFS, over `seconds` of input) and
    /// returns the new condition when it changed, nil when it did not.
    @discardableResult
    public mutating func add(peak: Double, seconds: Double) -> InputCondition? {
        let peak = Decibels.clamp(peak)
        quietFor = peak < Self.quietBelow ? quietFor + seconds : 0
        if peak >= Self.quietBelow { heard = true }
        if peak >= Self.clippingAt {
            sinceClip = 0
        } else if let since = sinceClip {
            sinceClip = since + seconds
        }
        let next: InputCondition
        if let since = sinceClip, since < Self.window {
            next = .clipping
        } else if quietFor >= (heard ? Self.pauseWindow : Self.window) - 1e-9 {
            next = .quiet
        } else {
            next = .fine
        }
        guard next != condition else { return nil }
        condition = next
        return next
    }
}
