import AudioEngine
import Foundation
import GLibSupport
import HarkTestSupport
import Levels
import XCTest

/// The recorder's voice processing (`webrtcdsp`) on real speech over steady
/// noise, against the same recording made raw, and its check of the
/// microphone's raw input.
final class VoiceProcessingTests: XCTestCase {
    /// A WAV file played through the recorder's whole pipeline, as fast as it decodes.
    private static func fileSource(_ path: String) -> RecorderSource {
        .pipeline("filesrc location=\(path) ! wavparse")
    }

    @MainActor
    private static func recordFile(_ wav: String, to path: String, processing: Bool)
        throws -> (recording: Recording, events: [RecorderEvent], processed: Bool) {
        var processed: Bool?
        let (events, outcome) = try record(to: path, from: fileSource(wav), maximumDuration: nil,
                                           voiceProcessing: processing) { recorder, _ in processed = recorder.processesVoice }
        let recording = try XCTUnwrap(outcome?.recording, "\(String(describing: outcome))")
        return (recording, events, try XCTUnwrap(processed))
    }

    func testTheElementIsInstalled() {
        // scripts/install-deps installs it (gstreamer1.0-plugins-bad); without it
        // every other test here would measure nothing.
        XCTAssertTrue(VoiceProcessing.isAvailable, VoiceProcessing.unavailableReason ?? "")
        XCTAssertNil(VoiceProcessing.unavailableReason)
    }

    func testNoiseReductionWidensTheGapBetweenSpeechAndPausesAndKeepsTheSpeech() throws {
        let scratch = try ScratchFolder()
        let wav = scratch.path("noisy-speech.wav")
        try NoisySpeech.write(to: wav, scratch: scratch)
        let (samples, rate) = try WAVFile.read(wav)
        let input = NoisySpeech.speechAndGap(WAVFile.intervalRMS(samples, rate: rate))
        let (rawPath, cleanPath) = (scratch.path("raw.ogg"), scratch.path("clean.ogg"))
        try onMainActor {
            let raw = try Self.recordFile(wav, to: rawPath, processing: false)
            let clean = try Self.recordFile(wav, to: cleanPath, processing: true)
            XCTAssertFalse(raw.processed)
            XCTAssertTrue(clean.processed)
            let rawLevels = NoisySpeech.speechAndGap(raw.recording.levels.rms)
            let cleanLevels = NoisySpeech.speechAndGap(clean.recording.levels.rms)
            let report = "input \(input), raw \(rawLevels), processed \(cleanLevels)"
            XCTAssertGreaterThanOrEqual(cleanLevels.gap - rawLevels.gap, 15, "the pauses' noise is reduced: \(report)")
            XCTAssertGreaterThanOrEqual(cleanLevels.speech, rawLevels.speech - 3, "the speech is kept: \(report)")
            // Off means off: the raw take is the input as it came (Opus aside).
            XCTAssertEqual(rawLevels.speech, input.speech, accuracy: 2, report)
            XCTAssertEqual(rawLevels.gap, input.gap, accuracy: 6, report)
            // The file holds what the live waveform showed: the processed voice.
            let fromFile = NoisySpeech.speechAndGap(try Analyzer.analyze(path: clean.recording.path).levels.rms)
            XCTAssertEqual(fromFile.gap, cleanLevels.gap, accuracy: 3, "file \(fromFile), \(report)")
            XCTAssertEqual(clean.recording.duration, raw.recording.duration, accuracy: 0.06)
        }
    }

    /// The conditions the recorder reported, in order, each with the
    /// recorded time at which it was reported.
    private static func conditions(in events: [RecorderEvent]) -> [(InputCondition, Double)] {
        var elapsed = 0.0
        var found: [(InputCondition, Double)] = []
        for event in events {
            if case .level(_, _, let time) = event { elapsed = time }
            if case .input(let condition) = event { found.append((condition, elapsed)) }
        }
        return found
    }

    func testAVeryQuietInputIsNamedWithinTwoSecondsAndClearsWhenTheVoiceComesBack() throws {
        let scratch = try ScratchFolder()
        let wav = scratch.path("quiet.wav")
        // -60 dBFS peaks for 3 s (a muted or far microphone), then a clear voice.
        try WAVFile.write([.init(seconds: 3, amplitude: 0.001), .init(seconds: 2, amplitude: 0.2)],
                          rate: 48_000, to: URL(fileURLWithPath: wav))
        for processing in [true, false] {
            let output = scratch.path("quiet-\(processing).ogg")
            try onMainActor {
                let take = try Self.recordFile(wav, to: output, processing: processing)
                let said = Self.conditions(in: take.events)
                XCTAssertEqual(said.map(\.0), [.quiet, .fine], "processing \(processing): \(said)")
                if said.count == 2 {
                    XCTAssertEqual(said[0].1, MicrophoneCheck.window, accuracy: 0.2, "named after 2 s: \(said)")
                    XCTAssertEqual(said[1].1, 3, accuracy: 0.2, "cleared when the voice came: \(said)")
                }
            }
        }
    }

