import CGLib
import CGStreamer
import Foundation
import GLibSupport
import Levels
import Localization

public enum PlayerEvent: Sendable, Equatable {
    case playing
    case paused
    case stopped
    /// The position in seconds, ~20 times a second while playing and after seeks.
    case position(Double)
    /// The file's duration, once known.
    case duration(Double)
    case ended
    case failed(AudioError)
}

/// Plays one file at a time through `playbin`, with `scaletempo` so speeds
/// other than 1× keep the pitch. Seeks flush; `.exact` seeks are accurate
/// (for a release or a key press), `.fast` ones go to the nearest key unit
/// (cheap while a drag is in progress). With `skipping` set, the long pauses
/// are jumped over (Player+SkipSilence).
@MainActor
public final class Player {
    public enum SeekMode: Sendable { case exact, fast }

    public private(set) var path: String?
    public private(set) var isPlaying = false
    public private(set) var duration: Double?
    /// Playback speed, 0.5–2.0; kept across files and seeks.
    public private(set) var rate: Double = 1
    /// Skip Silence for the file loaded: the stretches jumped over while
    /// playing; nil plays everything. Cleared when another file is loaded.
    public var skipping: SilenceSkipping? {
        didSet { skippingChanged() }
    }

    private let audioSinkDescription: String?
    private let onEvent: @MainActor (PlayerEvent) -> Void
    private(set) var pipeline: Pipeline?
    private var busWatch: BusWatch?
    private var ticker: Source?
    /// The timer that makes Skip Silence's next jump.
    var nextJump: Source?
    /// A seek asked for before the file was ready (prerolled); done once it is.
    private var pendingSeek: (seconds: Double, mode: SeekMode)?
    /// The last position reported or sought to.
    private(set) var lastPosition: Double = 0

    public static let rateRange: ClosedRange<Double> = 0.5...2.0
    /// 20 times a second, as levels arrive while recording: a playhead moving
    /// a pixel or two per step, and a third fewer wake-ups than 30 (the
    /// window's own share of playing's CPU is mostly being woken).
    private static let tickMilliseconds: UInt32 = 50

    /// `audioSink` is a GStreamer description of the output; nil for the
    /// sound server's default output (`pulsesink`: PulseAudio or PipeWire;
    /// not `autoaudiosink`, which without a server silently plays into a
    /// fakesink). Tests pass `fakesink sync=true` (a real clock, no sound card).
    public init(audioSink: String? = nil, onEvent: @escaping @MainActor (PlayerEvent) -> Void) {
        audioSinkDescription = audioSink
        self.onEvent = onEvent
    }

    isolated deinit {
        ticker?.remove()
        nextJump?.remove()
        busWatch?.remove()
    }

    /// Opens `path`, paused at the start; `.duration` follows once known.
    public func load(_ path: String) throws(AudioError) {
        unload()
        guard FileManager.default.fileExists(atPath: path) else { throw .fileMissing(path: path) }
        // playbin plays a chained Ogg file through only when it is never
        // sought in: after any seek (a start, a speed) it stops at the join
        // for good. Refused rather than left hanging.
        let content = AudioContent(path: path)
        if content.isChained { throw .chainedOgg(path: path, links: content.links) }
        let uri = try Pipeline.fileURI(path)
        let sink = " audio-sink=\(Pipeline.quoted(audioSinkDescription ?? "pulsesink client-name=Hark"))"
        let pipeline = try Pipeline(description: "playbin name=hark_player audio-filter=\(Pipeline.quoted(Self.audioFilter)) video-sink=fakesink\(sink)")
        hark_object_set_string(UnsafeMutableRawPointer(pipeline.element), "uri", uri)
        self.pipeline = pipeline
        self.path = path
        busWatch = BusWatch(element: pipeline.element) { [weak self] message in
            self?.handle(message) ?? false
        }
        if pipeline.setState(GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE {
            let error = pipeline.popError().map { classify($0.error, from: $0.source) } ?? .notAudio(path: path, detail: tr("it cannot be played"))
            unload()
            throw error
        }
    }

    public func play() {
        guard let pipeline else { return }
        if pipeline.setState(GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            failNow(pipeline.popError().map { classify($0.error, from: $0.source) } ?? .outputUnavailable(detail: tr("playback would not start")))
            return
        }
        isPlaying = true
        startTicking()
        scheduleJump()
        onEvent(.playing)
    }

    public func pause() {
        guard let pipeline, isPlaying else { return }
        pipeline.setState(GST_STATE_PAUSED)
        isPlaying = false
        stopTicking()
        cancelJump()
        onEvent(.paused)
        reportPosition()
    }

    public func togglePlayPause() {
        isPlaying ? pause() : play()
    }

    /// Stops and closes the file.
    public func stop() {
        guard pipeline != nil else { return }
        unload()
        onEvent(.stopped)
    }

    public var position: Double? { pipeline?.position }

    public func seek(to seconds: Double, mode: SeekMode = .exact) {
        guard let pipeline else { return }
        let target = max(0, duration.map { min(seconds, $0) } ?? seconds)
        lastPosition = target
        guard duration != nil else {
            pendingSeek = (target, mode)
            return
        }
        performSeek(pipeline, to: target, mode: mode)
        scheduleJump(from: target)
        onEvent(.position(target))  // a query right after a flushing seek may still say the old place
    }

    public func setRate(_ newRate: Double) {
        rate = min(Self.rateRange.upperBound, max(Self.rateRange.lowerBound, newRate))
        guard let pipeline, duration != nil else { return }  // applied once the file is ready
        // Mid-seek the position may be unknown: the last one reported stands in.
        let position = pipeline.position ?? lastPosition
        performSeek(pipeline, to: position, mode: .exact)
        scheduleJump(from: position)
    }

    // MARK: Internals

    func performSeek(_ pipeline: Pipeline, to seconds: Double, mode: SeekMode) {
        let accuracy = mode == .exact ? GST_SEEK_FLAG_ACCURATE : GST_SEEK_FLAG_KEY_UNIT
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | accuracy.rawValue)
        _ = gst_element_seek(pipeline.element, rate, GST_FORMAT_TIME, flags,
                             GST_SEEK_TYPE_SET, gint64(GStreamer.clockTime(seconds)),
                             GST_SEEK_TYPE_NONE, -1)
    }

