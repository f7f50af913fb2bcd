@testable import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import XCTest

/// Hark against a broken or malicious homeserver (the tests' own server on
/// 127.0.0.1, see BrokenServer): a slow line is not cut while bytes move, an
/// answer past its limit is stopped there, a download that fails for good is
/// remembered with its reason and not fetched again.
final class HostileServerTests: XCTestCase {
    static let mediaPath = "/_matrix/client/v1/media/download/"

    var folder: ScratchFolder!
    override func setUpWithError() throws { folder = try ScratchFolder() }
    override func tearDownWithError() throws { folder = nil }

    /// A client of `server` with a made-up session (the server asks for no token).
    @MainActor
    static func client(_ server: BrokenServer, deadlineSeconds: Int = 30) -> MatrixClient {
        MatrixClient(homeserver: server.url,
                     session: Session(homeserver: server.url, userID: "@alice:hostile", deviceID: "HARK", accessToken: "token"),
                     http: HTTPSession(deadlineSeconds: deadlineSeconds))
    }

    /// A store with one received message whose audio is at `mxc://hostile/<media>`.
    @MainActor
    static func storeWithMessage(in base: URL, media: String, announcedSize: Int?) throws -> (MessageStore, Message) {
        let store = try MessageStore(folder: base.appendingPathComponent("store"))
        let incoming = IncomingAudio(eventID: "$\(media)", roomID: "!room:hostile", sender: "@mallory:hostile", title: "Listen",
                                     sentAt: Date(), duration: 4, fileExtension: "ogg", mediaURL: "mxc://hostile/\(media)",
                                     levels: nil, unread: true, announcedSize: announcedSize)
        return (store, try XCTUnwrap(try store.matrix.receive(incoming)))
    }

