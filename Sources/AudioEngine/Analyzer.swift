import CGLib
import CGStreamer
import Foundation
import GLibSupport
import Levels
import Localization
import Synchronization

/// Turns any audio file GStreamer can decode into an `Analysis`, as fast as
/// the levels allow: samples come from an appsink in large buffers (no bus
/// message per interval) and are reduced in Swift; Ogg/Opus files — what Hark
/// records — are decoded at 16 kHz mono by the Opus decoder itself, which
/// skips most of the decoding work without changing speech levels.
public enum Analyzer {
    /// The rate Opus files are decoded at for analysis.
    static let opusAnalysisRate = 16_000

    /// How long a decoding may go without a new sample (or without starting)
    /// before it is given up: a file that is no audio can stall GStreamer
    /// with neither an end nor an error (a playlist whose server never answers).
    public static let stallSeconds: Double = 10

    /// Analyses `path`, blocking the calling thread: call it off the main
    /// thread. `progress` gets fractions in 0…1; `isCancelled` is polled.
    /// It fails with `notAudio` when the decoding stalls (see `stallSeconds`)
    /// or runs far slower than the audio plays.
    public static func analyze(path: String,
                               progress: (Double) -> Void = { _ in },
                               isCancelled: () -> Bool = { false }) throws(AudioError) -> Analysis {
        try preflight(path)
        let content = AudioContent(path: path)
        // decodebin stops at the first link's end (or fails there): only a
        // part would be measured, and the player could not seek in it.
        if content.isChained { throw .chainedOgg(path: path, links: content.links) }
        GStreamer.ensureInitialised()
        let location = Pipeline.quoted(path)
        if content.kind == .oggOpus {
            let fast = "filesrc location=\(location) ! oggdemux ! opusdec "
                + "! audio/x-raw,format=S16LE,channels=1,rate=\(opusAnalysisRate) "
                + "! appsink name=hark_samples sync=false max-buffers=64"
            do {
                return try run(fast, path: path, splittable: true, progress: progress, isCancelled: isCancelled)
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

    /// Files at least this long are decoded as two halves, one per core.
    static let splitThreshold: Double = 60

    private static func run(_ description: String, path: String, splittable: Bool = false,
                            progress: (Double) -> Void, isCancelled: () -> Bool) throws(AudioError) -> Analysis {
        let first = try Decoder(description, path: path)
        let duration = first.duration
        guard splittable, let duration, duration >= splitThreshold else {
            let meter = try first.decode(progress: { seconds in
                if let duration, duration > 0 { progress(min(1, seconds / duration)) }
            }, shouldStop: isCancelled)
            return try finish([meter], path: path, progress: progress)
        }
        // Two halves at once, split on an interval boundary so that the two
        // level tracks join without a seam. The second half runs on a thread
        // of its own; this thread runs the first, reports progress for both
        // and relays cancellation.
        let intervals = UInt64(duration / 2 / 0.05)
        let middle = GstClockTime(intervals * 50_000_000)  // exact nanoseconds
        try first.limit(from: 0, to: middle)
        let second = try Decoder(description, path: path)
        try second.limit(from: middle, to: nil)
        let stop = CancellationFlag()
        let secondSeconds = Atomic<Int>(0)  // milliseconds decoded, for progress
        let secondResult = HalfResult()
        let secondDone = DispatchSemaphore(value: 0)
        let worker = Thread {
            do {
                secondResult.meter = try second.decode(progress: { seconds in
                    secondSeconds.store(Int(seconds * 1000), ordering: .relaxed)
                }, shouldStop: { stop.isSet })
            } catch {
                secondResult.error = error as? AudioError ?? .failed(detail: "\(error)")
            }
            secondDone.signal()
        }
        worker.name = "hark-analyser-2"
        worker.start()
        func report(_ firstSeconds: Double) {
            let done = firstSeconds + Double(secondSeconds.load(ordering: .relaxed)) / 1000
            progress(min(1, done / duration))
        }
        let firstMeter: LevelMeter
        do {
            firstMeter = try first.decode(progress: report, shouldStop: {
                if isCancelled() { stop.set() }
                return stop.isSet
            })
        } catch {
            stop.set()
            secondDone.wait()
            throw error
        }
        while secondDone.wait(timeout: .now() + 0.1) == .timedOut {
            if isCancelled() { stop.set() }
            report(firstMeter.seconds)
        }
        if stop.isSet { throw .cancelled }
        if let error = secondResult.error { throw error }
        guard let secondMeter = secondResult.meter else { throw .failed(detail: tr("the second half was lost")) }
        guard firstMeter.isAtIntervalBoundary, firstMeter.sampleCount > 0 else {
            // The halves did not meet on an interval boundary (a decoder that
            // cannot seek to the sample): measure the file in one pass instead.
            return try run(description, path: path, splittable: false, progress: progress, isCancelled: isCancelled)
        }
        var analysis = try finish([firstMeter, secondMeter], path: path, progress: progress)
        analysis.parallelParts = 2
        return analysis
    }

    /// Joins the halves' tracks; the duration is the samples counted.
    private static func finish(_ meters: [LevelMeter], path: String, progress: (Double) -> Void) throws(AudioError) -> Analysis {
        var levels = LevelTrack()
        var seconds = 0.0
        for var meter in meters where meter.sampleCount > 0 {
            let track = meter.finish()
            for index in 0..<track.count { levels.append(rms: track.rms[index], peak: track.peak[index]) }
            seconds += meter.seconds
        }
        guard !levels.isEmpty else { throw .noAudio(path: path) }
        progress(1)
        return Analysis(duration: seconds, levels: levels)
    }

    /// One decoding pipeline ending in an appsink, optionally limited to a
    /// stretch of the file; pulls samples into a LevelMeter.
    private final class Decoder: @unchecked Sendable {
        private let pipeline: Pipeline
        private let sink: UnsafeMutablePointer<GstAppSink>
        private let path: String
        /// Known once prerolled (nil for streams that cannot tell).
        let duration: Double?

        init(_ description: String, path: String) throws(AudioError) {
            self.path = path
            pipeline = try Pipeline(description: description)
            guard let element = pipeline.child("hark_samples") else { throw .failed(detail: tr("no sample sink")) }
            sink = UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstAppSink.self)
            // Preroll: this is where a file that is not audio is found out.
            pipeline.setState(GST_STATE_PAUSED)
            var state = GST_STATE_NULL
            let result = gst_element_get_state(pipeline.element, &state, nil, GStreamer.clockTime(Analyzer.stallSeconds))
            if result == GST_STATE_CHANGE_FAILURE {
                throw Analyzer.classify(pipeline.popError()?.error, path: path)
            }
            if result == GST_STATE_CHANGE_ASYNC {
                throw .notAudio(path: path, detail: Analyzer.stalledDetail)
            }
            duration = pipeline.duration
        }

        /// Decodes only from `start` to `end` (nanoseconds; nil: to the end
        /// of the file): an accurate, flushing seek.
        func limit(from start: GstClockTime, to end: GstClockTime?) throws(AudioError) {
            let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
            guard gst_element_seek(pipeline.element, 1.0, GST_FORMAT_TIME, flags,
                                   GST_SEEK_TYPE_SET, gint64(start),
                                   end == nil ? GST_SEEK_TYPE_NONE : GST_SEEK_TYPE_SET, end.map { gint64($0) } ?? -1) != 0 else {
                throw .failed(detail: tr("cannot seek in {path}", ["path": path]))
            }
            var state = GST_STATE_NULL
            _ = gst_element_get_state(pipeline.element, &state, nil, GStreamer.clockTime(30))
        }

        /// Pulls every sample to the end (of the file or the range).
        /// `progress` gets the seconds decoded so far.
        func decode(progress: (Double) -> Void, shouldStop: () -> Bool) throws(AudioError) -> LevelMeter {
            if pipeline.setState(GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
                throw Analyzer.classify(pipeline.popError()?.error, path: path)
            }
            var meter: LevelMeter?
            let pullTimeout = GStreamer.clockTime(0.1)
            let started = Date()
            var lastSample = started
            // Decoding runs many times faster than playing: slower than the
            // audio's own length (and a margin) is a file that never ends.
            let overall = Analyzer.stallSeconds * 3 + (duration ?? 0)
            while true {
                if shouldStop() { throw .cancelled }
                if let (error, _) = pipeline.popError() { throw Analyzer.classify(error, path: path) }
                guard let sample = gst_app_sink_try_pull_sample(sink, pullTimeout) else {
                    if gst_app_sink_is_eos(sink) != 0 { break }
                    if -lastSample.timeIntervalSinceNow > Analyzer.stallSeconds {
                        throw .notAudio(path: path, detail: Analyzer.stalledDetail)
                    }
                    continue
                }
                lastSample = Date()
                if -started.timeIntervalSinceNow > overall {
                    gst_sample_unref(sample)
                    throw .notAudio(path: path, detail: Analyzer.tooSlowDetail)
                }
                defer { gst_sample_unref(sample) }
                if meter == nil {
                    guard let rate = Analyzer.sampleRate(of: sample) else {
                        throw .notAudio(path: path, detail: tr("no sample rate"))
                    }
                    meter = LevelMeter(sampleRate: rate)
                }
                guard let buffer = gst_sample_get_buffer(sample) else { continue }
                var map = GstMapInfo()
                guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { continue }
                let count = Int(map.size) / MemoryLayout<Int16>.size
                UnsafeRawPointer(map.data).withMemoryRebound(to: Int16.self, capacity: count) {
                    meter!.add(int16: UnsafeBufferPointer(start: $0, count: count))
                }
                gst_buffer_unmap(buffer, &map)
                progress(meter!.seconds)
            }
            return meter ?? LevelMeter(sampleRate: 1)
        }
    }

    fileprivate static var stalledDetail: String {
        trn("its decoding stalled: nothing came out of it for {count} second",
            "its decoding stalled: nothing came out of it for {count} seconds", Int(stallSeconds))
    }

    fileprivate static var tooSlowDetail: String {
        tr("its decoding took far longer than the audio lasts")
    }

    fileprivate static func sampleRate(of sample: OpaquePointer) -> Int? {
        guard let caps = gst_sample_get_caps(sample), let structure = gst_caps_get_structure(caps, 0) else { return nil }
        var rate: gint = 0
        guard gst_structure_get_int(structure, "rate", &rate) != 0, rate > 0 else { return nil }
        return Int(rate)
    }

    // MARK: Checks and errors

    private static func preflight(_ path: String) throws(AudioError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .fileMissing(path: path) }
        if isFolder.boolValue { throw .notAudio(path: path, detail: tr("it is a folder")) }
        // Not a file at all: a pipe or a device has no size to go by (and
        // /dev/zero never ends), so say what it is rather than "empty".
        var status = stat()
        if stat(path, &status) == 0, let kind = specialKind(status.st_mode & S_IFMT) {
            throw .notAudio(path: path, detail: kind)
        }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .notAudio(path: path, detail: tr("it cannot be read")) }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size == 0 { throw .notAudio(path: path, detail: tr("the file is empty")) }
    }

    /// "it is a named pipe, not a file" or the like for a file type that is no regular file.
    private static func specialKind(_ type: mode_t) -> String? {
        switch type {
        case S_IFIFO: return tr("it is a named pipe, not a file")
        case S_IFCHR: return tr("it is a character device, not a file")
        case S_IFBLK: return tr("it is a block device, not a file")
        case S_IFSOCK: return tr("it is a socket, not a file")
        default: return nil
        }
    }

    fileprivate static func classify(_ error: GLibError?, path: String) -> AudioError {
        guard let error else { return .notAudio(path: path, detail: tr("it could not be decoded")) }
        if error.domain == "gst-resource-error-quark" && error.code == Int32(GST_RESOURCE_ERROR_NOT_FOUND.rawValue) {
            return .fileMissing(path: path)
        }
        return .notAudio(path: path, detail: error.message.trimmingCharacters(in: CharacterSet(charactersIn: ". ")))
    }
}

/// What the second half's thread hands back; written before it signals.
private final class HalfResult: @unchecked Sendable {
    var meter: LevelMeter?
    var error: AudioError?
}

/// Set from any thread, read by the analyser's loop.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
