import AudioEngine
import Foundation
import GLibSupport
import HarkTestSupport
import XCTest

/// The real capture path: pulsesrc from a private PulseAudio server into
/// which speech is played.
final class CaptureTests: XCTestCase {
    private static let sentence =
        "Hello, this is a test of the Hark voice recorder. One, two, three, four, five, six, seven, eight, nine, ten."

    /// Starts a private server, points this process's PulseAudio clients at
    /// it, and plays speech into it while `body` runs.
    private func withSpeech(_ body: (PulseAudioServer) throws -> Void) throws {
        let server = try PulseAudioServer()
        let speech = server.folder.path("speech.wav")
        try PulseAudioServer.speech(Self.sentence, to: speech)
        let previous = ProcessInfo.processInfo.environment["PULSE_SERVER"]
        setenv("PULSE_SERVER", server.clientEnvironment["PULSE_SERVER"]!, 1)
        defer { if let previous { setenv("PULSE_SERVER", previous, 1) } else { unsetenv("PULSE_SERVER") } }
        try server.play(speech)
        try body(server)
    }

    func testDefaultMicrophoneCapturesSpeechNotSilence() throws {
        try withSpeech { server in
            try onMainActor {
                let (_, outcome) = try record(to: server.folder.path("captured.ogg"), from: .defaultMicrophone,
                                              maximumDuration: 3)
                let recording = try XCTUnwrap(outcome?.recording, "\(String(describing: outcome))")
                XCTAssertEqual(recording.duration, 3, accuracy: 0.06)
                let voiced = recording.levels.rms.filter { $0 > -40 }.count
                XCTAssertGreaterThan(voiced, recording.levels.count / 4, "speech, not silence: \(recording.levels.rms)")
                let analysis = try Analyzer.analyze(path: recording.path)
                XCTAssertEqual(analysis.duration, recording.duration, accuracy: 0.06)
            }
        }
    }

    func testInputsAreListedAndAChosenOneRecords() throws {
        try withSpeech { server in
            let inputs = AudioDevices.inputs()
            let monitor = try XCTUnwrap(inputs.first { $0.internalName == PulseAudioServer.monitorName }, "\(inputs)")
            XCTAssertFalse(monitor.displayName.isEmpty)
            try onMainActor {
                let (_, outcome) = try record(to: server.folder.path("chosen.ogg"), from: .device(monitor.internalName),
                                              maximumDuration: 2)
                let recording = try XCTUnwrap(outcome?.recording, "\(String(describing: outcome))")
                XCTAssertGreaterThan(recording.levels.rms.max() ?? -100, -40)
            }
        }
    }

    func testADefaultInputThatIsAnOutputsMonitorIsKnownAsOne() throws {
        try withSpeech { server in
            // The test server has no microphone: its default input is the sink's monitor.
            var inputs = AudioDevices.inputs()
            let monitor = try XCTUnwrap(inputs.first { $0.internalName == PulseAudioServer.monitorName }, "\(inputs)")
            XCTAssertTrue(monitor.isMonitor && monitor.isDefault, "\(monitor)")
            XCTAssertTrue(inputs.defaultIsMonitor)

            // Plug in a microphone and make it the default: the monitor is a choice, no longer the default.
            let pulse = server.clientEnvironment
            let (loaded, output) = try ChildProcess.run("/usr/bin/pactl", [
                "load-module", "module-null-source", "source_name=hark_test_mic"], environment: pulse, seconds: 15)
            XCTAssertEqual(loaded, 0, output)
            let (defaulted, message) = try ChildProcess.run("/usr/bin/pactl", ["set-default-source", "hark_test_mic"],
                                                            environment: pulse, seconds: 15)
            XCTAssertEqual(defaulted, 0, message)
            inputs = AudioDevices.inputs()
            let microphone = try XCTUnwrap(inputs.first { $0.internalName == "hark_test_mic" }, "\(inputs)")
            XCTAssertTrue(microphone.isDefault && !microphone.isMonitor, "\(microphone)")
            XCTAssertFalse(inputs.defaultIsMonitor, "\(inputs)")
            XCTAssertEqual(inputs.filter(\.isDefault).count, 1, "\(inputs)")
        }
    }

    func testServerGoneMidRecordingKeepsWhatWasRecorded() throws {
        try withSpeech { server in
            try onMainActor {
                let path = server.folder.path("interrupted.ogg")
                var killed = false
                let (_, outcome) = try record(to: path, from: .defaultMicrophone, maximumDuration: 30) { _, event in
                    if case .level(_, _, let elapsed) = event, elapsed >= 1, !killed {
                        killed = true
                        server.kill()
                    }
                }
                let recording = try XCTUnwrap(outcome?.recording, "\(String(describing: outcome))")
                guard case .deviceLost = recording.interruption else {
                    return XCTFail("interruption: \(String(describing: recording.interruption))")
                }
                XCTAssertGreaterThanOrEqual(recording.duration, 1)
                let analysis = try Analyzer.analyze(path: path)
                XCTAssertEqual(analysis.duration, recording.duration, accuracy: 0.1, "the kept part plays")
            }
        }
    }
}
