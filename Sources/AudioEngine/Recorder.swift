import CGLib
import CGStreamer
import CGStreamerHelpers
import Foundation
import GLibSupport
import Levels
import Localization

/// Records one message: source → convert → `level` (50 ms) → Opus → Ogg →
/// file, with events on the main thread.
///
/// The file is created exclusively (`O_CREAT|O_EXCL`) at `outputPath` itself
/// and the pipeline writes to that descriptor: no other process can slip a
/// file in between the check and the open, two recorders never share a
/// file, and a failure deletes only the file this recorder created (the
/// same device and inode still at the path). Not a temporary name linked
/// into place at the end: a killed recording must leave a playable file
/// at the path, where the store's recovery looks for it.
///
/// The file sink writes through (unbuffered `write(2)`s) and the muxer
/// flushes a page at least every 500 ms, so a killed process leaves a
/// playable file holding all but the last half second. `stop()` ends the take
/// at the moment it is called: audio captured before it, still on its way
/// from the sound server, is kept, and what was captured after is dropped
/// (cut by capture time on the streaming thread); it waits for the end of
/// stream to reach the file before tearing down, so the file ends cleanly.
@MainActor
public final class Recorder {
    public let outputPath: String
    public let source: RecorderSource
    /// Recording stops by itself (and keeps the file) at this many seconds.
    public let maximumDuration: Double?
    /// Whether the voice is cleaned up (noise suppression, high-pass filter,
    /// automatic gain) on its way to the level meter and the file: asked for,
    /// and `webrtcdsp` installed. Without it, recording works unprocessed.
    public let processesVoice: Bool
    public private(set) var state: RecorderState = .idle
    /// The levels so far; when the recording ends they are its waveform.
    public private(set) var levels = LevelTrack()
    /// Seconds of sound recorded so far (pauses excluded).
    public private(set) var elapsed: Double = 0
    /// Whether the microphone's raw input is too quiet or clips.
    public private(set) var microphoneCheck = MicrophoneCheck()

    private let onEvent: @MainActor (RecorderEvent) -> Void
    private var pipeline: Pipeline?
    private var busWatch: BusWatch?
    private var stopWatchdog: Source?
    private var soundWatchdog: Source?
    private var interruption: AudioError?
    private var reachedMaximum = false
    /// Keeps what was captured between the presses (owned by the pipeline's pad).
    private var gate: OpaquePointer?
    /// Paused by stopping the pipeline: the gate could not take another pause.
    private var pausedPipeline = false
    private var endOfStreamFallback: Source?
    /// Stop was asked for before the pipeline ran.
    private var stopWhenStarted = false
    /// The file this recorder created, open for writing until it ends.
    private var file: CreatedFile?
    /// After a full disk: the file is being measured to report what it holds.
    private var measuringWrittenFile = false

    /// Kept after the moment of Stop: capture timestamps may run a little
    /// behind the sound (a device's or server's buffer), and a word's last
    /// syllable is worth more than a few milliseconds of room tone.
    private static let stopMargin = GStreamer.clockTime(0.05)
    /// How long the cut at Stop may wait for the audio before it to arrive.
    private static let endOfStreamFallbackMilliseconds: UInt32 = 2_000
    /// How long `stop()` waits for the end of stream before closing anyway.
    private static let stopTimeoutMilliseconds: UInt32 = 5_000
    /// A source that opens but sends nothing for this long is no microphone.
    private static let firstSoundTimeoutMilliseconds: UInt32 = 3_000
    /// The level of what is recorded (after any voice processing).
    private static let levelName = "hark_level"
    /// Opus's effort (0-10, default 10): at 32 kb/s of speech, 5 sounds the
    /// same and costs a third less CPU for as long as the recording lasts.
    private static let encoderComplexity = 5
    /// Opus packets of 60 ms, not 20: each call into the encoder costs the
    /// same set-up work (its size checks even ask the CPU what it is, which a
    /// virtual machine answers slowly), so a third of the calls is a third
    /// less CPU for the encoder (1.47 -> 0.98 % of a core on speech). A file
    /// is not a call: the 40 ms more of delay inside a packet cost nothing.
    private static let encoderFrameMilliseconds = 60
    /// The level of the raw input, when voice processing comes between.
    private static let inputLevelName = "hark_input_level"

    public init(outputPath: String, source: RecorderSource = .defaultMicrophone, maximumDuration: Double? = nil,
                voiceProcessing: Bool = false, onEvent: @escaping @MainActor (RecorderEvent) -> Void) {
        self.outputPath = outputPath
        self.source = source
        self.maximumDuration = maximumDuration
        processesVoice = voiceProcessing && VoiceProcessing.isAvailable
        self.onEvent = onEvent
    }