    private func handle(_ message: BusMessage) -> Bool {
        switch message.type {
        case GST_MESSAGE_EOS:
            isPlaying = false
            stopTicking()
            cancelJump()
            // Back to the start, paused, ready to play again — before telling
            // anyone: a listener may load the next file as it hears `.ended`.
            let finished = pipeline
            if let finished {
                finished.setState(GST_STATE_PAUSED)
                performSeek(finished, to: 0, mode: .exact)
                lastPosition = 0
            }
            if let duration { onEvent(.position(duration)) }
            onEvent(.ended)
            if let finished, pipeline === finished { onEvent(.position(0)) }
        case GST_MESSAGE_ERROR:
            if let (error, _) = message.error { failNow(classify(error, from: message.sourceName)) }
            return false
        case GST_MESSAGE_ASYNC_DONE, GST_MESSAGE_DURATION_CHANGED:
            let firstTime = duration == nil
            if let known = pipeline?.duration, known != duration {
                duration = known
                onEvent(.duration(known))
            }
            if firstTime, duration != nil, let pipeline {
                // Ready: do the seek asked for meanwhile, and apply the kept speed.
                if let (seconds, mode) = pendingSeek {
                    pendingSeek = nil
                    performSeek(pipeline, to: min(seconds, duration ?? seconds), mode: mode)
                } else if rate != 1 {
                    performSeek(pipeline, to: pipeline.position ?? 0, mode: .exact)
                }
            }
        default:
            break
        }
        return true
    }

    private func failNow(_ error: AudioError) {
        unload()
        onEvent(.failed(error))
    }

    private func unload() {
        stopTicking()
        cancelJump()
        skipping = nil
        busWatch?.remove()
        busWatch = nil
        pipeline = nil
        path = nil
        duration = nil
        pendingSeek = nil
        isPlaying = false
    }

    private func startTicking() {
        guard ticker == nil else { return }
        ticker = MainLoop.timeout(milliseconds: Self.tickMilliseconds) { [weak self] in
            self?.reportPosition()
            return true
        }
    }

    private func stopTicking() {
        ticker?.remove()
        ticker = nil
    }

    private func reportPosition() {
        guard let position = pipeline?.position else { return }
        lastPosition = position
        onEvent(.position(position))
    }

    /// Where a jump lands: the position reported and remembered at once.
    func jumped(to seconds: Double) {
        lastPosition = seconds
        onEvent(.position(seconds))
    }

    private func classify(_ error: GLibError, from element: String? = nil) -> AudioError {
        let path = self.path ?? tr("the file")
        if error.domain == "gst-resource-error-quark" {
            if error.code == Int32(GST_RESOURCE_ERROR_NOT_FOUND.rawValue), element?.hasPrefix("source") ?? true {
                return .fileMissing(path: path)
            }
            // Anything the output reports about its device: the sound server.
            if element.map({ $0.contains("sink") }) == true
                || error.code == Int32(GST_RESOURCE_ERROR_OPEN_WRITE.rawValue)
                || error.code == Int32(GST_RESOURCE_ERROR_OPEN_READ_WRITE.rawValue)
                || error.code == Int32(GST_RESOURCE_ERROR_BUSY.rawValue)
                || error.code == Int32(GST_RESOURCE_ERROR_FAILED.rawValue) {
                return .outputUnavailable(detail: error.message)
            }
        }
        if error.domain == "gst-stream-error-quark" || error.domain == "gst-core-error-quark" {
            return .notAudio(path: path, detail: error.message)
        }
        return .failed(detail: error.message)
    }
}
