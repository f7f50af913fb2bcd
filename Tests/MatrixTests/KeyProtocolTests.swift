import Foundation
@testable import Matrix
import MatrixCrypto
import Testing

/// The encryption module's requests and answers, without a server.
@Suite struct KeyProtocolTests {
    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    @Test func queriedDevicesKeepTheirSignedObjectAndDropMislabelledOnes() throws {
        let answer = try Self.decode(KeysQueryResponse.self, """
        {"device_keys": {"@bob:localhost": {
            "PHONE": {"user_id": "@bob:localhost", "device_id": "PHONE",
                      "algorithms": ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
                      "keys": {"curve25519:PHONE": "c1", "ed25519:PHONE": "e1"},
                      "signatures": {"@bob:localhost": {"ed25519:PHONE": "sig"}},
                      "unsigned": {"device_display_name": "Bob's phone"}, "extra": [1, 2]},
            "EVIL": {"user_id": "@bob:localhost", "device_id": "OTHER", "keys": {}},
            "ODD": 7}},
         "master_keys": {"@bob:localhost": {"user_id": "@bob:localhost", "usage": ["master"],
                                            "keys": {"ed25519:M1": "M1"}}},
         "self_signing_keys": {"@bob:localhost": {"user_id": "@eve:localhost", "usage": ["self_signing"],
                                                  "keys": {"ed25519:S1": "S1"}}},
         "failures": {"remote.example": {}}}
        """)
        let bob = try #require(answer.devices["@bob:localhost"])
        #expect(bob.keys.sorted() == ["PHONE"])
        let phone = try #require(bob["PHONE"])
        #expect(phone.curve25519 == "c1")
        #expect(phone.ed25519 == "e1")
        #expect(phone.displayName == "Bob's phone")
        #expect(phone.algorithms.contains(MegolmAlgorithm.name))
        #expect(phone.signed["extra"] == .array([.integer(1), .integer(2)]))
        #expect(answer.masterKeys["@bob:localhost"]?.publicKey == "M1")
        #expect(answer.masterKeys["@bob:localhost"]?.usage == ["master"])
        // A self-signing key claiming to be another user's is not Bob's.
        #expect(answer.selfSigningKeys.isEmpty)
        #expect(answer.failures == ["remote.example"])
    }