    isolated deinit {
        endOfStreamFallback?.remove()
        busWatch?.remove()
        stopWatchdog?.remove()
        soundWatchdog?.remove()
    }

    /// Starts recording. Problems found at once (an unwritable folder, a bad
    /// source, no microphone) are thrown; later ones arrive as events.
    public func start() throws(AudioError) {
        precondition(state == .idle, "a Recorder records once")
        let file = try CreatedFile(exclusivelyAt: outputPath)
        self.file = file
        // With voice processing, a first `level` measures the raw input (the
        // microphone check, which counts seconds: 5 reports a second do, and
        // wake the window 15 times a second less than the waveform's 20) and
        // the second the cleaned voice (the waveform).
        let processing = processesVoice ? """
            ! level name=\(Self.inputLevelName) interval=200000000 post-messages=true \
            ! \(VoiceProcessing.pipelineDescription)
            """ : ""
        let format = processesVoice ? "format=S16LE,layout=interleaved," : ""
        let pipeline: Pipeline
        do { pipeline = try Pipeline(description: """
            \(source.pipelineDescription) ! queue name=hark_queue \
            ! audioconvert name=hark_convert ! audioresample name=hark_resample \
            ! capsfilter name=hark_caps caps=audio/x-raw,\(format)channels=1,rate=48000 \(processing) \
            ! level name=\(Self.levelName) interval=50000000 post-messages=true \
            ! opusenc name=hark_encoder bitrate=32000 audio-type=voice complexity=\(Self.encoderComplexity) \
            frame-size=\(Self.encoderFrameMilliseconds) \
            ! oggmux name=hark_mux ! fdsink name=hark_sink fd=\(file.descriptor)
            """) } catch {
            closeAndRemoveFile()
            state = .failed
            throw error
        }
        if let caps = pipeline.child("hark_caps"), let pad = gst_element_get_static_pad(caps, "src") {
            gate = hark_capture_gate_attach(pad)
            if let maximumDuration { hark_limit_duration(pad, GStreamer.clockTime(maximumDuration)) }
            gst_object_unref(UnsafeMutableRawPointer(pad))
        }
        self.pipeline = pipeline
        busWatch = BusWatch(element: pipeline.element) { [weak self] message in
            self?.handle(message) ?? false
        }
        state = .starting
        soundWatchdog = MainLoop.timeout(milliseconds: Self.firstSoundTimeoutMilliseconds) { [weak self] in
            guard let self else { return false }
            self.soundWatchdog = nil
            if self.levels.isEmpty, self.state == .starting || self.state == .recording {
                self.fail(self.source.isMicrophone
                    ? .microphoneUnavailable(detail: tr("no sound arrived from it"))
                    : .invalidSource(detail: tr("the source produced no sound")))
            }
            return false
        }
        if pipeline.setState(GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            let error = pipeline.popError().map { classify($0.error, from: $0.source) }
                ?? .failed(detail: tr("the recording pipeline would not start"))
            tearDown()
            closeAndRemoveFile()
            state = .failed
            throw error
        }
    }

    public func pause() {
        guard state == .recording, let pipeline else { return }
        // The source keeps running: the gate drops what is captured from this
        // moment until Resume, so neither boundary loses or adds a syllable.
        if let gate, let now = runningTime, hark_capture_gate_pause(gate, now) != 0 {
            pausedPipeline = false
        } else {
            pausedPipeline = true
            pipeline.setState(GST_STATE_PAUSED)
        }
        state = .paused
        onEvent(.paused)
    }

    public func resume() {
        guard state == .paused, let pipeline else { return }
        if pausedPipeline {
            pipeline.setState(GST_STATE_PLAYING)
        } else if let gate, let now = runningTime {
            hark_capture_gate_resume(gate, now)
        }
        pausedPipeline = false
        state = .recording
        onEvent(.resumed)
    }

