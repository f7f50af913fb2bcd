import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import XCTest

/// More encrypted messages than one `/sync` brings (its timeline holds 50 per
/// room): the rest come through `/messages`, as the sync fills the gap and as
/// the user scrolls back, and are decrypted there as a sync's are.
final class EncryptedHistoryTests: XCTestCase {
    static let count = 60

    func testEncryptedMessagesBeyondOneSyncArriveThroughTheGapAndScrollingBack() throws {
        try EncryptedRoomFixture.run { fixture in
            // A second device of Alice's, known to Bob before he sends: its
            // first sync will bring only the newest, and his keys.
            let device = try TestDevice()
            defer { device.engine.stop() }
            let client = MatrixClient(homeserver: fixture.server.url)
            let login = try await client.login(user: "alice", password: SharedHomeserver.password)
            let store = try MessageStore(folder: device.scratch.url.appendingPathComponent("store"))
            try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: login.userID, homeserver: login.homeserver,
                                                                  deviceID: login.deviceID))
            let second = ConversationSession(client: client, store: store)
            let encryption = RoomEncryption(engine: device.engine, client: client, store: store, userID: login.userID,
                                            deviceID: login.deviceID)
            second.encryption = encryption
            try await encryption.prepare()
            try await fixture.bob.call("sync")

            for _ in 0..<Self.count { _ = try await fixture.bobSendsVoice() }
            try await fixture.alice.syncOnce()
            XCTAssertEqual(try fixture.shownInRoom().count, Self.count, "one sync stores every message, the gap's too")
            XCTAssertEqual(try fixture.alice.store.matrix.heldEvents().count, 0)

            try await second.syncOnce()
            XCTAssertLessThan(try store.shownIDs(in: .room(fixture.room)).count, Self.count,
                              "a first sync brings only the newest")
            while try await second.loadOlderMessages(in: fixture.room) != nil {}
            XCTAssertEqual(try store.shownIDs(in: .room(fixture.room)).count, Self.count)
            XCTAssertEqual(try store.matrix.heldEvents().count, 0)
        }
    }

    /// Their key kept back: the gap's events wait in their rows as the sync's
    /// do, and all turn into their voice messages when it comes.
    func testEncryptedMessagesFromTheGapWaitForTheirKeyAsASyncsDo() throws {
        try EncryptedRoomFixture.run { fixture in
            _ = try await fixture.bob.call("send_audio", ["room_id": fixture.room, "path": fixture.voicePath,
                                                          "duration_ms": 4000, "withhold_from": "@alice:localhost"])
            for _ in 1..<Self.count { _ = try await fixture.bobSendsVoice() }
            try await fixture.alice.syncOnce()
            let waiting = try fixture.messagesInRoom()
            XCTAssertEqual(waiting.count, Self.count)
            XCTAssertTrue(waiting.allSatisfy { $0.undecrypted?.standing == .waiting }, "each waits for its key")

            try await fixture.bob.call("share_withheld_key", ["room_id": fixture.room])
            try await EncryptedRoomFixture.sync(fixture.alice) {
                try fixture.messagesInRoom().allSatisfy { $0.undecrypted == nil }
            }
            let read = try fixture.messagesInRoom()
            XCTAssertEqual(read.map(\.id), waiting.map(\.id), "each took its row's place")
            XCTAssertTrue(read.allSatisfy { $0.encrypted && $0.mediaURL != nil })
        }
    }
}
