import Encryption
import Foundation
import HarkTestSupport
import XCTest

/// Room events decrypted many in one call (a sync's, a page's): each
/// answered on its own, replays refused inside a call and across calls, and
/// what a call answered kept when the helper is killed right after.
final class CryptoEngineBatchTests: XCTestCase {
    func testABatchAnswersEachEventAndRefusesAReplayWithinIt() throws {
        try MainActor.assumeIsolated {
            let sharing = try awaitOnLoop { try await RoomKeySharing() }
            let second = try awaitOnLoop { try await sharing.aliceSends("second words") }
            _ = try awaitOnLoop { try await sharing.sendRoomKey() }
            let results = try awaitOnLoop {
                try await sharing.bob.engine.decryptRoomEvents([
                    sharing.received(sharing.first, eventID: "$first"),
                    sharing.received(second, eventID: "$second"),
                    sharing.received(sharing.first, eventID: "$copy"),
                    MegolmCiphertext(roomID: RoomKeySharing.room, sessionID: "unknown", ciphertext: sharing.first.ciphertext,
                                     eventID: "$unknown"),
                ])
            }
            XCTAssertEqual(results.count, 4)
            XCTAssertEqual(body(results[0]), "first words")
            XCTAssertEqual(body(results[1]), "second words")
            guard case .failure(.refused(.replay, let message)) = results[2] else { return XCTFail("\(results[2])") }
            XCTAssertTrue(message.contains("$first"), message)
            guard case .failure(.refused(.waitingForKey, _)) = results[3] else { return XCTFail("\(results[3])") }
            XCTAssertEqual(try awaitOnLoop { try await sharing.bobReads(second, eventID: "$second") }, "second words")
        }
    }

    /// SIGKILL right after a batch's answer: the room key and the indices the batch saw are on disk.
    func testAKilledHelperAfterABatchKeepsItsKeysAndReplayTable() throws {
        try MainActor.assumeIsolated {
            let sharing = try awaitOnLoop { try await RoomKeySharing() }
            let second = try awaitOnLoop { try await sharing.aliceSends("second words") }
            _ = try awaitOnLoop { try await sharing.sendRoomKey() }
            let first = try awaitOnLoop {
                try await sharing.bob.engine.decryptRoomEvents([sharing.received(sharing.first, eventID: "$first"),
                                                                sharing.received(second, eventID: "$second")])
            }
            XCTAssertEqual(first.map(body), ["first words", "second words"])
            try sharing.bob.killHelper()
            let after = try awaitOnLoop {
                try await sharing.bob.engine.decryptRoomEvents([sharing.received(second, eventID: "$second"),
                                                                sharing.received(sharing.first, eventID: "$other")])
            }
            XCTAssertEqual(body(after[0]), "second words")
            guard case .failure(.refused(.replay, let message)) = after[1] else { return XCTFail("\(after[1])") }
            XCTAssertTrue(message.contains("$first"), message)
        }
    }

}

/// The body of a decrypted room event's content.
private func body(_ result: Result<Decrypted, CryptoEngineError>) -> String? {
    guard case .success(let decrypted) = result else { return nil }
    return (object(decrypted.plaintext)["content"] as? [String: Any])?["body"] as? String
}

extension RoomKeySharing {
    /// Alice's next event in the room (the same session), as sent.
    func aliceSends(_ body: String) async throws -> MegolmEncrypted {
        try await alice.engine.encryptRoomEvent(roomID: Self.room, type: "m.room.message",
                                                content: json(["msgtype": "m.text", "body": body]))
    }

    /// One of Alice's events as it reaches Bob under `eventID`.
    func received(_ sent: MegolmEncrypted, eventID: String) -> MegolmCiphertext {
        MegolmCiphertext(roomID: Self.room, sessionID: sent.sessionID, ciphertext: sent.ciphertext, eventID: eventID)
    }
}
