import Foundation
import HarkTestSupport
import XCTest

/// Export judges a message's audio by what it is, not by its file's name:
/// the original is copied unchanged only when it already is the asked
/// format; anything else is converted.
final class ExportContentTests: XCTestCase {
    private var home: ScratchFolder!
    private var environment: [String: String] { ["XDG_DATA_HOME": home.url.path] }

    override func setUpWithError() throws { home = try ScratchFolder() }
    override func tearDownWithError() throws { home = nil }

    private func hark(_ arguments: [String]) throws -> (status: Int32?, output: String) {
        try ChildProcess.run(harkExecutable, arguments, environment: environment)
    }

    private func importFile(_ path: String) throws -> String {
        let (status, output) = try hark(["import", path])
        XCTAssertEqual(status, 0, output)
        return String(output.split(separator: " ").first ?? "")
    }

    /// 2 s of tone encoded by gst-launch-1.0 into Ogg, saved as `name`.
    private func ogg(_ name: String, encoder: String) throws -> String {
        let path = home.path(name)
        try gstLaunch("audiotestsrc num-buffers=20 samplesperbuffer=4800 volume=0.4 ! audio/x-raw,rate=48000,channels=1 "
                      + "! audioconvert ! \(encoder) ! oggmux ! filesink location=\(path)")
        return path
    }

    private enum Kind: Equatable { case oggOpus, oggVorbis, wav, other }

    /// What the bytes are, read here independently of Hark's code.
    private func kind(_ path: String) throws -> Kind {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(40))
        if bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual(Array("WAVE".utf8)) { return .wav }
        guard bytes.starts(with: Array("OggS".utf8)), bytes.count >= 36 else { return .other }
        if bytes[28..<36].elementsEqual(Array("OpusHead".utf8)) { return .oggOpus }
        if bytes[29..<35].elementsEqual(Array("vorbis".utf8)) { return .oggVorbis }
        return .other
    }

    private struct Decoded: Decodable { let duration_s: Double }

    private func assertDecodes(_ path: String, seconds: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let (status, output) = try hark(["levels", path, "--json"])
        XCTAssertEqual(status, 0, output, file: file, line: line)
        let decoded = try JSONDecoder().decode(Decoded.self, from: Data(output.utf8))
        XCTAssertEqual(decoded.duration_s, seconds, accuracy: 0.1, path, file: file, line: line)
    }

    private func export(_ id: String, _ name: String, format: String? = nil) throws -> String {
        let target = home.path(name)
        let (status, output) = try hark(["export", id, target] + (format.map { ["--format", $0] } ?? []))
        XCTAssertEqual(status, 0, "\(name): \(output)")
        return target
    }

    func testAVorbisMessageAskedForAsOpusIsConvertedToOpus() throws {
        let vorbis = try ogg("speech.ogg", encoder: "vorbisenc")
        XCTAssertEqual(try kind(vorbis), .oggVorbis)
        let id = try importFile(vorbis)
        for (name, format) in [("as.opus", nil), ("as.ogg", nil), ("asked.audio", "opus")] {
            let path = try export(id, name, format: format)
            XCTAssertEqual(try kind(path), .oggOpus, "\(name) is Ogg Opus, not the Vorbis original")
            try assertDecodes(path, seconds: 2)
        }
    }

    func testAnOpusFileNamedWAVIsExportedAsARealWAV() throws {
        let opus = try ogg("x.wav", encoder: "opusenc")
        let id = try importFile(opus)
        let path = try export(id, "out.wav")
        XCTAssertEqual(try kind(path), .wav, "a WAV, not Ogg named .wav")
        try assertDecodes(path, seconds: 2)
        let copied = try export(id, "out.ogg")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copied)), try Data(contentsOf: URL(fileURLWithPath: opus)),
                       "asked for what it is (Ogg Opus), the original unchanged")
    }

    func testAWAVNamedOggIsConvertedToOpusAndCopiedAsWAV() throws {
        let wav = home.path("y.ogg")
        let rate = 16_000
        try WAVFile.write(samples: (0..<(2 * rate)).map { 0.4 * sin(2 * .pi * 440 * Double($0) / Double(rate)) },
                          rate: rate, to: URL(fileURLWithPath: wav))
        let id = try importFile(wav)
        let opus = try export(id, "out.ogg")
        XCTAssertEqual(try kind(opus), .oggOpus, "Ogg Opus, not a WAV named .ogg")
        try assertDecodes(opus, seconds: 2)
        let copied = try export(id, "out.wav")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copied)), try Data(contentsOf: URL(fileURLWithPath: wav)),
                       "a WAV asked for as WAV is the original unchanged")
    }
}