    /// Ends the recording here and keeps it: `.finished` follows once the
    /// file is closed.
    public func stop() {
        guard state == .recording || state == .paused || state == .starting, let pipeline else { return }
        if state == .starting {
            // Nothing has flowed yet: an end of stream now would reach the
            // elements before their stream began. Stop as soon as it has.
            stopWhenStarted = true
            return
        }
        if pausedPipeline {
            // Nothing flows through a paused live source, not even its end.
            pipeline.setState(GST_STATE_PLAYING)
            pausedPipeline = false
            state = .stopping
            pipeline.sendEndOfStream()
        } else if let gate, let now = runningTime, state == .recording || state == .paused {
            // Cut at the press (a paused take ends where it was paused: the gate
            // drops everything since); the audio before it is still arriving.
            hark_capture_gate_stop(gate, state == .paused ? now : now + Self.stopMargin)
            state = .stopping
            endOfStreamFallback = MainLoop.timeout(milliseconds: Self.endOfStreamFallbackMilliseconds) { [weak self] in
                // The source went quiet before reaching the cut: end it there.
                self?.endOfStreamFallback = nil
                self?.pipeline?.sendEndOfStream()
                return false
            }
        } else {
            state = .stopping
            pipeline.sendEndOfStream()
        }
        stopWatchdog = MainLoop.timeout(milliseconds: Self.stopTimeoutMilliseconds) { [weak self] in
            guard let self else { return false }
            self.stopWatchdog = nil
            // The end of stream never reached the file: it is playable, but
            // its last moments may be missing. Say so.
            self.interruption = self.interruption ?? .failed(detail: tr("the recording did not end cleanly; its last moments may be missing"))
            self.finish()
            return false
        }
    }

    /// Ends the recording and deletes the file.
    public func cancel() {
        guard state != .finished && state != .cancelled && state != .failed else { return }
        tearDown()
        closeAndRemoveFile()
        state = .cancelled
        onEvent(.cancelled)
    }

    // MARK: Bus

    private func handle(_ message: BusMessage) -> Bool {
        switch message.type {
        case GST_MESSAGE_ELEMENT where message.structureName == "level":
            handleLevel(message)
        case GST_MESSAGE_STATE_CHANGED where message.sourceName == pipelineName:
            if state == .starting, currentState == GST_STATE_PLAYING {
                state = .recording
                onEvent(.started)
                if stopWhenStarted { stop() }
            }
        case GST_MESSAGE_EOS:
            finish()
            return false
        case GST_MESSAGE_ERROR:
            if let (error, _) = message.error {
                fail(classify(error, from: message.sourceName))
            }
            return false
        default:
            break
        }
        return true
    }

    private var pipelineName: String? {
        pipeline.flatMap { hark_gst_object_name(hark_gst_object(UnsafeMutableRawPointer($0.element))) }
            .map { String(cString: $0) }
    }

    /// The pipeline's running time now: the capture time of a sample taken now.
    private var runningTime: GstClockTime? {
        guard let pipeline else { return nil }
        let time = hark_element_running_time(pipeline.element)
        return time == GStreamer.clockTimeNone ? nil : time
    }

    private var currentState: GstState {
        guard let pipeline else { return GST_STATE_NULL }
        var current = GST_STATE_NULL
        var pending = GST_STATE_NULL
        gst_element_get_state(pipeline.element, &current, &pending, 0)
        return current
    }

    private func handleLevel(_ message: BusMessage) {
        guard let duration = message.clockTime("duration"), duration > 0 else { return }
        let seconds = GStreamer.seconds(GstClockTime(duration))
        guard let rms = message.doubles("rms")?.first, let peak = message.doubles("peak")?.first,
              !rms.isNaN else {
            return  // the empty report `level` may post at end of stream
        }
        let isInput = message.sourceName == Self.inputLevelName
        if isInput || !processesVoice, let changed = microphoneCheck.add(peak: peak, seconds: seconds) {
            onEvent(.input(changed))
        }
        if isInput { return }
        elapsed += seconds
        levels.append(rms: rms, peak: peak)
        onEvent(.level(rms: Decibels.clamp(rms), peak: Decibels.clamp(peak), elapsed: elapsed))
        let shortBy = processesVoice ? VoiceProcessing.frameSeconds + 0.0005 : 0.0005
        if let maximumDuration, elapsed >= maximumDuration - shortBy, state == .recording {
            reachedMaximum = true
            stop()
        }
    }

    // MARK: Endings

