import Localization

/// The recorder's voice processing: the WebRTC audio processing module
/// (`webrtcdsp`, in Debian's gstreamer1.0-plugins-bad) between the
/// microphone and the level meter, so the live waveform, the stored levels
/// and the file all carry the cleaned voice.
///
/// Noise suppression at "high" takes steady noise (fans, hum, hiss) down by
/// about 19 dB in the pauses, the high-pass filter removes rumble, and the
/// automatic gain (the element's adaptive digital mode) brings a quiet voice
/// up, by about 8 dB on ordinary speech, with a limiter, so it never clips. No echo cancellation: nothing plays
/// while Hark records, and without a `webrtcechoprobe` it would only add
/// work.
public enum VoiceProcessing {
    /// The GStreamer element that does it.
    public static let elementName = "webrtcdsp"

    /// Whether the element is installed. When it is not, recordings are made
    /// unprocessed (never refused) and the window says why.
    public static var isAvailable: Bool { GStreamer.hasElement(elementName) }

    /// Why voice processing cannot be had here, in the user's words; nil
    /// when it can.
    public static var unavailableReason: String? {
        isAvailable ? nil
            : tr("Background noise reduction needs GStreamer's WebRTC audio processing "
                 + "(the {element} element, in the gstreamer1.0-plugins-bad package), which is not installed.",
                 ["element": elementName])
    }

    /// The pipeline part, from raw 48 kHz mono in to raw out. The element
    /// takes 16-bit interleaved (or float planar) audio; the converter after
    /// it lets the encoder pick its own format.
    static let pipelineDescription = """
        \(elementName) name=hark_voice echo-cancel=false noise-suppression=true \
        noise-suppression-level=high high-pass-filter=true gain-control=true limiter=true \
        ! audioconvert name=hark_voice_convert
        """

    /// The element works in 10 ms frames and drops a last partial one at the
    /// end of stream: a processed take may come out this much short.
    static let frameSeconds = 0.01
}
