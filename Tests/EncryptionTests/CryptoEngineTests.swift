import Encryption
import Foundation
import GLibSupport
import HarkTestSupport
import XCTest

/// Two real engines (vodozemac in two helpers, two state folders) talking as
/// two devices do: Olm from a claimed one-time key, a room key over it,
/// Megolm both ways; replays, missing keys, a killed helper and a wrong
/// pickle key as Hark will meet them.
final class CryptoEngineTests: XCTestCase {
    override func setUp() {
        MainActor.assumeIsolated { MainLoop.bridgeSwiftConcurrency() }
    }

    func testARoomKeySentOverOlmDecryptsTheRoomsEventsBothWays() throws {
        try MainActor.assumeIsolated {
            try awaitOnLoop {
                let sharing = try await RoomKeySharing()
                let received = try await sharing.sendRoomKey()
                XCTAssertEqual(received.senderKey, sharing.aliceKeys.curve25519)
                let firstBody = try await sharing.bobReads(sharing.first, eventID: "$first")
                XCTAssertEqual(firstBody, "first words")
                let second = try await sharing.alice.engine.encryptRoomEvent(
                    roomID: RoomKeySharing.room, type: "m.room.message", content: json(["msgtype": "m.text", "body": "second"]))
                XCTAssertEqual(second.sessionID, sharing.first.sessionID)
                XCTAssertFalse(second.newSession)
                XCTAssertEqual(second.messageIndex, 1)
                let secondBody = try await sharing.bobReads(second, eventID: "$second")
                XCTAssertEqual(secondBody, "second")

                // Bob answers in the session the pre-key message made: a normal message.
                let reply = try await sharing.bob.engine.encryptToDevice(json(["type": "m.dummy", "content": [:]]),
                                                                         for: sharing.aliceKeys.curve25519)
                let message = try XCTUnwrap(reply.ciphertext[sharing.aliceKeys.curve25519])
                XCTAssertEqual(message.type, 1)
                let back = try await sharing.alice.engine.decryptToDevice(message, from: sharing.bobKeys.curve25519)
                XCTAssertEqual(object(back.plaintext)["type"] as? String, "m.dummy")

                // Bob's own room session reaches Alice the same way, and Bob reads his own event.
                let bobs = try await sharing.bob.engine.encryptRoomEvent(
                    roomID: RoomKeySharing.room, type: "m.room.message", content: json(["body": "from bob"]))
                XCTAssertNotEqual(bobs.sessionID, sharing.first.sessionID)
                let own = try await sharing.bob.engine.decryptRoomEvent(roomID: RoomKeySharing.room, sessionID: bobs.sessionID,
                                                                        ciphertext: bobs.ciphertext, eventID: "$bob")
                XCTAssertEqual((object(own.plaintext)["content"] as? [String: Any])?["body"] as? String, "from bob")
            }
        }
    }

    /// A key from a later index does not replace the one Bob has; a room's
    /// session is replaced after its message count, or when asked, and who
    /// has its key is kept with it.
    func testRotationAndALaterCopyOfARoomKey() throws {
        try MainActor.assumeIsolated {
            try awaitOnLoop {
                let sharing = try await RoomKeySharing()
                _ = try await sharing.sendRoomKey()
                let later = try await sharing.alice.engine.encryptRoomEvent(
                    roomID: RoomKeySharing.room, type: "m.room.message", content: json(["body": "later"]),
                    rotationMessages: 3)
                XCTAssertEqual(later.messageIndex, 1)
                XCTAssertEqual(later.sharedWith, [])
                let shared = try await sharing.alice.engine.markRoomKeyShared(roomID: RoomKeySharing.room, sessionID: later.sessionID,
                                                                              devices: ["BOBDEVICE"])
                XCTAssertEqual(shared, ["BOBDEVICE"])
                let again = try await sharing.alice.engine.encryptToDevice(sharing.roomKeyPayload(later), for: sharing.bobKeys.curve25519)
                let copy = try await sharing.bob.engine.decryptToDevice(try XCTUnwrap(again.ciphertext[sharing.bobKeys.curve25519]),
                                                                        from: again.senderKey)
                let imported = try await sharing.bob.engine.importRoomKey(copy)
                XCTAssertFalse(imported.imported)
                XCTAssertEqual(imported.firstKnownIndex, 0)
                let firstBody = try await sharing.bobReads(sharing.first, eventID: "$first")
                XCTAssertEqual(firstBody, "first words")

                let third = try await sharing.alice.engine.encryptRoomEvent(
                    roomID: RoomKeySharing.room, type: "m.room.message", content: json(["body": "third"]), rotationMessages: 3)
                XCTAssertEqual(third.sessionID, sharing.first.sessionID)
                XCTAssertEqual(third.sharedWith, ["BOBDEVICE"])
                let fourth = try await sharing.alice.engine.encryptRoomEvent(
                    roomID: RoomKeySharing.room, type: "m.room.message", content: json(["body": "fourth"]), rotationMessages: 3)
                XCTAssertTrue(fourth.newSession)
                XCTAssertNotEqual(fourth.sessionID, sharing.first.sessionID)
                XCTAssertEqual(fourth.messageIndex, 0)
                XCTAssertEqual(fourth.sharedWith, [], "a new session's key has gone to nobody yet")
                let asked = try await sharing.alice.engine.encryptRoomEvent(
                    roomID: RoomKeySharing.room, type: "m.room.message", content: json(["body": "after a leave"]), rotate: true)
                XCTAssertTrue(asked.newSession)
                XCTAssertNotEqual(asked.sessionID, fourth.sessionID)
                try await sharing.alice.engine.discardOutboundSession(roomID: RoomKeySharing.room)
                let afterDiscard = try await sharing.alice.engine.encryptRoomEvent(
                    roomID: RoomKeySharing.room, type: "m.room.message", content: json(["body": "after a device went"]))
                XCTAssertTrue(afterDiscard.newSession)
                XCTAssertNotEqual(afterDiscard.sessionID, asked.sessionID)
                // Bob has no key for the new sessions yet.
                let fourthBody: String?
                do { fourthBody = try await sharing.bobReads(fourth, eventID: "$fourth") } catch CryptoEngineError.refused(.waitingForKey, _) {
                    fourthBody = nil
                }
                XCTAssertNil(fourthBody)
            }
        }
    }

