import Foundation
import HarkTestSupport
import XCTest

/// Chained Ogg files (`cat a.ogg b.ogg`, Opus or Vorbis): GStreamer 1.22's
/// decodebin stops at the first link's end or fails at the second, and
/// playbin, after any seek, stops at the join for good. Hark refuses them at
/// import and for levels and play, with a sentence naming the file, and every
/// command ends; one already in the store is exported whole.
final class ChainedOggTests: XCTestCase {
    private var home: ScratchFolder!
    private var environment: [String: String] { ["XDG_DATA_HOME": home.url.path, "HARK_AUDIO_SINK": "fakesink sync=true"] }

    override func setUpWithError() throws { home = try ScratchFolder() }
    override func tearDownWithError() throws { home = nil }

    /// Runs hark; a command still running after 30 s is killed and its status is nil.
    private func hark(_ arguments: [String]) throws -> (status: Int32?, output: String) {
        try ChildProcess.run(harkExecutable, arguments, environment: environment)
    }

    /// An Ogg file of `seconds` of tone at `frequency`, encoded by gst-launch-1.0.
    private func oggFile(_ name: String, seconds: Int, frequency: Int, encoder: String) throws -> String {
        let path = home.path(name)
        try gstLaunch("audiotestsrc num-buffers=\(seconds * 10) samplesperbuffer=4800 freq=\(frequency) volume=0.4 "
                      + "! audio/x-raw,rate=48000,channels=1 ! audioconvert ! \(encoder) ! oggmux ! filesink location=\(path)")
        return path
    }

    /// `cat first second > name`.
    private func chain(_ first: String, _ second: String, into name: String) throws -> String {
        let path = home.path(name)
        var joined = try Data(contentsOf: URL(fileURLWithPath: first))
        joined.append(try Data(contentsOf: URL(fileURLWithPath: second)))
        try joined.write(to: URL(fileURLWithPath: path))
        return path
    }

    private struct Decoded: Decodable { let duration_s: Double }

    private func duration(_ path: String) throws -> Double {
        let (status, output) = try hark(["levels", path, "--json"])
        XCTAssertEqual(status, 0, output)
        return try JSONDecoder().decode(Decoded.self, from: Data(output.utf8)).duration_s
    }

    private func chains() throws -> [String] {
        [try chain(try oggFile("a.opus.ogg", seconds: 4, frequency: 440, encoder: "opusenc"),
                   try oggFile("b.opus.ogg", seconds: 8, frequency: 880, encoder: "opusenc"), into: "opus chain.ogg"),
         try chain(try oggFile("a.vorbis.ogg", seconds: 4, frequency: 440, encoder: "vorbisenc"),
                   try oggFile("b.vorbis.ogg", seconds: 8, frequency: 880, encoder: "vorbisenc"), into: "vorbis chain.ogg")]
    }

    func testAChainedFileIsRefusedWithASentenceAndNothingHangs() throws {
        for path in try chains() {
            for arguments in [["levels", path, "--json"], ["play", path], ["play", path, "--rate", "2"],
                              ["play", path, "--start", "10"], ["import", path]] {
                let (status, output) = try hark(arguments)
                XCTAssertNotNil(status, "\(arguments) never ended: \(output)")
                XCTAssertEqual(status, 1, "\(arguments): \(output)")
                XCTAssertEqual(output.split(separator: "\n").count, 1, "\(arguments): one line, got \(output)")
                XCTAssertTrue(output.contains(path) && output.contains("chained Ogg file (2 streams"), "\(arguments): \(output)")
            }
        }
        let (status, listed) = try hark(["list", "--json"])
        XCTAssertEqual(status, 0, listed)
        XCTAssertTrue(listed.contains("[]"), "nothing was imported: \(listed)")
    }

    /// A message whose file is chained (imported before Hark refused them):
    /// play ends with a sentence, export ends with all of it.
    func testAChainedMessageInTheStoreEndsAndExportsWhole() throws {
        for (index, path) in try chains().enumerated() {
            let single = home.path(index == 0 ? "a.opus.ogg" : "a.vorbis.ogg")
            let (imported, output) = try hark(["import", single])
            XCTAssertEqual(imported, 0, output)
            let id = String(output.split(separator: " ").first ?? "")
            let stored = home.path("hark/messages/\(id).ogg")
            XCTAssertTrue(FileManager.default.fileExists(atPath: stored), output)
            try Data(contentsOf: URL(fileURLWithPath: path)).write(to: URL(fileURLWithPath: stored))

            for arguments in [["play", id], ["play", id, "--rate", "2"], ["play", id, "--start", "10"]] {
                let (status, output) = try hark(arguments)
                XCTAssertNotNil(status, "\(arguments) never ended: \(output)")
                XCTAssertEqual(status, 1, "\(arguments): \(output)")
                XCTAssertTrue(output.contains("chained Ogg file") && output.contains("export"), "\(arguments): \(output)")
            }
            for name in ["whole \(index).mp3", "whole \(index).wav"] {
                let target = home.path(name)
                let (status, output) = try hark(["export", id, target])
                XCTAssertNotNil(status, "export to \(name) never ended: \(output)")
                XCTAssertEqual(status, 0, "\(name): \(output)")
                XCTAssertEqual(try duration(target), 12, accuracy: 0.1, "\(name) holds both links, 4 s and 8 s")
            }
        }
    }
}
