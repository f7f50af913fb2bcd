import AudioEngine
@testable import Conversations
import Foundation
import HarkTestSupport
import Levels
import Matrix
import MessageStore
import XCTest

/// A hostile room member, through the real Synapse: voice messages whose
/// "audio" is a PNG, a playlist that stalls the decoder, or an address that
/// is none. Each fails for good with its reason (not "Downloading…" for
/// ever, not fetched again at every sync), and none holds up the real voice
/// message sent before them (downloads go one at a time, newest first).
final class HostileMemberTests: XCTestCase {
    nonisolated(unsafe) static var server: SynapseServer?

    override class func setUp() {
        super.setUp()
        server = SharedHomeserver.start(users: ["alice", "mallory"])
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    var folder: ScratchFolder!
    var voicePath = ""
    override func setUpWithError() throws {
        folder = try ScratchFolder()
        voicePath = try oggVoiceFile(in: folder)
    }
    override func tearDownWithError() throws { folder = nil }

    /// 67 bytes of a real 1×1 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!

    /// An HLS playlist whose one segment `server` trickles a byte every two
    /// seconds (it once stalled the analysis; now nothing fetches it).
    static func stallingPlaylist(_ server: BrokenServer) -> Data {
        Data("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-VERSION:3\n#EXTINF:10.0,\n\(server.url)/segment.ts\n#EXT-X-ENDLIST\n".utf8)
    }

    static let trickle = BrokenServer.Route(headers: ["Content-Type": "video/mp2t"], body: Data([0x47]), repeats: 1_000_000,
                                            chunk: 1, pause: 2)

    /// Uploads `data` as `audio/ogg` and sends it as a voice message titled `title`.
    @MainActor
    static func sendAsVoice(_ data: Data, title: String, from client: MatrixClient, to roomID: String) throws {
        let uri = try awaitOnLoop { try await client.upload(data, contentType: "audio/ogg", fileName: "\(title).ogg") }
        let message = OutgoingVoiceMessage(title: title, fileName: "\(title).ogg", size: data.count,
                                           durationMilliseconds: 4000, levels: LevelTrack())
        try awaitOnLoop {
            try await client.sendVoiceMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                                              message: message, contentURI: uri)
        }
    }

    func testVoiceMessagesThatAreNoAudioFailForGoodWithTheirReasonAndHoldUpNothing() throws {
        let url = try XCTUnwrap(Self.server).url, base = folder.url, voicePath = voicePath
        let trickling = try BrokenServer(routes: ["/segment": Self.trickle])
        defer { trickling.stop() }
        try MainActor.assumeIsolated {
            let alice = try ConversationTests.hark(url, base)
            let mallory = try HomeserverTests.signedIn("mallory", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, mallory, name: "Hostile")

            // The real one first: it is fetched last, after all the others.
            let voice = try XCTUnwrap(FileManager.default.contents(atPath: voicePath))
            try Self.sendAsVoice(voice, title: "Real", from: mallory, to: roomID)
            try Self.sendAsVoice(Self.stallingPlaylist(trickling), title: "Playlist", from: mallory, to: roomID)
            try Self.sendAsVoice(Self.png, title: "Picture", from: mallory, to: roomID)
            try awaitOnLoop {
                try await mallory.sendMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                                              json: ["msgtype": "m.audio", "body": "Nowhere", "url": "mxc://localhost/"])
            }

            try awaitOnLoop { try await alice.syncOnce() }
            let received = try alice.store.shownIDs(in: .room(roomID)).map { try alice.store.message($0) }
            XCTAssertEqual(Set(received.map(\.title)), ["Real", "Playlist", "Picture", "Nowhere"])
            XCTAssertEqual(try awaitOnLoop(seconds: 120) { await alice.fetchWaitingDownloads() }, 1, "only the real one")

            let store = alice.store
            func message(_ title: String) throws -> Message {
                try XCTUnwrap(received.first { $0.title == title }.map { try store.message($0.id) })
            }
            XCTAssertEqual(try message("Real").state, .ready)
            for title in ["Playlist", "Picture", "Nowhere"] {
                let failed = try message(title)
                XCTAssertTrue(failed.downloadFailed, title)
                XCTAssertFalse(failed.isAwaitingDownload, "\(title) no longer says it is downloading")
            }
            let playlist = try message("Playlist").downloadFailure ?? ""
            XCTAssertTrue(playlist.hasPrefix("it is not audio ("), playlist)
            XCTAssertEqual(trickling.requests(to: "/segment"), 0, "the playlist's address was never fetched")
            let picture = try message("Picture").downloadFailure ?? ""
            XCTAssertTrue(picture.hasPrefix("it is not audio ("), picture)
            let nowhere = try message("Nowhere").downloadFailure ?? ""
            XCTAssertEqual(nowhere, "its address “mxc://localhost/” is no mxc:// address of a file")
            XCTAssertEqual(try alice.store.matrix.messagesAwaitingDownload(), [], "none is tried again at the next sync")

            // Delete works on a failed one.
            try alice.store.delete(try message("Picture").id)
            XCTAssertFalse(try alice.store.shownIDs(in: .room(roomID)).contains(try message("Picture").id))
        }
    }
}
