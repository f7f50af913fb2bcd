import CGStreamer
import Foundation
import Localization

extension Transcoder {
    /// Writes the part of `input` from `range` (seconds) as `format` into
    /// `output` (which must not exist), blocking: call it off the main
    /// thread. The decoder is prerolled, then an accurate flushing seek with
    /// a stop decodes that part alone. A failed run leaves no output file.
    public static func transcode(_ input: String, to output: String, format: AudioFormat,
                                 keeping range: ClosedRange<Double>) throws(AudioError) {
        guard FileManager.default.fileExists(atPath: input) else { throw .fileMissing(path: input) }
        if FileManager.default.fileExists(atPath: output) {
            throw .cannotWrite(path: output, detail: tr("something of that name already exists"))
        }
        GStreamer.ensureInitialised()
        let pipeline = try Pipeline(description: "filesrc location=\(Pipeline.quoted(input)) ! decodebin "
            + "! audioconvert ! audioresample ! \(format.encoderDescription) "
            + "! filesink name=hark_sink location=\(Pipeline.quoted(output))")
        do throws(AudioError) {
            pipeline.setState(GST_STATE_PAUSED)
            var state = GST_STATE_NULL
            if gst_element_get_state(pipeline.element, &state, nil, GStreamer.clockTime(30)) != GST_STATE_CHANGE_SUCCESS {
                throw pipeline.popError().map { classify($0.error, from: $0.source, input: input, output: output) }
                    ?? .notAudio(path: input, detail: tr("the conversion would not start"))
            }
            let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
            guard gst_element_seek(pipeline.element, 1.0, GST_FORMAT_TIME, flags,
                                   GST_SEEK_TYPE_SET, gint64(GStreamer.clockTime(range.lowerBound)),
                                   GST_SEEK_TYPE_SET, gint64(GStreamer.clockTime(range.upperBound))) != 0 else {
                throw .failed(detail: tr("cannot seek in {path}", ["path": input]))
            }
            _ = gst_element_get_state(pipeline.element, &state, nil, GStreamer.clockTime(30))
            try run(pipeline, input: input, output: output, progress: { _ in }, isCancelled: { false })
        } catch {
            pipeline.setState(GST_STATE_NULL)
            try? FileManager.default.removeItem(atPath: output)
            throw error
        }
    }
}