    /// Calls made together, the first ones included, share one helper and
    /// each gets its own answer.
    func testOverlappingCallsShareOneHelperAndGetTheirOwnAnswers() throws {
        try MainActor.assumeIsolated {
            let device = try TestDevice()
            let (keys, again, signature) = try awaitOnLoop {
                async let keys = device.engine.identityKeys()
                async let again = device.engine.identityKeys()
                async let signature = device.engine.sign("{}")
                return try await (keys, again, signature)
            }
            XCTAssertEqual(keys, again)
            XCTAssertEqual(signature.count, 86, "an unpadded base64 Ed25519 signature")
            XCTAssertEqual(device.helperProcesses().count, 1)
            let indices = try awaitOnLoop {
                async let first = device.engine.encryptRoomEvent(roomID: "!r", type: "m.room.message", content: json(["body": "1"]))
                async let second = device.engine.encryptRoomEvent(roomID: "!r", type: "m.room.message", content: json(["body": "2"]))
                async let third = device.engine.encryptRoomEvent(roomID: "!r", type: "m.room.message", content: json(["body": "3"]))
                return try await [first, second, third].map(\.messageIndex)
            }
            XCTAssertEqual(indices.sorted(), [0, 1, 2])
            XCTAssertEqual(device.helperProcesses().count, 1)
        }
    }

    func testAMessageIndexUnderAnotherEventIDIsAReplay() throws {
        try MainActor.assumeIsolated {
            let sharing = try awaitOnLoop { try await RoomKeySharing() }
            _ = try awaitOnLoop { try await sharing.sendRoomKey() }
            XCTAssertEqual(try awaitOnLoop { try await sharing.bobReads(sharing.first, eventID: "$first") }, "first words")
            // The same event again (a second sync, a timeline page) is no replay.
            XCTAssertEqual(try awaitOnLoop { try await sharing.bobReads(sharing.first, eventID: "$first") }, "first words")
            let error = failure { _ = try await sharing.bobReads(sharing.first, eventID: "$copy") }
            guard case .refused(.replay, let message)? = error else { return XCTFail("\(String(describing: error))") }
            XCTAssertTrue(message.contains("$first"), message)
        }
    }

    func testAnEventBeforeItsRoomKeyIsWaitingForTheKeyThenDecrypts() throws {
        try MainActor.assumeIsolated {
            let sharing = try awaitOnLoop { try await RoomKeySharing() }
            let error = failure { _ = try await sharing.bobReads(sharing.first, eventID: "$first") }
            guard case .refused(.waitingForKey, _)? = error else { return XCTFail("\(String(describing: error))") }
            _ = try awaitOnLoop { try await sharing.sendRoomKey() }
            XCTAssertEqual(try awaitOnLoop { try await sharing.bobReads(sharing.first, eventID: "$first") }, "first words")
        }
    }

    /// SIGKILL between calls: the next call starts the helper again from its
    /// file, and every key it had answered with is still there.
    func testAKilledHelperRestartsWithEveryKey() throws {
        try MainActor.assumeIsolated {
            let sharing = try awaitOnLoop { try await RoomKeySharing() }
            _ = try awaitOnLoop { try await sharing.sendRoomKey() }
            try sharing.bob.killHelper()
            try sharing.alice.killHelper()
            XCTAssertEqual(try awaitOnLoop { try await sharing.bobReads(sharing.first, eventID: "$first") }, "first words")
            // Alice's outbound session went on where it was, in the same Olm and Megolm sessions.
            let second = try awaitOnLoop {
                try await sharing.alice.engine.encryptRoomEvent(roomID: RoomKeySharing.room, type: "m.room.message",
                                                                content: json(["body": "after the kill"]))
            }
            XCTAssertEqual(second.sessionID, sharing.first.sessionID)
            XCTAssertEqual(second.messageIndex, 1)
            try sharing.bob.killHelper()
            XCTAssertEqual(try awaitOnLoop { try await sharing.bobReads(second, eventID: "$second") }, "after the kill")
            let olm = try awaitOnLoop {
                try await sharing.alice.engine.encryptToDevice(json(["type": "m.dummy"]), for: sharing.bobKeys.curve25519)
            }
            try sharing.bob.killHelper()
            let message = try XCTUnwrap(olm.ciphertext[sharing.bobKeys.curve25519])
            let decrypted = try awaitOnLoop { try await sharing.bob.engine.decryptToDevice(message, from: olm.senderKey) }
            XCTAssertEqual(object(decrypted.plaintext)["type"] as? String, "m.dummy")
            // A replay still counts after the restart: the table was saved too.
            try sharing.bob.killHelper()
            let error = failure { _ = try await sharing.bobReads(second, eventID: "$other") }
            guard case .refused(.replay, _)? = error else { return XCTFail("\(String(describing: error))") }
        }
    }

