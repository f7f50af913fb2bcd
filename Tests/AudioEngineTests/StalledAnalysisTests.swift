import AudioEngine
import Foundation
import HarkTestSupport
import XCTest

/// A file that is no audio can stall GStreamer with neither an end nor an
/// error: an HLS playlist (a text file typefound as one) makes decodebin
/// fetch its segment from a server, which here sends a byte every two
/// seconds (never quiet long enough for the HTTP source's own timeout). The
/// analysis gives up with a sentence instead of waiting for ever.
final class StalledAnalysisTests: XCTestCase {
    func testAPlaylistWhoseServerTricklesFailsTheAnalysisWithASentence() throws {
        let server = try BrokenServer(routes: ["/segment": .init(headers: ["Content-Type": "video/mp2t"], body: Data([0x47]),
                                                                 repeats: 1_000_000, chunk: 1, pause: 2)])
        defer { server.stop() }
        let scratch = try ScratchFolder()
        let path = scratch.path("voice.ogg")
        try Data("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:3
            #EXTINF:10.0,
            \(server.url)/segment.ts
            #EXT-X-ENDLIST

            """.utf8).write(to: URL(fileURLWithPath: path))

        let outcome = AnalysisOutcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do { _ = try Analyzer.analyze(path: path) } catch { outcome.error = error as? AudioError }
            done.signal()
        }
        thread.start()
        // Far past the analysis's own deadline: without one it never ends.
        guard done.wait(timeout: .now() + 120) == .success else {
            return XCTFail("the analysis of a stalled file never ended")
        }
        guard case .notAudio(_, let detail)? = outcome.error else {
            return XCTFail("not refused as no audio: \(String(describing: outcome.error))")
        }
        XCTAssertTrue(detail.contains("stalled"), detail)
        XCTAssertEqual(server.requests(to: "/segment"), 1, "the stall was the server's: \(server.log)")
    }
}

private final class AnalysisOutcome: @unchecked Sendable {
    var error: AudioError?
}
