import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// Hark in an encrypted room with an independent client (matrix-nio with
/// vodozemac) as the other person, on a real Synapse: a voice message each
/// way, the audio byte for byte, never a plaintext event or file on the server.
final class EncryptedRoomTests: XCTestCase {
    func testVoiceMessagesBothWaysInAnEncryptedRoom() throws {
        try EncryptedRoomFixture.run { fixture in
            let alice = fixture.alice, bob = fixture.bob, room = fixture.room
            // Bob to Alice: decrypted, downloaded, decrypted again, the same bytes.
            _ = try await fixture.bobSendsVoice()
            try await EncryptedRoomFixture.sync(alice) { !(try fixture.shownInRoom()).isEmpty }
            let receivedID = try XCTUnwrap(try fixture.shownInRoom().first)
            let fetched = await alice.fetchWaitingDownloads()
            XCTAssertEqual(fetched, 1)
            let received = try alice.store.message(receivedID)
            XCTAssertEqual(received.sender, "@bob:localhost")
            XCTAssertEqual(FileManager.default.contents(atPath: alice.store.audioPath(of: received)), fixture.original,
                           "the audio Bob sent, decrypted")

            // Alice to Bob: encrypted for Bob's device, read by nio.
            let message = try alice.store.importFile(fixture.voicePath, title: "Dentist on Monday")
            let entry = try alice.send(message.id, to: room)
            let unsent = await alice.sendQueuedNow()
            XCTAssertEqual(unsent, [])
            let sent = try XCTUnwrap(try alice.store.matrix.outboxEntry(entry.transactionID))
            XCTAssertEqual(sent.state, .sent, sent.lastError ?? "")
            let found = try await bob.call("sync_until", ["room_id": room, "msgtype": "m.audio", "seconds": 60,
                                                          "sender": "@alice:localhost"])
            let event = try XCTUnwrap(found["event"] as? [String: Any])
            XCTAssertEqual(event["decrypted"] as? Bool, true, "it went through the server encrypted")
            XCTAssertEqual(event["event_id"] as? String, sent.eventID)
            let content = try XCTUnwrap(event["content"] as? [String: Any])
            XCTAssertEqual(content["body"] as? String, "Dentist on Monday")
            XCTAssertNotNil(content["org.matrix.msc3245.voice"])
            XCTAssertNil(content["url"], "the audio goes as an encrypted file")
            let downloaded = try await bob.call("download", ["event_id": try XCTUnwrap(sent.eventID)])
            XCTAssertEqual((downloaded["base64"] as? String).flatMap { Data(base64Encoded: $0) }, fixture.original)

            // What the server holds is ciphertext: the event and the file.
            let raw = try await alice.client.eventJSON(roomID: room, eventID: try XCTUnwrap(sent.eventID))
            let text = String(decoding: raw, as: UTF8.self)
            XCTAssertTrue(text.contains("m.room.encrypted"))
            XCTAssertFalse(text.contains("Dentist"), "no plaintext on the server")

            // Alice's own echo is her sent message, not a second one.
            try await alice.syncOnce()
            XCTAssertEqual(try fixture.shownInRoom().sorted(), [receivedID, message.id].sorted())
        }
    }
}