    /// What the store's messages folder holds besides the database's own files.
    static func leftovers(_ store: MessageStore) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.messagesFolder.path)
    }

    // MARK: A deadline without progress (a slow line)

    func testADownloadSlowerThanTheDeadlineArrivesWholeWhileBytesMove() throws {
        // 25 KB in 1 KB pieces a tenth of a second apart: 2.5 s in all, against a 1 s deadline.
        let pattern = Data((0..<256).map { UInt8($0) })
        let server = try BrokenServer(routes: [Self.mediaPath: .init(body: pattern, repeats: 100, chunk: 1024, pause: 0.1)])
        defer { server.stop() }
        let path = folder.path("download")
        try MainActor.assumeIsolated {
            let client = Self.client(server, deadlineSeconds: 1)
            try awaitOnLoop { try await client.download(contentURI: "mxc://hostile/slow", to: path, limit: 1024 * 1024) }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(Array(repeating: pattern, count: 100).joined()))
    }

    func testAnUploadSlowerThanTheDeadlineGoesThroughWhileBytesMove() throws {
        // The server takes 16 KB every fifth of a second: 512 KB take 6 s, against a 1 s deadline.
        let server = try BrokenServer(routes: ["/_matrix/media/v3/upload": .init(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"content_uri": "mxc://hostile/up"}"#.utf8),
            chunk: 16 * 1024, pause: 0.2, readSlowly: true)], smallReceiveBuffer: true)
        defer { server.stop() }
        let uri = try MainActor.assumeIsolated {
            let client = Self.client(server, deadlineSeconds: 1)
            return try awaitOnLoop { try await client.upload(Data(repeating: 7, count: 512 * 1024), contentType: "audio/ogg",
                                                             fileName: "voice.ogg") }
        }
        XCTAssertEqual(uri, "mxc://hostile/up")
    }

    func testATransferThatStopsMovingFailsAfterTheDeadlineWithASentence() throws {
        let server = try BrokenServer(routes: [Self.mediaPath: .init(body: Data(repeating: 1, count: 4096), stallAfter: 1000)])
        defer { server.stop() }
        let path = folder.path("download")
        let error = try MainActor.assumeIsolated {
            let client = Self.client(server, deadlineSeconds: 1)
            return try runFailing(MatrixError.self) {
                try await client.download(contentURI: "mxc://hostile/stalls", to: path, limit: 1024 * 1024)
            }
        }
        guard case .unreachable(_, let reason)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(reason, HTTPFailure.timedOut(seconds: 1).description)
    }

    // MARK: Limits

    func testASyncAnswerPastTheCapIsStoppedThereWithASentence() throws {
        // 80 MB of spaces: valid JSON whitespace, never a whole answer.
        let server = try BrokenServer(routes: ["/_matrix/client/v3/sync": .init(
            headers: ["Content-Type": "application/json"], body: Data(repeating: 0x20, count: 1024 * 1024), repeats: 80,
            declaredLength: -1)])
        defer { server.stop() }
        let error = try MainActor.assumeIsolated {
            let client = Self.client(server)
            return try runFailing(MatrixError.self) { _ = try await client.sync(since: nil) }
        }
        XCTAssertEqual(error, .tooLarge(homeserver: "127.0.0.1:\(URLComponents(string: server.url)!.port!)",
                                        limit: HTTPSession.answerLimit))
        XCTAssertTrue(error?.description.contains("64 MB") == true, error?.description ?? "")
        let sent = try XCTUnwrap(server.waitForSent(to: "/_matrix/client/v3/sync").first)
        XCTAssertLessThan(sent, 80 * 1024 * 1024, "the rest was never read")
    }

    /// Its length says it is too large: nothing of it is read.
    func testADownloadLargerThanAnnouncedStopsThereAndIsNotFetchedAgain() throws {
        let server = try BrokenServer(routes: [Self.mediaPath: .init(
            headers: ["Content-Type": "audio/ogg"], body: Data(repeating: 0x4f, count: 1024 * 1024), repeats: 64)])
        defer { server.stop() }
        let base = folder.url
        try MainActor.assumeIsolated {
            let (store, message) = try Self.storeWithMessage(in: base, media: "big", announcedSize: 1000)
            var failures: [String] = []
            let session = ConversationSession(client: Self.client(server), store: store)
            session.onDownloadFailure = { _, reason in failures.append(reason) }
            XCTAssertEqual(try awaitOnLoop { await session.fetchWaitingDownloads() }, 0)

            let failed = try store.message(message.id)
            XCTAssertTrue(failed.downloadFailed)
            XCTAssertEqual(failed.downloadFailure, "it is larger than the 1000 bytes its message announced")
            XCTAssertEqual(failures.count, 1)
            XCTAssertEqual(try Self.leftovers(store), [], "nothing of it stays on disk")
            let sent = try XCTUnwrap(server.waitForSent(to: Self.mediaPath).first)
            XCTAssertLessThan(sent, 64 * 1024 * 1024, "the rest was never read")

            // The next run (a new session over the same store) does not ask again.
            let next = ConversationSession(client: Self.client(server), store: store)
            XCTAssertEqual(try awaitOnLoop { await next.fetchWaitingDownloads() }, 0)
            XCTAssertEqual(server.requests(to: Self.mediaPath), 1)
        }
    }

    /// Sent without a length (chunked), it is stopped as it passes the limit.
    func testADownloadPastTheHardLimitStopsThereWhateverItsMessageAnnounced() throws {
        let server = try BrokenServer(routes: [Self.mediaPath: .init(
            headers: ["Content-Type": "audio/ogg"], body: Data(repeating: 0x4f, count: 1024 * 1024), repeats: 300,
            declaredLength: -1)])
        defer { server.stop() }
        let base = folder.url
        try MainActor.assumeIsolated {
            let (store, message) = try Self.storeWithMessage(in: base, media: "huge", announcedSize: nil)
            let session = ConversationSession(client: Self.client(server), store: store)
            XCTAssertEqual(try awaitOnLoop(seconds: 120) { await session.fetchWaitingDownloads() }, 0)
            XCTAssertEqual(try store.message(message.id).downloadFailure, "it is larger than 100 MB, the most Hark downloads")
            XCTAssertEqual(try Self.leftovers(store), [])
            let sent = try XCTUnwrap(server.waitForSent(to: Self.mediaPath).first)
            XCTAssertLessThan(sent, 200 * 1024 * 1024, "the rest was never read")
        }
    }

    // MARK: Failures for good, and for a while

    func testAMissingFileIsAFailureForGoodAndAServerErrorIsTriedAgainLater() throws {
        let server = try BrokenServer(routes: [
            Self.mediaPath + "hostile/gone": .json(#"{"errcode": "M_NOT_FOUND", "error": "Not found"}"#, status: 404),
            Self.mediaPath + "hostile/busy": .json(#"{"errcode": "M_UNKNOWN", "error": "Try later"}"#, status: 503),
        ])
        defer { server.stop() }
        let base = folder.url
        try MainActor.assumeIsolated {
            let store = try MessageStore(folder: base.appendingPathComponent("store"))
            func receive(_ media: String) throws -> Message {
                try XCTUnwrap(try store.matrix.receive(IncomingAudio(
                    eventID: "$\(media)", roomID: "!room:hostile", sender: "@mallory:hostile", title: media, sentAt: Date(),
                    duration: 4, fileExtension: "ogg", mediaURL: "mxc://hostile/\(media)", levels: nil, unread: true)))
            }
            let gone = try receive("gone"), busy = try receive("busy")
            var now = Date()
            let session = ConversationSession(client: Self.client(server), store: store, clock: { now })
            XCTAssertEqual(try awaitOnLoop { await session.fetchWaitingDownloads() }, 0)
            XCTAssertEqual(try store.message(gone.id).downloadFailure,
                           MatrixError.server(status: 404, code: "M_NOT_FOUND", message: "Not found").description)
            XCTAssertNil(try store.message(busy.id).downloadFailure, "a server's trouble is no failure for good")
            XCTAssertTrue(try store.message(busy.id).isAwaitingDownload)

            XCTAssertEqual(try awaitOnLoop { await session.fetchWaitingDownloads() }, 0)
            XCTAssertEqual(server.requests(to: Self.mediaPath + "hostile/busy"), 1, "not at once again")
            now += 31
            XCTAssertEqual(try awaitOnLoop { await session.fetchWaitingDownloads() }, 0)
            XCTAssertEqual(server.requests(to: Self.mediaPath + "hostile/busy"), 2, "again after its wait")
            XCTAssertEqual(server.requests(to: Self.mediaPath + "hostile/gone"), 1, "never again")
        }
    }
}
