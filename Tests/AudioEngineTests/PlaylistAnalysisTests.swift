import AudioEngine
import Foundation
import HarkTestSupport
import XCTest

/// A stranger's "voice message" that is an HLS playlist once stalled the
/// analysis for ever (GStreamer fetched its segment from a server that
/// trickled it), and made Hark fetch whatever address it names. No demuxer
/// that fetches over the network is autoplugged any more: the playlist is no
/// audio, at once. (The analysis's deadline without progress stays, for a
/// stall no one has reproduced since.)
final class PlaylistAnalysisTests: XCTestCase {
    /// An HLS playlist posing as a voice message names a "segment" on a
    /// server: it is no audio, and the server hears nothing (no request, so
    /// neither the user's address nor a way into the local network).
    func testAPlaylistPosingAsAudioFetchesNothing() throws {
        let server = try BrokenServer(routes: ["/segment": .init(headers: ["Content-Type": "video/mp2t"], body: Data([0x47]),
                                                                 repeats: 188)])
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
        XCTAssertThrowsError(try Analyzer.analyze(path: path)) { error in
            guard case .notAudio? = error as? AudioError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(server.requests(to: "/segment"), 0, "the playlist's address was fetched: \(server.log)")
    }
}
