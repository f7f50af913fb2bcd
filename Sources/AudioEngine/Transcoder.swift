import CGLib
import CGStreamer
import Foundation
import GLibSupport
import Localization

/// The formats a message can be exported in.
public enum AudioFormat: String, CaseIterable, Sendable {
    /// Ogg Opus: what Hark records; audio that already is Ogg Opus is
    /// exported as the original file, unchanged.
    case opus
    /// MP3, 64 kbit/s constant bit rate mono: plays on anyone's phone, and its
    /// duration is exact in every player (no VBR header needed).
    case mp3
    /// 16-bit PCM WAV: for editors.
    case wav

    public var fileExtension: String {
        switch self {
        case .opus: return "ogg"
        case .mp3: return "mp3"
        case .wav: return "wav"
        }
    }

    public var displayName: String {
        switch self {
        case .opus: return "Ogg Opus"
        case .mp3: return "MP3"
        case .wav: return "WAV"
        }
    }

    /// The name offered in a chooser: "(original)" beside the format the
    /// audio already is (`original`, by its content), which is copied unchanged.
    public func choiceName(original: AudioFormat?) -> String {
        // TRANSLATORS: a format in the export's list of formats, "Ogg Opus (original)".
        self == original ? tr("{format} (original)", ["format": displayName]) : displayName
    }

    /// The format a file name asks for by its extension (nil for none known).
    public init?(pathExtensionOf path: String) {
        let typed = URL(fileURLWithPath: path).pathExtension.lowercased()
        guard let format = AudioFormat.allCases.first(where: { $0.fileExtensions.contains(typed) }) else { return nil }
        self = format
    }

    var encoderDescription: String {
        switch self {
        case .opus: return "opusenc bitrate=32000 audio-type=voice ! oggmux"
        case .mp3: return "lamemp3enc target=bitrate bitrate=64 cbr=true"
        case .wav: return "audio/x-raw,format=S16LE ! wavenc"
        }
    }
}

/// Decodes an audio file and encodes it in another format.
public enum Transcoder {
    /// Writes `input` as `format` into `output` (which must not exist),
    /// blocking the calling thread: call it off the main thread. `progress`
    /// gets fractions in 0…1 on that thread; `isCancelled` is polled. A
    /// failed or cancelled run leaves no output file.
    public static func transcode(_ input: String, to output: String, format: AudioFormat,
                                 progress: (Double) -> Void = { _ in },
                                 isCancelled: () -> Bool = { false }) throws(AudioError) {
        guard FileManager.default.fileExists(atPath: input) else { throw .fileMissing(path: input) }
        if FileManager.default.fileExists(atPath: output) {
            throw .cannotWrite(path: output, detail: tr("something of that name already exists"))
        }
        GStreamer.ensureInitialised()
        let pipeline = AudioContent(path: input).isChained
            ? try chainedPipeline(input, to: output, format: format)
            : try Pipeline(description: "filesrc location=\(Pipeline.quoted(input)) ! decodebin "
                + "! audioconvert ! audioresample ! \(format.encoderDescription) "
                + "! filesink name=hark_sink location=\(Pipeline.quoted(output))")
        do {
            try run(pipeline, input: input, output: output, progress: progress, isCancelled: isCancelled)
        } catch {
            pipeline.setState(GST_STATE_NULL)
            try? FileManager.default.removeItem(atPath: output)
            throw error
        }
    }

    /// A chained Ogg file (one imported before Hark refused them) through
    /// playbin: a static decodebin ends at the first link, or fails at the
    /// second ("Internal data stream error"); playbin follows the switch to
    /// each next link, as long as nothing seeks.
    private static func chainedPipeline(_ input: String, to output: String, format: AudioFormat) throws(AudioError) -> Pipeline {
        let pipeline = try Pipeline(description: "playbin flags=audio video-sink=fakesink")
        var error: UnsafeMutablePointer<GError>?
        guard let sink = gst_parse_bin_from_description(
            "audioconvert ! audioresample ! \(format.encoderDescription) ! filesink name=hark_sink", 1, &error) else {
            throw .failed(detail: error.map { GLibError(consuming: $0).message } ?? tr("the encoder could not be made"))
        }
        if let error { g_error_free(error) }
        let bin = hark_gst_bin(UnsafeMutableRawPointer(sink))
        if let file = gst_bin_get_by_name(bin, "hark_sink") {
            hark_object_set_string(UnsafeMutableRawPointer(file), "location", output)
            gst_object_unref(UnsafeMutableRawPointer(file))
        }
        hark_object_set_string(UnsafeMutableRawPointer(pipeline.element), "uri", try Pipeline.fileURI(input))
        // playbin sinks the floating bin and owns it from here.
        hark_object_set_object(UnsafeMutableRawPointer(pipeline.element), "audio-sink", UnsafeMutableRawPointer(sink))
        return pipeline
    }

    static func run(_ pipeline: Pipeline, input: String, output: String,
                            progress: (Double) -> Void, isCancelled: () -> Bool) throws(AudioError) {
        guard let bus = gst_element_get_bus(pipeline.element) else { throw .failed(detail: tr("the pipeline has no bus")) }
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        if pipeline.setState(GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            throw pipeline.popError().map { classify($0.error, from: $0.source, input: input, output: output) }
                ?? .failed(detail: tr("the conversion would not start"))
        }
        let wanted = GstMessageType(GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue)
        while true {
            if isCancelled() { throw .cancelled }
            if let message = gst_bus_timed_pop_filtered(bus, GStreamer.clockTime(0.1), wanted) {
                defer { hark_gst_message_unref(message) }
                if hark_gst_message_type(message) == GST_MESSAGE_EOS {
                    pipeline.setState(GST_STATE_NULL)  // closes the file
                    progress(1)
                    return
                }
                let parsed = Pipeline.parseError(message)
                throw parsed.map { classify($0.error, from: $0.source, input: input, output: output) }
                    ?? .failed(detail: tr("the conversion failed"))
            }
            if let position = pipeline.position, let duration = pipeline.duration, duration > 0 {
                progress(min(1, position / duration))
            }
        }
    }

    static func classify(_ error: GLibError, from element: String?, input: String, output: String) -> AudioError {
        if element == "hark_sink" {
            if error.message.localizedCaseInsensitiveContains("no space left") { return .diskFull(path: output) }
            return .cannotWrite(path: output, detail: error.message)
        }
        if error.domain == "gst-stream-error-quark" || error.domain == "gst-core-error-quark" {
            return .notAudio(path: input, detail: error.message)
        }
        return .failed(detail: error.message)
    }
}
