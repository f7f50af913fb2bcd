@testable import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// A server that answers every send 429 (`M_LIMIT_EXCEEDED`): however long
/// it asks to wait, a send is tried again within five minutes; asked to wait
/// 0 (or nothing), it backs off as after any failure rather than hammering;
/// and the tries count, so after a day the message is "Not sent" with Retry.
/// The server is a broken one of the test's own: Synapse cannot be made to say this.
final class RateLimitTests: XCTestCase {
    static let rooms = (huge: "!huge:broken.example", none: "!none:broken.example")

    func testARateLimitedSendWaitsAtMostFiveMinutesBacksOffAndIsNotSentAfterADay() throws {
        let folder = try ScratchFolder()
        let voicePath = try oggVoiceFile(in: folder)
        let limited = { (wait: String) in
            #"{"errcode": "M_LIMIT_EXCEEDED", "error": "Too many requests"\#(wait)}"#
        }
        let server = try BrokenServer(routes: [
            "~GET /_matrix/client/v3/rooms/[^/]+/state/m\\.room\\.encryption/.*": .json(#"{"errcode": "M_NOT_FOUND", "error": "Event not found."}"#, status: 404),
            "~POST /_matrix/media/v3/upload.*": .json(#"{"content_uri": "mxc://broken.example/voice"}"#),
            // 115 days, as a server once asked.
            "~PUT /_matrix/client/v3/rooms/%21huge[^/]*/send/.*": .json(limited(#", "retry_after_ms": 10000000000"#), status: 429),
            "~PUT /_matrix/client/v3/rooms/%21none[^/]*/send/.*": .json(limited(#", "retry_after_ms": 0"#), status: 429),
        ])
        defer { server.stop() }
        let url = server.url
        try MainActor.assumeIsolated {
            let clock = TestClock()
            let (client, store) = try signedInAtBrokenServer(url, storeIn: folder)
            try store.matrix.setDeviceSynced()  // a device that synced before (this server cannot)
            for room in [Self.rooms.huge, Self.rooms.none] {
                try store.matrix.updateRoom(RoomUpdate(id: room, membership: .join, name: room))
            }
            let alice = ConversationSession(client: client, store: store, clock: { clock.now })
            let huge = try alice.send(try store.importFile(voicePath, title: "Asked to wait months").id,
                                      to: Self.rooms.huge)
            let none = try alice.send(try store.importFile(voicePath, title: "Asked to wait 0").id,
                                      to: Self.rooms.none)
            let current = { (entry: OutboxEntry) in try XCTUnwrap(try store.matrix.outboxEntry(entry.transactionID)) }

            XCTAssertEqual(try awaitOnLoop { await alice.sendQueuedNow() }.count, 2, "both still queued")
            XCTAssertEqual(server.requests.filter { $0.hasPrefix("PUT ") }.count, 2, server.requests.joined(separator: "\n"))
            let parked = try current(huge)
            XCTAssertEqual(parked.state, .queued)
            XCTAssertLessThanOrEqual(parked.nextAttemptAt.timeIntervalSince(clock.now), 5 * 60 + 0.001,
                                     "not parked for months")
            XCTAssertEqual(parked.lastError, MatrixError.rateLimited(retryAfterMilliseconds: 300_000).description,
                           "the wait Hark keeps")
            let waitedZero = try current(none)
            XCTAssertGreaterThanOrEqual(waitedZero.nextAttemptAt.timeIntervalSince(clock.now), RetryPolicy().firstDelay - 0.001,
                                        "not sent again at once")

            // A second try, later: a longer backoff for the one asked to wait 0.
            clock.now += 5 * 60
            _ = try awaitOnLoop { await alice.sendQueuedNow() }
            XCTAssertEqual(try current(none).attempts, 2)
            XCTAssertGreaterThan(try current(none).nextAttemptAt.timeIntervalSince(clock.now),
                                 waitedZero.nextAttemptAt.timeIntervalSince(waitedZero.queuedAt) - 0.001)

            // A day of being refused: "Not sent", with Retry, as any failure.
            clock.now += 24 * 3600
            XCTAssertEqual(try awaitOnLoop { await alice.sendQueuedNow() }, [])
            for entry in [huge, none] {
                XCTAssertEqual(try current(entry).state, .failed)
                XCTAssertTrue(try current(entry).expired)
                XCTAssertEqual(try store.matrix.sendState(of: entry.messageID), .failed)
                try alice.retry(entry.messageID)
                XCTAssertEqual(try current(entry).state, .queued, "Retry queues it again")
            }
        }
    }
}
