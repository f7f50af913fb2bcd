import Foundation
import HarkTestSupport
@testable import Matrix
import MatrixCrypto
import XCTest

/// The encryption module's transport against a real Synapse: keys uploaded
/// by one device are what another user's query and claim return, a
/// to-device message arrives in the recipient's `/sync`, and device-list
/// changes and key counts are reported there.
final class KeyServerTests: SharedServerTestCase {

    /// A Curve25519-shaped key: 32 random bytes as unpadded base64 (Synapse
    /// stores identity keys as given; only their signatures can be checked).
    static func keyLike() -> String {
        MatrixBase64.encode(Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
    }

    /// A device's keys, signed by its own Ed25519 key as a client signs them.
    @MainActor
    static func deviceKeys(_ session: Session, signingKey: Ed25519SigningKey? = nil) throws -> JSONValue {
        let key = try signingKey ?? Ed25519SigningKey.generate()
        let keys: [String: JSONValue] = [
            "user_id": .string(session.userID), "device_id": .string(session.deviceID),
            "algorithms": [.string(OlmAlgorithm.name), .string(MegolmAlgorithm.name)],
            "keys": .object(["curve25519:\(session.deviceID)": .string(keyLike()),
                             "ed25519:\(session.deviceID)": .string(MatrixBase64.encode(key.publicKey))]),
        ]
        return .object(try JSONSigning.sign(keys, entity: session.userID, keyID: "ed25519:\(session.deviceID)", with: key))
    }

    func testUploadedKeysAreQueriedAndClaimedAndAToDeviceMessageArrives() throws {
        let homeserver = try homeserver
        try MainActor.assumeIsolated {
            let alice = MatrixClient(homeserver: homeserver), bob = MatrixClient(homeserver: homeserver)
            let aliceSession = try awaitOnLoop { try await alice.login(user: "alice", password: SharedHomeserver.password) }
            try awaitOnLoop { try await bob.login(user: "bob", password: SharedHomeserver.password) }
            let signingKey = try Ed25519SigningKey.generate()
            let published = try Self.deviceKeys(aliceSession, signingKey: signingKey)
            let oneTimeKeys = Dictionary(uniqueKeysWithValues: (1...3).map { index in
                ("signed_curve25519:K\(index)", JSONValue.object(try! JSONSigning.sign(
                    ["key": .string(Self.keyLike())], entity: aliceSession.userID,
                    keyID: "ed25519:\(aliceSession.deviceID)", with: signingKey)))
            })
            let uploaded = try awaitOnLoop { try await alice.uploadKeys(deviceKeys: published, oneTimeKeys: oneTimeKeys) }
            XCTAssertEqual(uploaded.oneTimeKeyCounts["signed_curve25519"], 3)

            let query = try awaitOnLoop { try await bob.queryKeys(users: [aliceSession.userID]) }
            let device = try XCTUnwrap(query.devices[aliceSession.userID]?[aliceSession.deviceID])
            XCTAssertEqual(device.curve25519, published["keys"]?["curve25519:\(aliceSession.deviceID)"]?.stringValue)
            XCTAssertEqual(device.signed["keys"], published["keys"])
            XCTAssertTrue(JSONSigning.verify(device.signed, entity: aliceSession.userID, keyID: "ed25519:\(aliceSession.deviceID)",
                                             publicKey: signingKey.publicKey), "the device's own signature survives the server")

            let claim = try awaitOnLoop { try await bob.claimKeys([aliceSession.userID: [aliceSession.deviceID]]) }
            let claimed = try XCTUnwrap(claim.oneTimeKeys[aliceSession.userID]?[aliceSession.deviceID])
            XCTAssertEqual(claimed.signed, oneTimeKeys[claimed.keyID]?.objectValue, "the claimed key is one Alice uploaded")

            let content: JSONValue = ["algorithm": .string(OlmAlgorithm.name), "sender_key": "bob",
                                      "ciphertext": ["x": ["type": 0, "body": "hello"]]]
            try awaitOnLoop {
                try await bob.sendToDevice(type: "m.room.encrypted",
                                           messages: [aliceSession.userID: [aliceSession.deviceID: content]])
            }
            let sync = try awaitOnLoop { try await alice.sync(since: nil) }
            XCTAssertEqual(sync.encryption.toDevice.map(\.sender), ["@bob:localhost"])
            XCTAssertEqual(sync.encryption.toDevice.first?.content, content)
            XCTAssertEqual(sync.encryption.oneTimeKeyCounts?["signed_curve25519"], 2, "one of three was claimed")
        }
    }

    func testAnotherUsersNewDeviceIsReportedInTheSyncOfThoseWhoShareARoom() throws {
        let homeserver = try homeserver
        try MainActor.assumeIsolated {
            let alice = MatrixClient(homeserver: homeserver), bob = MatrixClient(homeserver: homeserver)
            try awaitOnLoop { try await alice.login(user: "alice", password: SharedHomeserver.password) }
            try awaitOnLoop { try await bob.login(user: "bob", password: SharedHomeserver.password) }
            let room = try awaitOnLoop { try await alice.createRoom(invite: ["@bob:localhost"], encrypted: true) }
            try awaitOnLoop { try await bob.join(roomID: room) }
            let before = try awaitOnLoop { try await alice.sync(since: nil) }
            let bobsPhone = MatrixClient(homeserver: homeserver)
            let phone = try awaitOnLoop { try await bobsPhone.login(user: "bob", password: SharedHomeserver.password) }
            let phoneKeys = try Self.deviceKeys(phone)
            try awaitOnLoop { try await bobsPhone.uploadKeys(deviceKeys: phoneKeys) }
            let after = try awaitOnLoop { try await alice.sync(since: before.nextBatch) }
            XCTAssertTrue(after.encryption.changedDeviceLists.contains("@bob:localhost"))
            let query = try awaitOnLoop { try await alice.queryKeys(users: ["@bob:localhost"]) }
            XCTAssertNotNil(query.devices["@bob:localhost"]?[phone.deviceID])
        }
    }

    func testADirectChatIsRecordedInTheAccountData() throws {
        let homeserver = try homeserver
        try MainActor.assumeIsolated {
            let alice = MatrixClient(homeserver: homeserver)
            try awaitOnLoop { try await alice.login(user: "alice", password: SharedHomeserver.password) }
            XCTAssertNil(try awaitOnLoop { try await alice.accountData(type: "io.github.hark.none") })
            let room = try awaitOnLoop { try await alice.createDirectChat(with: "@bob:localhost", encrypted: true) }
            XCTAssertTrue(try awaitOnLoop { try await alice.isEncrypted(roomID: room) })
            try awaitOnLoop { try await alice.setAccountData(type: "m.direct", content: ["@bob:localhost": [.string(room)]]) }
            let direct = try awaitOnLoop { try await alice.accountData(type: "m.direct") }
            XCTAssertEqual(direct?["@bob:localhost"], [.string(room)])
            let found = try awaitOnLoop { try await alice.searchUsers("bob") }
            XCTAssertEqual(found.results.map(\.userID), ["@bob:localhost"])
        }
    }
}