    /// The state file: 0600, and neither the pickle key, a room's session
    /// key, nor any plaintext that went through it is in it as it is.
    func testTheStateFileIsPrivateAndHoldsNoSecretInTheClear() throws {
        try MainActor.assumeIsolated {
            let sharing = try awaitOnLoop { try await RoomKeySharing() }
            _ = try awaitOnLoop { try await sharing.sendRoomKey() }
            XCTAssertEqual(try awaitOnLoop { try await sharing.bobReads(sharing.first, eventID: "$first") }, "first words")
            for device in [sharing.alice, sharing.bob] {
                let attributes = try FileManager.default.attributesOfItem(atPath: device.stateFile)
                XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
                let folder = try FileManager.default.attributesOfItem(atPath: device.stateFolder)
                XCTAssertEqual((folder[.posixPermissions] as? NSNumber)?.intValue, 0o700)
                let text = try String(contentsOfFile: device.stateFile, encoding: .utf8)
                let pickleKey = device.pickleKey.base64EncodedString()
                let secrets = [pickleKey, String(pickleKey.prefix(while: { $0 != "=" })),
                               device.pickleKey.map { String(format: "%02x", $0) }.joined(),
                               // The session key holds the Megolm ratchet: who has it reads the room.
                               String(sharing.first.sessionKey.prefix(40)),
                               "first words", "m.room_key"]
                for secret in secrets {
                    XCTAssertFalse(text.contains(secret), "the state file holds \(secret)")
                }
                // No temporary file left beside it.
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: device.stateFolder), ["engine-state.json"])
            }
        }
    }

    func testAWrongPickleKeyIsRefusedAndTheRightOneStillOpensTheState() throws {
        try MainActor.assumeIsolated {
            let device = try TestDevice()
            let keys = try awaitOnLoop { try await device.engine.identityKeys() }
            let before = try Data(contentsOf: URL(fileURLWithPath: device.stateFile))
            let wrong = device.reopened(pickleKey: Data(repeating: 7, count: 32))
            let error = failure { _ = try await wrong.identityKeys() }
            XCTAssertEqual(error, .wrongPickleKey)
            XCTAssertEqual(error?.description, "the encryption state is locked with another key than the one given")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: device.stateFile)), before, "a wrong key changes nothing")
            let right = device.reopened()
            XCTAssertEqual(try awaitOnLoop { try await right.identityKeys() }, keys)
        }
    }

    /// The device's signature of canonical JSON verifies under its Ed25519
    /// key, checked by vodozemac in a separate Python (not through the helper).
    func testSignaturesVerifyUnderTheDevicesKey() throws {
        try MainActor.assumeIsolated {
            let device = try TestDevice()
            let message = #"{"algorithms":["m.megolm.v1.aes-sha2"],"device_id":"HARK","user_id":"@a:localhost"}"#
            let (keys, signature) = try awaitOnLoop {
                (try await device.engine.identityKeys(), try await device.engine.sign(message))
            }
            let check = """
            import sys, vodozemac as v
            key, signature, message = sys.argv[1:]
            v.Ed25519PublicKey.from_base64(key).verify_signature(message.encode(), v.Ed25519Signature.from_base64(signature))
            print("valid", flush=True)  # before the traceback that follows on standard error
            v.Ed25519PublicKey.from_base64(key).verify_signature(message.encode() + b" ", v.Ed25519Signature.from_base64(signature))
            """
            let (status, output) = try ChildProcess.run(device.engine.files.python, ["-c", check, keys.ed25519, signature, message], seconds: 60)
            XCTAssertNotEqual(status, 0)
            XCTAssertTrue(output.hasPrefix("valid\n") && output.contains("SignatureException"), output)
        }
    }

    func testAnEngineThatIsNotInstalledSaysSo() throws {
        try MainActor.assumeIsolated {
            let scratch = try ScratchFolder()
            let engine = CryptoEngine(files: CryptoEngineFiles(folder: scratch.path("none")),
                                      stateFolder: scratch.path("state"), pickleKey: Data(repeating: 1, count: 32))
            XCTAssertEqual(failure { _ = try await engine.identityKeys() }, .notInstalled(folder: scratch.path("none")))
        }
    }
}