    private func finish() {
        guard state == .stopping || state == .recording || state == .paused || interruption != nil else { return }
        tearDown()
        if levels.isEmpty {
            closeAndRemoveFile()
            state = .failed
            onEvent(.failed(interruption ?? .failed(detail: tr("no sound was recorded"))))
            return
        }
        if case .diskFull = interruption {
            // Part of what was measured never reached the disk; the file is the
            // truth. Measure it on a thread of its own and report that. The
            // result comes back through GLib, not a Swift task: it must arrive
            // in whatever loop runs, bridged to Swift concurrency or not.
            state = .stopping
            measuringWrittenFile = true
            let path = outputPath
            Thread.detachNewThread {
                let written = try? Analyzer.analyze(path: path)
                MainLoop.post { [weak self] in
                    guard let self, self.measuringWrittenFile else { return }
                    self.measuringWrittenFile = false
                    if let written {
                        self.levels = written.levels
                        self.elapsed = written.duration
                    }
                    self.report()
                }
            }
            return
        }
        report()
    }

    /// Ends the recording at once, keeping what reached the file, without
    /// waiting any longer for the end of stream (or for the file to be
    /// measured after a full disk): for a second Ctrl+C. `.finished` (or
    /// `.failed`, when nothing was recorded) follows before it returns.
    public func finishNow() {
        switch state {
        case .idle, .finished, .failed, .cancelled:
            return
        case .starting, .recording, .paused, .stopping:
            break
        }
        if measuringWrittenFile {
            measuringWrittenFile = false  // reported with the levels measured live
            report()
            return
        }
        interruption = interruption ?? .failed(detail: tr("the recording was ended before it closed; its last moments may be missing"))
        state = .stopping
        finish()
    }

    private func report() {
        state = .finished
        onEvent(.finished(Recording(path: outputPath, duration: elapsed, levels: levels,
                                    interruption: interruption, reachedMaximumDuration: reachedMaximum)))
    }

    private func fail(_ error: AudioError) {
        guard state != .finished, state != .failed, state != .cancelled else { return }
        interruption = error
        if levels.isEmpty {
            finish()  // nothing recorded: reported as a failure, the file removed
            return
        }
        // Keep what was recorded. When the source died, push the end of stream
        // in after it so the encoder and muxer still close the file; when the
        // file itself failed (disk full), there is nothing more to write.
        if case .deviceLost = error, let pipeline, let queue = pipeline.child("hark_queue"),
           let pad = gst_element_get_static_pad(queue, "sink") {
            if state == .paused {
                // A paused sink would hold the end of stream back; the dead
                // source may refuse PLAYING, the rest of the pipeline does not.
                pipeline.setState(GST_STATE_PLAYING)
            }
            state = .stopping
            _ = gst_pad_send_event(pad, gst_event_new_eos())
            gst_object_unref(UnsafeMutableRawPointer(pad))
            busWatch?.remove()
            busWatch = BusWatch(element: pipeline.element) { [weak self] message in
                if message.isEndOfStream || message.isError { self?.finish(); return false }
                return true
            }
            stopWatchdog = MainLoop.timeout(milliseconds: Self.stopTimeoutMilliseconds) { [weak self] in
                self?.stopWatchdog = nil
                self?.finish()
                return false
            }
            return
        }
        finish()
    }

    private func tearDown() {
        endOfStreamFallback?.remove()
        endOfStreamFallback = nil
        gate = nil  // freed with the pipeline's pad
        stopWatchdog?.remove()
        stopWatchdog = nil
        soundWatchdog?.remove()
        soundWatchdog = nil
        busWatch?.remove()
        busWatch = nil
        pipeline = nil  // to NULL and released: nothing writes to the file any more
        file?.close()
    }

    /// Removes the file this recorder created, if it is still the one at the
    /// path (another process may have put its own there since).
    private func closeAndRemoveFile() {
        file?.close()
        file?.removeIfStillAtPath()
        file = nil
    }

    private func classify(_ error: GLibError, from element: String?) -> AudioError {
        let resource = error.domain == "gst-resource-error-quark"
        switch element {
        case "hark_sink":
            if resource && error.code == Int32(GST_RESOURCE_ERROR_NO_SPACE_LEFT.rawValue) {
                return .diskFull(path: outputPath)
            }
            if error.message.localizedCaseInsensitiveContains("no space left") {
                return .diskFull(path: outputPath)
            }
            return .cannotWrite(path: outputPath, detail: error.message)
        case "hark_queue", "hark_convert", "hark_resample", "hark_caps", "hark_level", "hark_encoder", "hark_mux",
             "hark_input_level", "hark_voice", "hark_voice_convert":
            return .failed(detail: error.message)
        default:
            // The source (or an element inside it): the microphone.
            if state == .recording || state == .paused || state == .stopping, !levels.isEmpty {
                return .deviceLost(detail: error.message)
            }
            return source.isMicrophone ? .microphoneUnavailable(detail: error.message)
                                       : .invalidSource(detail: error.message)
        }
    }
}
