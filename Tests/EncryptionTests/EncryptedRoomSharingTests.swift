import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MatrixCrypto
import MessageStore
import StoreAudio
import XCTest

/// Who gets the room key of Hark's messages: a new device of a member gets
/// the session in use, and a member who left is cut off by a new session.
final class EncryptedRoomSharingTests: XCTestCase {
    /// Alice sends a voice message into the fixture's room; its event's `session_id` as the server holds it.
    @MainActor
    static func aliceSends(_ fixture: EncryptedRoomFixture, title: String) async throws -> (eventID: String, sessionID: String) {
        let message = try fixture.alice.store.importFile(fixture.voicePath, title: title)
        let entry = try fixture.alice.send(message.id, to: fixture.room)
        let unsent = await fixture.alice.sendQueuedNow()
        XCTAssertEqual(unsent, [])
        let eventID = try XCTUnwrap(try fixture.alice.store.matrix.outboxEntry(entry.transactionID)?.eventID)
        let raw = try JSONValue(parsing: try await fixture.alice.client.eventJSON(roomID: fixture.room, eventID: eventID))
        return (eventID, try XCTUnwrap(raw["content"]?["session_id"]?.stringValue))
    }

    func testANewDeviceOfAMemberGetsTheSessionInUse() throws {
        try EncryptedRoomFixture.run { fixture in
            let first = try await Self.aliceSends(fixture, title: "Before the phone")
            try await fixture.bob.call("sync_until", ["room_id": fixture.room, "body": "Before the phone", "seconds": 60])
            let phone = try NioPeer(homeserver: fixture.server.url, user: "bob", password: SharedHomeserver.password,
                                    store: fixture.device.scratch.path("bob-phone"))
            defer { phone.stop() }
            try await phone.call("sync")
            try await phone.call("cross_sign", ["identity_from": fixture.device.scratch.path("bob")])
            // Alice's sync hears of Bob's new device.
            try await fixture.alice.syncOnce(timeoutMilliseconds: 1000)
            let second = try await Self.aliceSends(fixture, title: "After the phone")
            XCTAssertEqual(second.sessionID, first.sessionID, "the same session, shared with the new device")
            let found = try await phone.call("sync_until", ["room_id": fixture.room, "body": "After the phone", "seconds": 60])
            XCTAssertEqual((found["event"] as? [String: Any])?["decrypted"] as? Bool, true)
        }
    }

    /// A device its owner has not cross-signed gets no room key (it is told
    /// why), while the owner's cross-signed one reads the message.
    func testADeviceItsOwnerHasNotCrossSignedGetsNoKey() throws {
        try EncryptedRoomFixture.run { fixture in
            let tablet = try NioPeer(homeserver: fixture.server.url, user: "bob", password: SharedHomeserver.password,
                                     store: fixture.device.scratch.path("bob-tablet"))
            defer { tablet.stop() }
            try await tablet.call("sync")
            try await fixture.alice.syncOnce(timeoutMilliseconds: 1000)
            _ = try await Self.aliceSends(fixture, title: "Not for the tablet")
            let bobReads = try await fixture.bob.call("sync_until", ["room_id": fixture.room, "body": "Not for the tablet",
                                                                     "seconds": 60])
            XCTAssertEqual((bobReads["event"] as? [String: Any])?["decrypted"] as? Bool, true)
            try await tablet.call("sync")
            let seen = try await tablet.call("events", ["room_id": fixture.room])
            let events = try XCTUnwrap(seen["events"] as? [[String: Any]])
            let fromAlice = events.filter { $0["sender"] as? String == "@alice:localhost" }
            XCTAssertFalse(fromAlice.isEmpty, "the tablet sees the event")
            XCTAssertTrue(fromAlice.allSatisfy { $0["decrypted"] as? Bool == false }, "but cannot read it")
        }
    }

    func testAMemberWhoLeftIsCutOffByANewSession() throws {
        try EncryptedRoomFixture.run(users: ["alice", "bob", "carol"]) { fixture in
            let carol = try NioPeer(homeserver: fixture.server.url, user: "carol", password: SharedHomeserver.password,
                                    store: fixture.device.scratch.path("carol"))
            defer { carol.stop() }
            try await carol.call("sync")
            try await carol.call("cross_sign")
            try await fixture.bob.call("invite", ["room_id": fixture.room, "user_id": "@carol:localhost"])
            try await carol.call("sync_until", ["invited": true, "room_id": fixture.room, "seconds": 60])
            try await carol.call("join", ["room_id": fixture.room])
            let first = try await Self.aliceSends(fixture, title: "For both")
            let read = try await carol.call("sync_until", ["room_id": fixture.room, "body": "For both", "seconds": 60])
            XCTAssertEqual((read["event"] as? [String: Any])?["decrypted"] as? Bool, true, "Carol, a member, reads it")

            try await carol.call("leave", ["room_id": fixture.room])
            try await fixture.alice.syncOnce(timeoutMilliseconds: 1000)
            let second = try await Self.aliceSends(fixture, title: "After Carol left")
            XCTAssertNotEqual(second.sessionID, first.sessionID, "a new session Carol never got")
            let bobReads = try await fixture.bob.call("sync_until", ["room_id": fixture.room, "body": "After Carol left",
                                                                     "seconds": 60])
            XCTAssertEqual((bobReads["event"] as? [String: Any])?["decrypted"] as? Bool, true, "Bob still reads")
        }
    }
}