    func testAClippingInputIsNamedAndClearsAfterwards() throws {
        let scratch = try ScratchFolder()
        let wav = scratch.path("clipping.wav")
        // A voice, a second at full scale, then the voice again for 3 s.
        try WAVFile.write([.init(seconds: 1, amplitude: 0.2), .init(seconds: 1, amplitude: 1.0),
                           .init(seconds: 3, amplitude: 0.2)], rate: 48_000, to: URL(fileURLWithPath: wav))
        let output = scratch.path("clipping.ogg")
        try onMainActor {
            // Processing on: the limiter keeps the output under full scale, so
            // only the raw input can show the clipping.
            let take = try Self.recordFile(wav, to: output, processing: true)
            let said = Self.conditions(in: take.events)
            XCTAssertEqual(said.map(\.0), [.clipping, .fine], "\(said)")
            if said.count == 2 {
                XCTAssertEqual(said[0].1, 1, accuracy: 0.2, "named when it clipped: \(said)")
                XCTAssertEqual(said[1].1, 2 + MicrophoneCheck.window, accuracy: 0.2, "cleared 2 s after: \(said)")
            }
            XCTAssertLessThan(take.recording.levels.peak.max() ?? 0, -0.1, "the processed voice is limited")
        }
    }

    func testAnOrdinaryVoiceIsNeverWarnedAbout() throws {
        let scratch = try ScratchFolder()
        let wav = scratch.path("speech.wav")
        try NoisySpeech.write(to: wav, scratch: scratch)
        let output = scratch.path("speech.ogg")
        try onMainActor {
            let take = try Self.recordFile(wav, to: output, processing: true)
            // The pauses' noise (-50 dBFS RMS) peaks above the quiet mark.
            XCTAssertEqual(Self.conditions(in: take.events).map(\.0), [], "\(Self.conditions(in: take.events))")
        }
    }

    func testWithProcessingTheLimitPauseAndStopKeepTheirTimes() throws {
        let scratch = try ScratchFolder()
        let (limited, paused) = (scratch.path("limited.ogg"), scratch.path("paused.ogg"))
        try onMainActor {
            // The duration limit is cut exactly, after the processing too.
            let (_, outcome) = try record(to: limited, from: liveTone(amplitude: 0.3), maximumDuration: 1.5,
                                          voiceProcessing: true)
            let recording = try XCTUnwrap(outcome?.recording, "\(String(describing: outcome))")
            XCTAssertEqual(recording.duration, 1.5, accuracy: 0.06)
            XCTAssertEqual(try Analyzer.analyze(path: limited).duration, recording.duration, accuracy: 0.06)
            XCTAssertTrue(oggEndsCleanly(limited))

            // A pause leaves no gap (the wait while paused is not in the take);
            // Stop while paused ends the file cleanly.
            var pausedOnce = false, stoppedAt: Double?
            let (events, stopped) = try record(to: paused, from: liveTone(amplitude: 0.3), maximumDuration: nil,
                                               voiceProcessing: true) { recorder, event in
                guard case .level(_, _, let elapsed) = event else { return }
                if elapsed >= 0.8, !pausedOnce {
                    pausedOnce = true
                    recorder.pause()
                    MainLoop.timeout(milliseconds: 1_000) {
                        recorder.resume()
                        return false
                    }
                } else if elapsed >= 1.3, stoppedAt == nil, recorder.state == .recording {
                    stoppedAt = elapsed
                    recorder.pause()
                    recorder.stop()
                }
            }
            let take = try XCTUnwrap(stopped?.recording, "\(String(describing: stopped))")
            XCTAssertTrue(events.contains(.paused) && events.contains(.resumed))
            XCTAssertNil(take.interruption, "ended by its end of stream")
            let kept = try XCTUnwrap(stoppedAt, "stopped after the pause")
            // What was recorded until the stop was seen, and no more than what
            // the pipeline had captured but not yet reported; the second of
            // pause would make it 2.3 s or more.
            XCTAssertGreaterThanOrEqual(take.duration, kept - 0.06)
            XCTAssertLessThan(take.duration, kept + 0.5, "the pause is not in the take")
            XCTAssertEqual(try Analyzer.analyze(path: paused).duration, take.duration, accuracy: 0.06)
            XCTAssertTrue(oggEndsCleanly(paused))
        }
    }

    func testStopPressedBeforeTheSourceRunsEndsTheTakeCleanly() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("instant.ogg")
        try onMainActor {
            var outcome: RecorderEvent?
            let recorder = Recorder(outputPath: path, source: liveTone(amplitude: 0.3), voiceProcessing: true) { event in
                switch event {
                case .finished, .failed, .cancelled: outcome = event
                default: break
                }
            }
            try recorder.start()
            recorder.stop()  // Record and Stop in one moment (run-tests makes any GStreamer critical fatal)
            XCTAssertTrue(MainLoop.iterate(until: { outcome != nil }, timeout: 10), "the take ended")
            let recording = try XCTUnwrap(outcome?.recording, "\(String(describing: outcome))")
            XCTAssertLessThan(recording.duration, 0.5, "stopped at once")
            XCTAssertTrue(oggEndsCleanly(path))
        }
    }
}
