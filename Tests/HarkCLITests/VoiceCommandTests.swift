import Foundation
import HarkTestSupport
import XCTest

/// `hark record`'s voice processing as a user meets it: on unless `--raw`,
/// remembered by the message, and a recording that still works (and says
/// why it is unprocessed) where `webrtcdsp` is not installed.
final class VoiceCommandTests: XCTestCase {
    private var home: ScratchFolder!
    private var environment: [String: String] { ["XDG_DATA_HOME": home.url.path] }
    private let tone = "audiotestsrc wave=sine volume=0.3"

    override func setUpWithError() throws { home = try ScratchFolder() }
    override func tearDownWithError() throws { home = nil }

    private struct Listed: Decodable {
        let id: String
        let voice_processed: Bool?
    }

    private func hark(_ arguments: [String], _ extra: [String: String] = [:]) throws -> (status: Int32?, output: String) {
        try ChildProcess.run(harkExecutable, arguments, environment: environment.merging(extra) { $1 })
    }

    private func listed(_ extra: [String: String] = [:]) throws -> [String: Bool?] {
        let (status, output) = try hark(["list", "--json"], extra)
        XCTAssertEqual(status, 0, output)
        let json = output.split(separator: "\n").filter { $0.hasPrefix("[") }.last.map(String.init) ?? "[]"
        return Dictionary(uniqueKeysWithValues: try JSONDecoder().decode([Listed].self, from: Data(json.utf8))
            .map { ($0.id, $0.voice_processed) })
    }

    private func recordedID(_ output: String) -> String {
        output.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// GStreamer as a distribution without `webrtcdsp` has it: every plugin
    /// of this machine but that one, in a registry of its own.
    private func pluginsWithoutVoiceProcessing(in folder: ScratchFolder) throws -> [String: String] {
        let (status, directory) = try ChildProcess.run("/usr/bin/pkg-config", ["--variable=pluginsdir", "gstreamer-1.0"])
        XCTAssertEqual(status, 0, directory)
        let plugins = directory.trimmingCharacters(in: .whitespacesAndNewlines)
        let farm = folder.path("plugins")
        try FileManager.default.createDirectory(atPath: farm, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: plugins)
            where name.hasSuffix(".so") && name != "libgstwebrtcdsp.so" {
            try FileManager.default.createSymbolicLink(atPath: "\(farm)/\(name)", withDestinationPath: "\(plugins)/\(name)")
        }
        let registry = folder.path("registry.bin")
        return ["GST_PLUGIN_SYSTEM_PATH_1_0": farm, "GST_PLUGIN_SYSTEM_PATH": farm, "GST_PLUGIN_PATH_1_0": "",
                "GST_PLUGIN_PATH": "", "GST_REGISTRY_1_0": registry, "GST_REGISTRY": registry]
    }

    func testRecordingsAreProcessedUnlessRawAndTheMessageRemembersWhich() throws {
        let processed = try hark(["record", "--duration", "1", "--source", tone])
        XCTAssertEqual(processed.status, 0, processed.output)
        let raw = try hark(["record", "--raw", "--duration", "1", "--source", tone])
        XCTAssertEqual(raw.status, 0, raw.output)
        let messages = try listed()
        XCTAssertEqual(messages[recordedID(processed.output)], true, "\(messages)")
        XCTAssertEqual(messages[recordedID(raw.output)], false, "\(messages)")
        XCTAssertFalse(processed.output.contains("without noise reduction"), processed.output)

        let scratch = try ScratchFolder()
        let file = try hark(["record", "--raw", "--output", scratch.path("raw.ogg"), "--duration", "0.5", "--source", tone])
        XCTAssertEqual(file.status, 0, file.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path("raw.ogg")))
    }

