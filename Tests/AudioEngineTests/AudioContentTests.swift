@testable import AudioEngine
import Foundation
import HarkTestSupport
import XCTest

/// The content sniffer on real files: Ogg made by gst-launch-1.0, chained
/// with `cat`, WAV written sample by sample.
final class AudioContentTests: XCTestCase {
    private var scratch: ScratchFolder!

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    private func ogg(_ name: String, encoder: String, seconds: Int = 1) throws -> String {
        let path = scratch.path(name)
        try gstLaunch("audiotestsrc num-buffers=\(seconds * 10) samplesperbuffer=4800 ! audio/x-raw,rate=48000,channels=1 "
                      + "! audioconvert ! \(encoder) ! oggmux ! filesink location=\(path)")
        return path
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    private func write(_ data: Data, _ name: String) throws -> String {
        let path = scratch.path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    func testKindsAreReadFromTheBytesNotTheName() throws {
        let opus = try ogg("opus.wav", encoder: "opusenc")
        let vorbis = try ogg("vorbis.opus", encoder: "vorbisenc")
        let wav = scratch.path("wav.ogg")
        try WAVFile.write(samples: [0, 0.5, -0.5, 0], rate: 8_000, to: URL(fileURLWithPath: wav))
        let text = try write(Data("OggS is not enough".utf8), "text.ogg")
        XCTAssertEqual(AudioContent(path: opus), AudioContent(kind: .oggOpus))
        XCTAssertEqual(AudioContent(path: vorbis), AudioContent(kind: .oggVorbis))
        XCTAssertEqual(AudioContent(path: wav), AudioContent(kind: .wav))
        XCTAssertEqual(AudioContent(path: text), AudioContent(kind: .unknown))
        XCTAssertEqual(AudioContent(path: scratch.path("missing")), AudioContent(kind: .unknown))
        XCTAssertEqual(AudioContent(path: opus).format, .opus)
        XCTAssertNil(AudioContent(path: vorbis).format)
        XCTAssertEqual(AudioContent(path: wav).format, .wav)
    }

    func testLinksAreCountedAcrossCatAndACutEnd() throws {
        let first = try bytes(try ogg("a.ogg", encoder: "opusenc"))
        let second = try bytes(try ogg("b.ogg", encoder: "opusenc", seconds: 2))
        let vorbis = try bytes(try ogg("c.ogg", encoder: "vorbisenc"))
        XCTAssertEqual(AudioContent(path: try write(first, "one.ogg")).links, 1)
        XCTAssertFalse(AudioContent(path: try write(first, "one.ogg")).isChained)
        XCTAssertEqual(AudioContent(path: try write(first + second, "two.ogg")), AudioContent(kind: .oggOpus, links: 2))
        XCTAssertEqual(AudioContent(path: try write(first + vorbis + second, "three.ogg")).links, 3)
        XCTAssertEqual(AudioContent(path: try write(vorbis + first, "vorbis first.ogg")),
                       AudioContent(kind: .oggVorbis, links: 2), "the first link's codec names the file")
        // Cut in the middle of the second link's data: still two links.
        let cut = first + second.prefix(second.count / 2)
        XCTAssertEqual(AudioContent(path: try write(cut, "cut.ogg")).links, 2)
    }

    func testOnlyTheContentsOwnFormatIsCopiedUnchanged() {
        let opus = AudioContent(kind: .oggOpus), vorbis = AudioContent(kind: .oggVorbis), wav = AudioContent(kind: .wav)
        XCTAssertNil(opus.conversion(asked: nil, target: "out.ogg"))
        XCTAssertNil(opus.conversion(asked: .opus, target: "out.wav"), "what is asked beats the name")
        XCTAssertEqual(opus.conversion(asked: nil, target: "out.wav"), .wav)
        XCTAssertEqual(vorbis.conversion(asked: nil, target: "out.opus"), .opus)
        XCTAssertEqual(vorbis.conversion(asked: .opus, target: "out"), .opus)
        XCTAssertNil(vorbis.conversion(asked: nil, target: "out"), "nothing asked or named: the original")
        XCTAssertEqual(wav.conversion(asked: nil, target: "out.ogg"), .opus)
        XCTAssertNil(wav.conversion(asked: .wav, target: "out.ogg"))
        XCTAssertEqual(AudioFormat.opus.choiceName(original: .opus), "Ogg Opus (original)")
        XCTAssertEqual(AudioFormat.opus.choiceName(original: nil), "Ogg Opus")
        XCTAssertEqual(AudioFormat.wav.choiceName(original: .wav), "WAV (original)")
    }

    func testAnExportsNameAndFormatAgree() {
        XCTAssertEqual(AudioFormat.forTypedName("take three.wav", selected: .opus), .wav, "a typed extension wins")
        XCTAssertEqual(AudioFormat.forTypedName("/m/Call.OGA", selected: .mp3), .opus)
        XCTAssertEqual(AudioFormat.forTypedName("take three", selected: .mp3), .mp3, "none typed: the list's")
        XCTAssertEqual(AudioFormat.forTypedName("notes.txt", selected: .wav), .wav)
        XCTAssertEqual(AudioFormat.mp3.name("/m/Call.ogg"), "/m/Call.mp3")
        XCTAssertEqual(AudioFormat.mp3.name("/m/Call.mp3"), "/m/Call.mp3")
        XCTAssertEqual(AudioFormat.wav.name("/m/Call.WAV"), "/m/Call.WAV", "as typed")
        XCTAssertEqual(AudioFormat.opus.name("/m/Call.opus"), "/m/Call.opus")
        XCTAssertEqual(AudioFormat.opus.name("/m/Call 10.30"), "/m/Call 10.30.ogg", "an unknown extension is kept")
        XCTAssertEqual(AudioFormat.wav.name("Voice message.mp3"), "Voice message.wav", "a name without a folder")
        XCTAssertEqual(AudioFormat.mp3.name("/Call.wav"), "/Call.mp3")
        XCTAssertEqual(AudioFormat.typedOverSuggested("take three.wav.ogg"), "take three.wav", "typed over the base")
        XCTAssertEqual(AudioFormat.typedOverSuggested("/m/take.MP3.wav"), "/m/take.MP3")
        XCTAssertNil(AudioFormat.typedOverSuggested("take three.ogg"))
        XCTAssertNil(AudioFormat.typedOverSuggested("notes.txt.ogg"))
        XCTAssertNil(AudioFormat.typedOverSuggested(".wav.ogg"), "no name left")
    }
}
