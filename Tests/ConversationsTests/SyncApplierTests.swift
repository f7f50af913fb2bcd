@testable import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// A `/sync` answer (as Synapse writes one) applied to a real store.
final class SyncApplierTests: XCTestCase {
    static func response(_ json: String) throws -> SyncResponse {
        try JSONDecoder().decode(SyncResponse.self, from: Data(json.utf8))
    }

    static func audio(_ id: String, sender: String = "@bob:example.org", transaction: String? = nil) -> String {
        let unsigned = transaction.map { ", \"unsigned\": {\"transaction_id\": \"\($0)\"}" } ?? ""
        return """
            {"type": "m.room.message", "event_id": "\(id)", "sender": "\(sender)", "origin_server_ts": 1700000000000,
             "content": {"msgtype": "m.audio", "body": "Voice message", "url": "mxc://example.org/\(id.dropFirst())",
                         "info": {"mimetype": "audio/ogg", "duration": 1000}, "org.matrix.msc3245.voice": {}}\(unsigned)}
            """
    }

    func testRoomsInvitationsMessagesEchoesAndRedactions() throws {
        let folder = try ScratchFolder()
        try MainActor.assumeIsolated {
            let store = try MessageStore(folder: folder.url)
            try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: "@me:example.org", homeserver: "https://example.org",
                                                           deviceID: "D"))
            let applier = SyncApplier(store: store, userID: "@me:example.org")
            let first = try Self.response("""
                {"next_batch": "s1", "rooms": {
                  "join": {"!plans": {
                    "state": {"events": [
                      {"type": "m.room.name", "state_key": "", "sender": "@bob:example.org", "content": {"name": "Plans"}},
                      {"type": "m.room.member", "state_key": "@bob:example.org", "sender": "@bob:example.org",
                       "content": {"membership": "join", "displayname": "Bob"}}]},
                    "timeline": {"events": [\(Self.audio("$old"))], "limited": true, "prev_batch": "p0"}}},
                  "invite": {"!party": {"invite_state": {"events": [
                    {"type": "m.room.name", "state_key": "", "sender": "@ann:example.org", "content": {"name": "Party"}},
                    {"type": "m.room.member", "state_key": "@me:example.org", "sender": "@ann:example.org",
                     "content": {"membership": "invite"}}]}}}}}
                """)
            let initial = try applier.apply(first, since: nil)
            XCTAssertEqual(initial.received.map(\.eventID), ["$old"])
            XCTAssertFalse(initial.received[0].unread, "the first sync's messages are history, not news")
            XCTAssertEqual(try store.matrix.rooms().map(\.displayName), ["Party", "Plans"])
            XCTAssertEqual(try store.matrix.room("!party")?.inviter, "@ann:example.org")
            XCTAssertEqual(try store.matrix.room("!plans")?.previousBatch, "p0")
            XCTAssertEqual(store.matrix.memberName(roomID: "!plans", userID: "@bob:example.org"), "Bob")

            // Hark's own send, echoed before the PUT's answer came: confirmed, not received.
            let mine = try store.importFile(try HomeserverFixtures.silence(in: folder), title: "Mine")
            try store.matrix.enqueueSend(mine.id, roomID: "!plans", transactionID: "txn-mine")
            let second = try Self.response("""
                {"next_batch": "s2", "rooms": {"join": {"!plans": {"timeline": {"events": [
                  \(Self.audio("$new")), \(Self.audio("$echo", sender: "@me:example.org", transaction: "txn-mine")),
                  \(Self.audio("$new")),
                  {"type": "m.room.redaction", "event_id": "$r", "sender": "@bob:example.org", "redacts": "$old",
                   "content": {}}]}}},
                  "leave": {"!party": {}}}}
                """)
            let outcome = try applier.apply(second, since: "s1")
            XCTAssertEqual(outcome.received.map(\.eventID), ["$new"], "each event once; the echo is Hark's own")
            XCTAssertTrue(outcome.received[0].unread)
            XCTAssertEqual(outcome.confirmedSends, [mine.id])
            XCTAssertEqual(try store.matrix.outboxEntry("txn-mine")?.eventID, "$echo")
            XCTAssertEqual(outcome.removed, [initial.received[0].id])
            XCTAssertEqual(try store.matrix.rooms().map(\.id), ["!plans"], "the invitation was declined elsewhere")
        }
    }
}

extension SyncApplierTests {
    /// A limited batch of a room the store knew leaves a gap, from its
    /// `prev_batch` back to the token the sync started from; and an event of
    /// the user's own that carries a queued send's upload (from a device since
    /// signed out: no transaction id) is that send, not a received message.
    func testALimitedBatchLeavesAGapAndTheUsersOwnUploadIsItsSend() throws {
        let folder = try ScratchFolder()
        try MainActor.assumeIsolated {
            let store = try MessageStore(folder: folder.url)
            try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: "@me:example.org", homeserver: "https://example.org",
                                                           deviceID: "NEW"))
            let applier = SyncApplier(store: store, userID: "@me:example.org")
            _ = try applier.apply(try Self.response("""
                {"next_batch": "s1", "rooms": {"join": {"!plans": {"timeline": {"events": [], "limited": false}}}}}
                """), since: nil)
            XCTAssertEqual(try store.matrix.roomGaps(), [], "the room's first batch: nothing before it to fetch")

            let mine = try store.importFile(try HomeserverFixtures.silence(in: folder), title: "Mine")
            try store.matrix.enqueueSend(mine.id, roomID: "!plans", transactionID: "txn-old-device")
            try store.matrix.setUploaded("txn-old-device", contentURI: "mxc://example.org/mine")
            let outcome = try applier.apply(try Self.response("""
                {"next_batch": "s2", "rooms": {"join": {"!plans": {"timeline": {"events": [
                  \(Self.audio("$mine", sender: "@me:example.org"))], "limited": true, "prev_batch": "p1"}}}}}
                """), since: "s1")
            XCTAssertEqual(try store.matrix.roomGaps().map { [$0.roomID, $0.from, $0.to] }, [["!plans", "p1", "s1"]])
            XCTAssertEqual(outcome.received, [], "not a received copy of one's own")
            XCTAssertEqual(outcome.confirmedSends, [mine.id])
            XCTAssertEqual(try store.matrix.outboxEntry("txn-old-device")?.state, .sent)
            XCTAssertEqual(try store.matrix.outboxEntry("txn-old-device")?.eventID, "$mine")
        }
    }
}

/// Small real audio for the store.
enum HomeserverFixtures {
    static func silence(in folder: ScratchFolder) throws -> String {
        let path = folder.path("silence.wav")
        try WAVFile.write([.init(seconds: 0.5, amplitude: 0)], rate: 16_000, to: URL(fileURLWithPath: path))
        return path
    }
}
