import Foundation
import HarkTestSupport
import MessageStore
import Transcription
import XCTest

/// A private store and the real engine (installed once into .build/transcriber
/// by scripts/run-tests), and speech that goes through Hark's own recording
/// path: espeak-ng's WAV as the recorder's source, so the recorder's voice
/// processing, Opus encoder and Ogg muxer make the message's file.
final class SpokenMessages {
    let home: ScratchFolder
    /// The checkout's engine (the one scripts/run-tests installs).
    /// The transcription helpers this test process runs now (found in /proc).
    static var helpers: [pid_t] { ProcessTable.helpers(running: engine.helperScript) }
    /// The helpers, once one runs (one was just started).
    static var startedHelpers: [pid_t] { ProcessTable.helpers(running: engine.helperScript, atLeast: 1) }

    static let engine: Engine = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        return Engine(folder: ProcessInfo.processInfo.environment["HARK_TRANSCRIBER_DIR"] ?? root + "/.build/transcriber",
                      helperScript: root + "/Resources/transcriber.py", installer: root + "/scripts/install-transcriber")
    }()

    init() throws {
        home = try ScratchFolder()
    }

    /// Where the commands look for the engine: a folder without one stands
    /// for a user whose engine is not installed (or was removed).
    var engineFolder = SpokenMessages.engine.folder

    var environment: [String: String] {
        ["XDG_DATA_HOME": home.url.path, "HARK_TRANSCRIBER_DIR": engineFolder]
    }

    var storeFolder: URL { home.url.appendingPathComponent("hark") }

    func hark(_ arguments: [String], seconds: Double = 300) throws -> (status: Int32?, output: String) {
        try ChildProcess.run(harkExecutable, arguments, environment: environment, seconds: seconds)
    }

    /// Records `sentence`, spoken, into the store through `hark record`; its id.
    /// `asAMicrophone`: in real time and with voice processing on, as a
    /// microphone's voice is recorded (the processing's gain control adapts
    /// over time: a file fed faster than real time can garble the first
    /// words); otherwise as fast as it decodes, raw (for the tests of the
    /// queue, which need words, not the microphone's path).
    /// `voice`: espeak-ng's voice for another language than English ("de").
    func record(saying sentence: String, title: String? = nil, asAMicrophone: Bool = true,
                voice: String? = nil) throws -> String {
        let spokenWAV = home.path("speech-\(UUID().uuidString).wav")
        try PulseAudioServer.speech(sentence, to: spokenWAV, voice: voice)
        // A second of quiet before and after, as a microphone hears before one speaks.
        let (samples, rate) = try WAVFile.read(spokenWAV)
        let quiet = [Double](repeating: 0, count: rate)
        let wav = home.path("padded-\(UUID().uuidString).wav")
        try WAVFile.write(samples: quiet + samples + quiet, rate: rate, to: URL(fileURLWithPath: wav))
        return try record(source: "filesrc location=\(wav) ! wavparse" + (asAMicrophone ? " ! identity sync=true" : ""),
                          title: title, raw: !asAMicrophone)
    }

    /// Records a GStreamer source description into the store; its id.
    func record(source: String, duration: Double? = nil, title: String? = nil, raw: Bool = false) throws -> String {
        var arguments = ["record", "--source", source]
        if let duration { arguments += ["--duration", String(duration)] }
        if let title { arguments += ["--title", title] }
        if raw { arguments.append("--raw") }
        let (status, output) = try hark(arguments)
        XCTAssertEqual(status, 0, output)
        // The id's line (a transcript may follow it on standard error).
        return try XCTUnwrap(output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                                .last { UUID(uuidString: $0) != nil }, output)
    }

    struct Listed: Decodable {
        let id: String
        let title: String
        let transcript: String?
        let transcript_state: String
    }

    func list() throws -> [String: Listed] {
        let (status, output) = try hark(["list", "--json"])
        XCTAssertEqual(status, 0, output)
        let json = output.split(separator: "\n").filter { $0.hasPrefix("[") }.last.map(String.init) ?? "[]"
        return Dictionary(uniqueKeysWithValues: try JSONDecoder().decode([Listed].self, from: Data(json.utf8)).map { ($0.id, $0) })
    }
}

/// Word error rate: the word-level edit distance between what was said and
/// what came back, over the number of words said. Case, punctuation and the
/// form of numbers ("10" or "ten") do not count as errors.
enum WordErrorRate {
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.flatMap { token -> [String] in
            if let number = Int(token), let spelled = NumberWords.spelled(number) {
                return spelled.split(separator: " ").map(String.init)
            }
            return [String(token)]
        }
    }

    static func errors(reference: [String], hypothesis: [String]) -> Int {
        var previous = Array(0...hypothesis.count)
        for (i, said) in reference.enumerated() {
            var row = [i + 1]
            for (j, heard) in hypothesis.enumerated() {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (said == heard ? 0 : 1)))
            }
            previous = row
        }
        return previous[hypothesis.count]
    }
}
