import CCairo
import Foundation
import HarkTestSupport
import XCTest

/// `hark waveform`: the PNG follows the sound's envelope.
final class WaveformCommandTests: XCTestCase {
    /// Alpha and colour of a pixel of a PNG, read with Cairo.
    private struct PNG {
        let surface: OpaquePointer
        init(_ path: String) throws {
            surface = cairo_image_surface_create_from_png(path)
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { throw ReferenceToolFailed(output: "bad PNG \(path)") }
        }
        var width: Int { Int(cairo_image_surface_get_width(surface)) }
        var height: Int { Int(cairo_image_surface_get_height(surface)) }
        func rgb(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
            let data = cairo_image_surface_get_data(surface)!
            let value = UnsafeRawPointer(data + y * Int(cairo_image_surface_get_stride(surface)) + x * 4).loadUnaligned(as: UInt32.self)
            return (Int((value >> 16) & 0xFF), Int((value >> 8) & 0xFF), Int(value & 0xFF))
        }
        /// How many rows of column `x` differ from the background.
        func inked(_ x: Int) -> Int { (0..<height).filter { rgb(x, $0) != rgb(0, 0) }.count }
        /// The tallest ink in columns `range`.
        func tallest(_ range: Range<Int>) -> Int { range.map(inked).max() ?? 0 }
        func isAccent(_ x: Int, _ y: Int) -> Bool { let p = rgb(x, y); return p.b > 200 && p.r < 120 }
    }

    func testTheImageFollowsTheEnvelopeAndShowsThePlayedPart() throws {
        let scratch = try ScratchFolder()
        let wav = scratch.path("envelope.wav")
        try WAVFile.write([.init(seconds: 1, amplitude: 0.7), .init(seconds: 1, amplitude: 0),
                           .init(seconds: 1, amplitude: 0.05), .init(seconds: 1, amplitude: 0.7)],
                          rate: 16_000, to: URL(fileURLWithPath: wav))
        let png = scratch.path("wave.png")
        let (status, output) = try ChildProcess.run(harkExecutable, ["waveform", wav, "--png", png, "--width", "400",
                                                                     "--height", "60", "--played", "0.25"])
        XCTAssertEqual(status, 0, output)
        let image = try PNG(png)
        XCTAssertEqual(image.width, 400)
        XCTAssertEqual(image.height, 60)
        let loud = image.tallest(10..<90), silent = image.tallest(110..<190)
        let quiet = image.tallest(210..<290), loudAgain = image.tallest(310..<390)
        XCTAssertGreaterThan(loud, 40, "loud speech: tall bars")
        XCTAssertLessThanOrEqual(silent, 4, "silence: dots")
        XCTAssertGreaterThan(quiet, silent)
        XCTAssertLessThan(quiet, loud)
        XCTAssertEqual(loudAgain, loud, accuracy: 2)
        XCTAssertTrue((0..<90).contains { image.isAccent($0, 30) }, "played part in the accent colour")
        XCTAssertFalse((110..<400).contains { image.isAccent($0, 30) }, "nothing after the played fraction")
    }

    func testASpeechRecordingsImageIsTallWhereItSpeaksAndFlatWhereItIsSilent() throws {
        let scratch = try ScratchFolder()
        let spoken = scratch.path("spoken.wav")
        try PulseAudioServer.speech("Hark draws every word you say as a bar.", to: spoken)
        let (samples, rate) = try WAVFile.read(spoken)
        // Speech, two seconds of silence, the speech again.
        let wav = scratch.path("speech-pause-speech.wav")
        try WAVFile.write(samples: samples + [Double](repeating: 0, count: rate * 2) + samples, rate: rate,
                          to: URL(fileURLWithPath: wav))
        let total = Double(samples.count * 2 + rate * 2) / Double(rate)
        let png = scratch.path("speech.png")
        let (status, output) = try ChildProcess.run(harkExecutable, ["waveform", wav, "--png", png, "--width", "600",
                                                                     "--height", "64", "--played", "0.5"])
        XCTAssertEqual(status, 0, output)
        let image = try PNG(png)
        let speechEnd = Int(Double(samples.count) / Double(rate) / total * 600)
        let silence = (speechEnd + 8)..<(600 - speechEnd - 8)
        XCTAssertLessThanOrEqual(image.tallest(silence), 4, "the pause: dots")
        XCTAssertGreaterThan(image.tallest(0..<speechEnd), 30, "the words: tall bars")
        XCTAssertGreaterThan(image.tallest((600 - speechEnd)..<600), 30)
        XCTAssertTrue((0..<speechEnd).contains { image.isAccent($0, 32) }, "the first half played")
        XCTAssertFalse(((600 - speechEnd)..<600).contains { image.isAccent($0, 32) }, "the second not")
    }

    func testAMessageIsDrawnFromItsStoredLevelsWithoutItsAudio() throws {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.url.path]
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--duration", "1", "--source",
                                                                     "audiotestsrc is-live=true volume=0.5"], environment: environment)
        XCTAssertEqual(status, 0, output)
        let id = output.trimmingCharacters(in: .whitespacesAndNewlines)
        // Take the audio away: the waveform must come from the cached levels.
        try FileManager.default.moveItem(atPath: home.url.appendingPathComponent("hark/messages/\(id).ogg").path,
                                         toPath: home.path("elsewhere.ogg"))
        let png = home.path("message.png")
        let drawn = try ChildProcess.run(harkExecutable, ["waveform", id, "--png", png, "--width", "100", "--height", "30", "--dark"],
                                         environment: environment)
        XCTAssertEqual(drawn.status, 0, drawn.output)
        XCTAssertGreaterThan(try PNG(png).tallest(0..<100), 15)

        let missing = try ChildProcess.run(harkExecutable, ["waveform", "no-such-id", "--png", png], environment: environment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.output.contains("no-such-id"), missing.output)
    }
}
