import CGStreamer
import Foundation
import Localization

extension Transcoder {
    /// Writes `inputs`, one after the other, as one Ogg Opus file at `output`
    /// (which must not exist), blocking: call it off the main thread. Each
    /// input is decoded to the recorder's own format and `concat` plays them
    /// in order into one encoder, so the result is one stream (no chained
    /// Ogg) as long as all of them together. A failed run leaves no output file.
    public static func join(_ inputs: [String], to output: String) throws(AudioError) {
        guard !inputs.isEmpty else { throw .failed(detail: tr("the conversion failed")) }
        for input in inputs where !FileManager.default.fileExists(atPath: input) { throw .fileMissing(path: input) }
        if FileManager.default.fileExists(atPath: output) {
            throw .cannotWrite(path: output, detail: tr("something of that name already exists"))
        }
        GStreamer.ensureInitialised()
        // concat takes its inputs in the order its sink pads were asked for:
        // the order the branches are linked in, which is the order written.
        // Each input's time starts at 0 again: one segment in running time
        // (identity single-segment) lets the encoder lay them one after the other.
        let branches = inputs.map {
            "filesrc location=\(Pipeline.quoted($0)) ! decodebin ! audioconvert ! audioresample "
                + "! audio/x-raw,format=S16LE,channels=1,rate=48000 ! hark_join. "
        }
        let pipeline = try Pipeline(description: "concat name=hark_join ! identity single-segment=true ! audioconvert ! \(AudioFormat.opus.encoderDescription) "
            + "! filesink name=hark_sink location=\(Pipeline.quoted(output)) " + branches.joined())
        do {
            try run(pipeline, input: inputs[0], output: output, progress: { _ in }, isCancelled: { false })
        } catch {
            pipeline.setState(GST_STATE_NULL)
            try? FileManager.default.removeItem(atPath: output)
            throw error
        }
    }
}