    func testWithoutTheElementRecordingStillWorksUnprocessedAndSaysWhy() throws {
        let scratch = try ScratchFolder()
        let withoutIt = try pluginsWithoutVoiceProcessing(in: scratch)
        // The farm really hides it, and only it.
        let inspect = try ChildProcess.run("/usr/bin/gst-inspect-1.0", ["webrtcdsp"], environment: withoutIt)
        XCTAssertNotEqual(inspect.status, 0, inspect.output)
        let encoder = try ChildProcess.run("/usr/bin/gst-inspect-1.0", ["opusenc"], environment: withoutIt)
        XCTAssertEqual(encoder.status, 0, encoder.output)

        let recorded = try hark(["record", "--duration", "1", "--source", tone], withoutIt)
        XCTAssertEqual(recorded.status, 0, recorded.output)
        XCTAssertTrue(recorded.output.contains("without noise reduction"), recorded.output)
        XCTAssertTrue(recorded.output.contains("gstreamer1.0-plugins-bad"), "says what to install: \(recorded.output)")
        XCTAssertEqual(try listed()[recordedID(recorded.output)], false)

        let path = scratch.path("plain.ogg")
        let file = try hark(["record", "--output", path, "--duration", "1", "--source", tone], withoutIt)
        XCTAssertEqual(file.status, 0, file.output)
        let (status, levels) = try hark(["levels", path, "--json"])
        XCTAssertEqual(status, 0, levels)
        XCTAssertTrue(levels.contains("\"duration_s\""), levels)
    }

    func testAVeryQuietMicrophoneIsNamedOnStandardError() throws {
        let scratch = try ScratchFolder()
        let quiet = try hark(["record", "--output", scratch.path("quiet.ogg"), "--duration", "3",
                              "--source", "audiotestsrc wave=sine volume=0.001"])
        XCTAssertEqual(quiet.status, 0, quiet.output)
        XCTAssertTrue(quiet.output.contains("the microphone is very quiet"), quiet.output)
        let fine = try hark(["record", "--output", scratch.path("fine.ogg"), "--duration", "3", "--source", tone])
        XCTAssertEqual(fine.status, 0, fine.output)
        XCTAssertFalse(fine.output.contains("warning"), fine.output)
    }

    private struct Levels: Decodable {
        let duration_s: Double
        let rms_db: [Double]
    }

    func testSpeechOverNoiseFromTheDefaultMicrophoneStandsOutWhenProcessed() throws {
        // The acceptance test: a real sound server, whose default input hears speech over a
        // fan-like noise, recorded by `hark record` as a user runs it, with processing and raw.
        let server = try PulseAudioServer()
        let wav = server.folder.path("noisy-speech.wav")
        try NoisySpeech.write(to: wav, scratch: server.folder)
        let (samples, rate) = try WAVFile.read(wav)
        let seconds = Double(samples.count) / Double(rate)
        try server.makeMonitorLive()
        var measured: [String: (speech: Double, gap: Double)] = [:]
        for mode in ["processed", "raw"] {
            let path = server.folder.path("\(mode).ogg")
            let recorder = try ChildProcess(harkExecutable, ["record", "--output", path, "--duration",
                                                             String(format: "%.1f", seconds + 1.5)]
                                            + (mode == "raw" ? ["--raw"] : []),
                                            environment: environment.merging(server.clientEnvironment) { $1 })
            // Play once the recording runs (its file begins with the Ogg headers).
            func started() -> Bool {
                let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
                return (size ?? 0) > 0
            }
            let deadline = Date().addingTimeInterval(20)
            while recorder.isRunning, Date() < deadline, !started() { usleep(20_000) }
            try server.play(wav)
            XCTAssertEqual(recorder.waitForExit(seconds: seconds + 30), 0, recorder.output)
            let (status, output) = try hark(["levels", path, "--json"])
            XCTAssertEqual(status, 0, output)
            let levels = try JSONDecoder().decode(Levels.self, from: Data(output.utf8))
            // Before and after the file plays the sink is digitally silent: not part of the take's sound.
            let heard = levels.rms_db.filter { $0 > -90 }
            XCTAssertGreaterThan(Double(heard.count) * 0.05, seconds - 1, "the whole file was heard (\(mode))")
            measured[mode] = NoisySpeech.speechAndGap(heard)
        }
        let processed = try XCTUnwrap(measured["processed"]), raw = try XCTUnwrap(measured["raw"])
        XCTAssertGreaterThanOrEqual(processed.gap - raw.gap, 15, "processed \(processed), raw \(raw)")
        XCTAssertGreaterThanOrEqual(processed.speech, raw.speech - 3, "processed \(processed), raw \(raw)")
    }
}
