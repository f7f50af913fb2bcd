import Foundation
import HarkTestSupport
import XCTest

/// `hark record`, `hark levels` and `hark play`, run as a user runs them.
final class AudioCommandTests: XCTestCase {
    private let tone = "audiotestsrc is-live=true wave=sine volume=0.5"

    private struct Levels: Decodable {
        let interval_ms: Int
        let duration_s: Double
        let rms_db: [Double]
        let peak_db: [Double]
    }

    private func levels(of path: String) throws -> Levels {
        let (status, output) = try ChildProcess.run(harkExecutable, ["levels", path, "--json"])
        XCTAssertEqual(status, 0, output)
        return try JSONDecoder().decode(Levels.self, from: Data(output.utf8))
    }

    func testRecordForADurationThenLevelsAsJSON() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("tone.ogg")
        // Raw: this checks the level path; the voice processing would treat a
        // steady tone as noise (VoiceCommandTests test that).
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--output", path, "--duration", "1.5",
                                                                     "--source", tone])
        XCTAssertEqual(status, 0, output)
        let json = try levels(of: path)
        XCTAssertEqual(json.interval_ms, 50)
        XCTAssertEqual(json.duration_s, 1.5, accuracy: 0.06)
        XCTAssertEqual(json.rms_db.count, json.peak_db.count)
        XCTAssertEqual(Double(json.rms_db.count), json.duration_s / 0.05, accuracy: 1)
        for rms in json.rms_db { XCTAssertEqual(rms, 20 * log10(0.5 / 2.0.squareRoot()), accuracy: 1) }
        XCTAssertTrue(json.rms_db.allSatisfy { $0 >= -100 })
    }

    func testFileNamesWithSpacesQuotesAndBackslashesWork() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path(#"Jo's "quick" note \ take 1 ! ogg.ogg"#)
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--output", path, "--duration", "0.5",
                                                                     "--source", tone])
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(try levels(of: path).duration_s, 0.5, accuracy: 0.06)
        let played = try ChildProcess.run(harkExecutable, ["play", path], environment: ["HARK_AUDIO_SINK": "fakesink sync=true"])
        XCTAssertEqual(played.status, 0, played.output)
    }

    func testLevelsOfSpeechMatchAnIndependentComputation() throws {
        let scratch = try ScratchFolder()
        let wav = scratch.path("speech.wav")
        try PulseAudioServer.speech("Hark keeps your voice messages. Speak, pause, and speak again; every word is measured.", to: wav)
        let (samples, rate) = try WAVFile.read(wav)
        let expected = WAVFile.intervalRMS(samples, rate: rate)

        let fromWAV = try levels(of: wav)
        XCTAssertEqual(fromWAV.duration_s, Double(samples.count) / Double(rate), accuracy: 0.05)
        XCTAssertEqual(fromWAV.rms_db.count, expected.count)
        for (index, (ours, theirs)) in zip(fromWAV.rms_db, expected).enumerated() where theirs > -60 {
            XCTAssertEqual(ours, theirs, accuracy: 0.5, "WAV interval \(index)")
        }

        let opus = scratch.path("speech.ogg")
        try gstLaunch("filesrc location=\(wav) ! wavparse ! audioconvert ! audioresample ! opusenc bitrate=64000 "
                      + "! oggmux ! filesink location=\(opus)")
        let fromOpus = try levels(of: opus)
        XCTAssertEqual(fromOpus.duration_s, fromWAV.duration_s, accuracy: 0.05, "to one interval")
        var compared = 0
        // Voiced speech; in the quiet between words a lossy codec's noise
        // floor shows, and that is not the analyser's doing.
        for (index, (ours, theirs)) in zip(fromOpus.rms_db, expected).enumerated() where theirs > -30 {
            XCTAssertEqual(ours, theirs, accuracy: 1, "Opus interval \(index)")
            compared += 1
        }
        XCTAssertGreaterThan(compared, 10, "enough voiced speech to compare")
    }

    func testControlCEndsTheRecordingCleanly() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("interrupted.ogg")
        let recorder = try ChildProcess(harkExecutable, ["record", "--output", path, "--source", tone])
        usleep(1_500_000)
        recorder.process.interrupt()  // SIGINT, as Ctrl+C
        XCTAssertEqual(recorder.waitForExit(seconds: 10), 0, recorder.output)
        XCTAssertGreaterThan(try levels(of: path).duration_s, 1)
        XCTAssertTrue(oggEndsCleanly(path), "stopped with an end of stream, not cut off")
    }

    func testKilledRecordingLeavesAtLeastThreeSecondsOfAudioAfterFour() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("killed.ogg")
        let recorder = try ChildProcess(harkExecutable, ["record", "--output", path, "--source", tone])
        usleep(4_000_000)
        kill(recorder.process.processIdentifier, SIGKILL)
        recorder.waitForExit(seconds: 10)
        let json = try levels(of: path)
        XCTAssertGreaterThanOrEqual(json.duration_s, 3, "all but the last moments survive kill -9")
        XCTAssertFalse(oggEndsCleanly(path), "a killed recorder cannot have closed the stream")
    }

    func testNoSoundServerFailsFastAndSaysMicrophone() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("nothing.ogg")
        let started = Date()
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--output", path],
                                                    environment: ["PULSE_SERVER": "unix:\(scratch.path("no-server"))"])
        XCTAssertEqual(status, 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertTrue(output.contains("microphone"), output)
        XCTAssertEqual(output.split(separator: "\n").count, 1, output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testRealMicrophoneThroughPulseAudioCapturesSpeech() throws {
        let server = try PulseAudioServer()
        let speech = server.folder.path("speech.wav")
        try PulseAudioServer.speech("Testing the microphone. One, two, three, four, five, six.", to: speech)
        try server.play(speech)
        let path = server.folder.path("spoken.ogg")
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--output", path, "--duration", "2"],
                                                    environment: server.clientEnvironment)
        XCTAssertEqual(status, 0, output)
        let json = try levels(of: path)
        XCTAssertGreaterThan(json.rms_db.filter { $0 > -40 }.count, json.rms_db.count / 4, "speech, not silence")
    }

    func testPlayRunsToTheEndAtTheAskedSpeed() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("three.ogg")
        _ = try ChildProcess.run(harkExecutable, ["record", "--output", path, "--duration", "3", "--source", tone])
        let started = Date()
        let (status, output) = try ChildProcess.run(harkExecutable, ["play", path, "--start", "1", "--rate", "2"],
                                                    environment: ["HARK_AUDIO_SINK": "fakesink sync=true"])
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(elapsed, 1, accuracy: 0.5, "two seconds of audio at 2x")
    }

    func testPlayWithSkipSilencePrintsTheTimeSaved() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("bursts.wav")
        try HeardAudio.writeBursts(pauses: [0.2, 1, 3], to: path)
        let (status, output) = try ChildProcess.run(harkExecutable, ["play", path, "--skip-silence"],
                                                    environment: ["HARK_AUDIO_SINK": "fakesink sync=true"])
        XCTAssertEqual(status, 0, output)
        let saved = try XCTUnwrap(output.split(separator: "\n").first { $0.hasPrefix("Skip Silence saved ") }, output)
        let seconds = try XCTUnwrap(Double(saved.dropFirst("Skip Silence saved ".count).dropLast(2)), output)
        XCTAssertEqual(seconds, 0.7 + 2.7, accuracy: 0.15, "the 1 s and 3 s pauses shortened to 0.3 s")

        let (plainStatus, plain) = try ChildProcess.run(harkExecutable, ["play", path, "--start", "8"],
                                                        environment: ["HARK_AUDIO_SINK": "fakesink sync=true"])
        XCTAssertEqual(plainStatus, 0, plain)
        XCTAssertFalse(plain.contains("Skip Silence"), "without the option nothing is skipped nor said")
    }

    func testPlayWithNoSoundServerSaysSo() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("tone.ogg")
        _ = try ChildProcess.run(harkExecutable, ["record", "--output", path, "--duration", "0.5", "--source", tone])
        let (status, output) = try ChildProcess.run(harkExecutable, ["play", path],
                                                    environment: ["PULSE_SERVER": "unix:\(scratch.path("none"))"])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(output.contains("No sound output"), output)
    }

    func testBadInputsExitWithAReason() throws {
        let scratch = try ScratchFolder()
        let cases: [([String], Int32, String)] = [
            (["record", "--output", scratch.path("x.ogg"), "--title", "T"], 2, "--title"),
            (["record", "--output", scratch.path("x.ogg"), "--duration", "soon"], 2, "--duration"),
            (["record", "--output", scratch.path("no/folder/x.ogg"), "--source", tone], 1, "does not exist"),
            (["record", "--output", scratch.path("x.ogg"), "--source", "nonsense-element"], 1, "nonsense-element"),
            (["levels", scratch.path("missing.ogg"), "--json"], 1, "missing.ogg"),
            (["levels", "/etc/passwd", "--json"], 1, "/etc/passwd"),
            (["levels", "--json"], 2, "FILE"),
            (["play", scratch.path("missing.ogg")], 1, "missing.ogg"),
            (["play", "x.ogg", "--rate", "3"], 2, "--rate"),
            (["record", "--output", scratch.url.path, "--source", tone], 1, "already exists"),
        ]
        for (arguments, expected, mention) in cases {
            let (status, output) = try ChildProcess.run(harkExecutable, arguments)
            XCTAssertEqual(status, expected, "\(arguments): \(output)")
            XCTAssertEqual(output.split(separator: "\n").count, 1, "\(arguments): one line, got \(output)")
            XCTAssertTrue(output.contains(mention), "\(arguments): \(output)")
        }
    }
}
