import AudioEngine
import Foundation
import HarkTestSupport
import Levels
import MessageStore
import StoreAudio
import XCTest

/// Trimming a stored take for real: GStreamer cuts the file, the store keeps
/// the shorter audio with its levels and duration.
final class TakeTrimmingTests: XCTestCase {
    private var scratch: ScratchFolder!

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    /// 2 s of silence, `speech` (a tone that changes loudness), 2 s of silence, as Ogg Opus.
    private func take() throws -> String {
        let wav = scratch.path("take.wav")
        try WAVFile.write([.init(seconds: 2, amplitude: 0), .init(seconds: 1, amplitude: 0.5),
                           .init(seconds: 0.5, amplitude: 0.1, frequency: 300), .init(seconds: 1, amplitude: 0.4, frequency: 600),
                           .init(seconds: 2, amplitude: 0)], rate: 48_000, to: URL(fileURLWithPath: wav))
        let opus = scratch.path("take.ogg")
        try gstLaunch("filesrc location=\(wav) ! wavparse ! audioconvert ! opusenc ! oggmux ! filesink location=\(opus)")
        return opus
    }

    @MainActor
    func testSilenceAtBothEndsIsCutAndTheSpeechIsKeptAsItWas() async throws {
        let store = try MessageStore(folder: scratch.url.appendingPathComponent("hark"))
        let message = try store.importFile(try take())
        let before = try XCTUnwrap(try store.levels(of: message.id))
        XCTAssertEqual(message.duration, 6.5, accuracy: 0.05)

        let trim = try await store.trimSilence(of: message.id)
        XCTAssertNotNil(trim)
        let trimmed = try store.message(message.id)
        XCTAssertEqual(trimmed.duration, 3, accuracy: 0.2, "about 3.5 s shorter")
        // The file is what the store says: its own analysis finds that length.
        let analysed = try Analyzer.analyze(path: store.audioPath(of: trimmed), progress: { _ in }, isCancelled: { false })
        XCTAssertEqual(analysed.duration, trimmed.duration, accuracy: 0.1)

        // The speech is intact: the file's levels over it are the original's
        // (each within one interval, 50 ms: the cut need not fall on the grid),
        // inside each section of the speech (an interval across the change
        // from one to the next is a mix of both, as much as the grid falls).
        let offset = Int((try XCTUnwrap(trim).kept.lowerBound * 20).rounded())
        for index in Array(41..<59) + Array(61..<69) + Array(71..<89) {  // 2 s … 4.5 s of the original
            let new = analysed.levels.rms[index - offset]
            let nearest = (index - 1...index + 1).map { abs(before.rms[$0] - new) }.min() ?? .infinity
            XCTAssertLessThan(nearest, 1.5, "at \(Double(index) / 20) s: \(new) dB")
        }
        XCTAssertEqual(try store.levels(of: message.id)?.count, trim?.levels(of: before).count)
        let again = try await store.trimSilence(of: message.id)
        XCTAssertNil(again, "nothing more to cut")
    }
}