    @Test func claimedKeysAndCounts() throws {
        let claim = try Self.decode(KeysClaimResponse.self, """
        {"one_time_keys": {"@bob:localhost": {"PHONE": {"signed_curve25519:AAAB": {"key": "k1",
            "signatures": {"@bob:localhost": {"ed25519:PHONE": "s"}}}}, "EMPTY": {}}}, "failures": {}}
        """)
        let key = try #require(claim.oneTimeKeys["@bob:localhost"]?["PHONE"])
        #expect(key.keyID == "signed_curve25519:AAAB")
        #expect(key.key == "k1")
        #expect(claim.oneTimeKeys["@bob:localhost"]?["EMPTY"] == nil)
        let upload = try Self.decode(KeysUploadResponse.self, #"{"one_time_key_counts": {"signed_curve25519": 25}}"#)
        #expect(upload.oneTimeKeyCounts == ["signed_curve25519": 25])
    }

    @Test func aSyncCarriesToDeviceMessagesDeviceListsAndKeyCounts() throws {
        let sync = try Self.decode(SyncResponse.self, """
        {"next_batch": "s2",
         "to_device": {"events": [
            {"type": "m.room.encrypted", "sender": "@bob:localhost",
             "content": {"algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": "bobkey",
                         "ciphertext": {"alicekey": {"type": 0, "body": "AwogX"}, "bad": {"type": "x"}}}},
            {"type": "m.room_key.withheld", "sender": "@bob:localhost", "content": {"code": "m.unverified"}},
            {"no": "type"}]},
         "device_lists": {"changed": ["@bob:localhost"], "left": ["@carol:localhost"]},
         "device_one_time_keys_count": {"signed_curve25519": 3},
         "device_unused_fallback_key_types": []}
        """)
        #expect(sync.encryption.toDevice.count == 2)
        #expect(sync.encryption.changedDeviceLists == ["@bob:localhost"])
        #expect(sync.encryption.leftDeviceLists == ["@carol:localhost"])
        #expect(sync.encryption.oneTimeKeyCounts == ["signed_curve25519": 3])
        #expect(sync.encryption.unusedFallbackKeyTypes == [])
        let olm = EncryptedContent(sync.encryption.toDevice[0].content)
        #expect(olm == .olm(senderKey: "bobkey", ciphertexts: ["alicekey": .init(type: 0, body: "AwogX")]))
        // A server that says nothing of keys leaves them alone (nil, not zero).
        let quiet = try Self.decode(SyncResponse.self, #"{"next_batch": "s3"}"#)
        #expect(quiet.encryption.oneTimeKeyCounts == nil)
        #expect(quiet.encryption.unusedFallbackKeyTypes == nil)
        #expect(quiet.encryption.isEmpty)
    }

    @Test func anEncryptedRoomEventIsReadAfterDecryptionOnlyForItsOwnRoom() throws {
        let event = try Self.decode(RoomEvent.self, """
        {"type": "m.room.encrypted", "sender": "@bob:localhost", "event_id": "$e1", "origin_server_ts": 5,
         "content": {"algorithm": "m.megolm.v1.aes-sha2", "session_id": "S", "ciphertext": "C",
                     "sender_key": "K", "device_id": "PHONE"}}
        """)
        #expect(event.content == .encrypted(.megolm(sessionID: "S", ciphertext: "C", senderKey: "K", deviceID: "PHONE")))
        let payload: JSONValue = ["type": "m.room.message", "room_id": "!r:localhost",
                                  "content": ["msgtype": "m.audio", "body": "Voice message", "url": "mxc://localhost/v"]]
        let plain = try #require(event.decrypted(payload, roomID: "!r:localhost"))
        #expect(plain.eventID == "$e1")
        #expect(plain.sender == "@bob:localhost")
        #expect(plain.originServerTimestamp == 5)
        #expect(plain.wasEncrypted)
        guard case .message(let content) = plain.content else { Issue.record("not a message"); return }
        #expect(content.isAudio)
        // The same ciphertext shown in another room is refused.
        #expect(event.decrypted(payload, roomID: "!other:localhost") == nil)
        // A plaintext that claims to be encrypted again is not decrypted twice.
        let nested: JSONValue = ["type": "m.room.encrypted", "room_id": "!r:localhost",
                                 "content": ["algorithm": "m.megolm.v1.aes-sha2", "session_id": "S", "ciphertext": "C"]]
        #expect(event.decrypted(nested, roomID: "!r:localhost")?.content == .other)
        #expect(EncryptedContent(["algorithm": "m.megolm.v1.aes-sha2"]) == .unknown(algorithm: "m.megolm.v1.aes-sha2"))
    }

    @Test func directChatsAreMadeAsElementMakesThem() throws {
        let request = Endpoints.createDirectChat(with: "@bob:localhost", encrypted: true)
        let body = try JSONDecoder().decode(JSONValue.self, from: try #require(request.body))
        #expect(body["preset"] == "trusted_private_chat")
        #expect(body["is_direct"] == true)
        #expect(body["invite"] == ["@bob:localhost"])
        #expect(body["initial_state"]?.arrayValue?.first?["type"] == "m.room.encryption")
        #expect(body["initial_state"]?.arrayValue?.first?["content"]?["algorithm"] == .string(MegolmAlgorithm.name))
        let plain = try JSONDecoder().decode(JSONValue.self, from: try #require(
            Endpoints.createDirectChat(with: "@bob:localhost", encrypted: false).body))
        #expect(plain["initial_state"] == nil)
        #expect(Endpoints.sendToDevice(type: "m.room.encrypted", transactionID: "t/1", messages: [:]).path
                == "/_matrix/client/v3/sendToDevice/m.room.encrypted/t%2F1")
        #expect(SyncFilter.timelineTypes.contains("m.room.encrypted"))
    }
}
