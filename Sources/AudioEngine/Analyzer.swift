import CGLib
import CGStreamer
import Foundation
import GLibSupport
import Levels
import Synchronization

/// What the analyser learns from a file: its exact duration and its levels,
/// in the same 50 ms RMS/peak form the recorder produces.
public struct Analysis: Sendable, Equatable {
    public var duration: Double
    public var levels: LevelTrack
}

/// Turns any audio file GStreamer can decode into an `Analysis`, as fast as
/// the levels allow: samples come from an appsink in large buffers (no bus
/// message per interval) and are reduced in Swift; Ogg/Opus files — what Hark
/// records — are decoded at 16 kHz mono by the Opus decoder itself, which
/// skips most of the decoding work without changing speech levels.
public enum Analyzer {
    /// The rate Opus files are decoded at for analysis.
    static let opusAnalysisRate = 16_000

    /// Analyses `path`, blocking the calling thread: call it off the main
    /// thread. `progress` gets fractions in 0…1; `isCancelled` is polled.
    public static func analyze(path: String,
                               progress: (Double) -> Void = { _ in },
                               isCancelled: () -> Bool = { false }) throws(AudioError) -> Analysis {
        try preflight(path)
        GStreamer.ensureInitialised()
        let location = quoted(path)
        if isOggOpus(path) {
            let fast = "filesrc location=\(location) ! oggdemux ! opusdec "
                + "! audio/x-raw,format=S16LE,channels=1,rate=\(opusAnalysisRate) "
                + "! appsink name=hark_samples sync=false max-buffers=64"
            do {
                return try run(fast, path: path, progress: progress, isCancelled: isCancelled)
            } catch .cancelled {
                throw .cancelled
            } catch {
                // An Opus stream the fast path cannot take (multichannel…): decode it the general way.
            }
        }
        let general = "filesrc location=\(location) ! decodebin ! audioconvert "
            + "! audio/x-raw,format=S16LE,channels=1 ! appsink name=hark_samples sync=false max-buffers=64"
        return try run(general, path: path, progress: progress, isCancelled: isCancelled)
    }

    /// Analyses `path` on a thread of its own; cancelling the task stops it
    /// (throwing `AudioError.cancelled`). `progress` runs on the main actor.
    public static func analyze(path: String,
                               progress: @escaping @Sendable @MainActor (Double) -> Void = { _ in }) async throws -> Analysis {
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Analysis, Error>) in
                let thread = Thread {
                    var lastReport = -1.0
                    do {
                        let analysis = try analyze(path: path, progress: { fraction in
                            // A few reports a second are plenty for a progress bar.
                            guard fraction - lastReport >= 0.01 || fraction >= 1 else { return }
                            lastReport = fraction
                            MainLoop.post { progress(fraction) }
                        }, isCancelled: { cancelled.isSet })
                        continuation.resume(returning: analysis)
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                thread.name = "hark-analyser"
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
    }

    // MARK: The pipeline

    private static func run(_ description: String, path: String,
                            progress: (Double) -> Void, isCancelled: () -> Bool) throws(AudioError) -> Analysis {
        let pipeline = try Pipeline(description: description)
        guard let sinkElement = pipeline.child("hark_samples") else { throw .failed(detail: "no sample sink") }
        let sink = UnsafeMutableRawPointer(sinkElement).assumingMemoryBound(to: GstAppSink.self)

        if pipeline.setState(GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            throw classify(pipeline.popError()?.error, path: path)
        }
        var meter: LevelMeter?
        var duration: Double?
        let pullTimeout = GStreamer.clockTime(0.1)
        while true {
            if isCancelled() { throw .cancelled }
            if let (error, _) = pipeline.popError() { throw classify(error, path: path) }
            guard let sample = gst_app_sink_try_pull_sample(sink, pullTimeout) else {
                if gst_app_sink_is_eos(sink) != 0 { break }
                continue
            }
            defer { gst_sample_unref(sample) }
            if meter == nil {
                guard let rate = sampleRate(of: sample) else { throw .notAudio(path: path, detail: "no sample rate") }
                meter = LevelMeter(sampleRate: rate)
                duration = pipeline.duration
            }
            guard let buffer = gst_sample_get_buffer(sample) else { continue }
            var map = GstMapInfo()
            guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { continue }
            let count = Int(map.size) / MemoryLayout<Int16>.size
            UnsafeRawPointer(map.data).withMemoryRebound(to: Int16.self, capacity: count) {
                meter!.add(int16: UnsafeBufferPointer(start: $0, count: count))
            }
            gst_buffer_unmap(buffer, &map)
            if let duration, duration > 0 { progress(min(1, meter!.seconds / duration)) }
        }
        guard var meter, meter.sampleCount > 0 else { throw .noAudio(path: path) }
        let levels = meter.finish()
        progress(1)
        return Analysis(duration: meter.seconds, levels: levels)
    }

    private static func sampleRate(of sample: OpaquePointer) -> Int? {
        guard let caps = gst_sample_get_caps(sample), let structure = gst_caps_get_structure(caps, 0) else { return nil }
        var rate: gint = 0
        guard gst_structure_get_int(structure, "rate", &rate) != 0, rate > 0 else { return nil }
        return Int(rate)
    }

    // MARK: Checks and errors

    private static func preflight(_ path: String) throws(AudioError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .fileMissing(path: path) }
        if isFolder.boolValue { throw .notAudio(path: path, detail: "it is a folder") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .notAudio(path: path, detail: "it cannot be read") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size == 0 { throw .notAudio(path: path, detail: "the file is empty") }
    }

    /// Ogg with an OpusHead in its first page: how Hark records.
    static func isOggOpus(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 64), head.count >= 36 else { return false }
        return head.starts(with: Array("OggS".utf8)) && head[28..<36].elementsEqual(Array("OpusHead".utf8))
    }

    private static func classify(_ error: GLibError?, path: String) -> AudioError {
        guard let error else { return .notAudio(path: path, detail: "it could not be decoded") }
        if error.domain == "gst-resource-error-quark" && error.code == Int32(GST_RESOURCE_ERROR_NOT_FOUND.rawValue) {
            return .fileMissing(path: path)
        }
        return .notAudio(path: path, detail: error.message.trimmingCharacters(in: CharacterSet(charactersIn: ". ")))
    }

    private static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Set from any thread, read by the analyser's loop.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
