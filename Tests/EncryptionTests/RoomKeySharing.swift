import Encryption
import Foundation
import XCTest

/// Alice's device sends into a room; Bob's device gets the room key over
/// Olm, from one of its one-time keys Alice claimed, as two clients do.
@MainActor
struct RoomKeySharing {
    static let room = "!voice:localhost"
    let alice: TestDevice
    let bob: TestDevice
    let aliceKeys: IdentityKeys
    let bobKeys: IdentityKeys
    /// Alice's first event in the room, as sent.
    let first: MegolmEncrypted

    /// Both devices, Alice's first event encrypted, its room key not yet sent.
    init() async throws {
        alice = try TestDevice()
        bob = try TestDevice()
        aliceKeys = try await alice.engine.identityKeys()
        bobKeys = try await bob.engine.identityKeys()
        first = try await alice.engine.encryptRoomEvent(roomID: Self.room, type: "m.room.message",
                                                         content: json(["msgtype": "m.text", "body": "first words"]))
    }

    /// Bob's published one-time key, claimed by Alice: the room key goes to
    /// Bob in an Olm pre-key message; Bob decrypts it and imports the key.
    func sendRoomKey() async throws -> Decrypted {
        let published = try await bob.engine.generateOneTimeKeys(count: 3, fallback: true)
        try await bob.engine.markKeysPublished()
        let claimed = try XCTUnwrap(published.oneTimeKeys.values.sorted().first)
        let sent = try await alice.engine.encryptToDevice(roomKeyPayload(first), for: bobKeys.curve25519,
                                                          claimedOneTimeKey: claimed)
        XCTAssertEqual(sent.algorithm, "m.olm.v1.curve25519-aes-sha2")
        let message = try XCTUnwrap(sent.ciphertext[bobKeys.curve25519])
        XCTAssertEqual(message.type, 0, "a new session's first message is a pre-key message")
        let received = try await bob.engine.decryptToDevice(message, from: sent.senderKey)
        let imported = try await bob.engine.importRoomKey(received)
        XCTAssertEqual(imported.roomID, Self.room)
        XCTAssertEqual(imported.sessionID, first.sessionID)
        XCTAssertTrue(imported.imported)
        XCTAssertEqual(imported.firstKnownIndex, 0)
        return received
    }

    /// The to-device payload of an `m.room_key` for Bob's device.
    func roomKeyPayload(_ sent: MegolmEncrypted) -> Data {
        json(["type": "m.room_key", "sender": "@alice:localhost", "recipient": "@bob:localhost",
              "recipient_keys": ["ed25519": bobKeys.ed25519], "keys": ["ed25519": aliceKeys.ed25519],
              "content": ["algorithm": "m.megolm.v1.aes-sha2", "room_id": Self.room,
                          "session_id": sent.sessionID, "session_key": sent.sessionKey]])
    }

    /// Bob reads an event of Alice's: its content's body.
    func bobReads(_ sent: MegolmEncrypted, eventID: String) async throws -> String? {
        let decrypted = try await bob.engine.decryptRoomEvent(roomID: Self.room, sessionID: sent.sessionID,
                                                              ciphertext: sent.ciphertext, eventID: eventID)
        XCTAssertEqual(decrypted.senderKey, aliceKeys.curve25519)
        XCTAssertEqual(decrypted.signingKey, aliceKeys.ed25519)
        return (object(decrypted.plaintext)["content"] as? [String: Any])?["body"] as? String
    }
}
