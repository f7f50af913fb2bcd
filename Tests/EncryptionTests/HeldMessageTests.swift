import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// Encrypted messages as the store lists them: one whose key comes late
/// waits in its own row (across a restart of Hark) and turns into the voice
/// message when the key comes; what came or went encrypted says so, and a
/// message from a device its owner has not cross-signed is marked.
final class HeldMessageTests: XCTestCase {
    func testAMessageWhoseKeyComesLateWaitsAcrossARestartAndThenPlays() throws {
        try EncryptedRoomFixture.run { fixture in
            // Read at once: Bob's device is cross-signed, and Olm is set up between the two.
            _ = try await fixture.bobSendsVoice()
            try await EncryptedRoomFixture.sync(fixture.alice) { try fixture.shownInRoom().count == 1 }
            let first = try XCTUnwrap(try fixture.messagesInRoom().first)
            XCTAssertTrue(first.encrypted)
            XCTAssertFalse(first.unverifiedDevice, "Bob cross-signed his device")

            let late = try await fixture.bob.call("send_audio", ["room_id": fixture.room, "path": fixture.voicePath,
                                                                 "duration_ms": 4000, "withhold_from": "@alice:localhost"])
            let lateID = try XCTUnwrap(late["event_id"] as? String)
            let text = try await fixture.bob.call("send_text", ["room_id": fixture.room, "body": "Did it arrive?"])
            let textID = try XCTUnwrap(text["event_id"] as? String)
            try await EncryptedRoomFixture.sync(fixture.alice) { try fixture.shownInRoom().count == 3 }
            let waiting = Array(try fixture.messagesInRoom().dropFirst())
            XCTAssertEqual(waiting.map(\.eventID), [lateID, textID])
            XCTAssertEqual(waiting.map(\.undecrypted?.standing), [.waiting, .waiting], "each waits for its key")
            XCTAssertEqual(waiting.map(\.sender), ["@bob:localhost", "@bob:localhost"])
            XCTAssertTrue(waiting.allSatisfy { $0.encrypted && $0.state == .missing && $0.mediaURL == nil })

            fixture.restartAlice()
            try await fixture.alice.syncOnce()
            XCTAssertEqual(try fixture.messagesInRoom().dropFirst().map(\.undecrypted?.standing), [.waiting, .waiting],
                           "a restarted Hark still has them")

            try await fixture.bob.call("share_withheld_key", ["room_id": fixture.room])
            try await EncryptedRoomFixture.sync(fixture.alice) {
                try fixture.messagesInRoom().allSatisfy { $0.undecrypted == nil }
            }
            let shown = try fixture.messagesInRoom()
            XCTAssertEqual(shown.map(\.id), [first.id, waiting[0].id],
                           "the voice message took its row's place; the text, which Hark does not show, left")
            let resolved = shown[1]
            XCTAssertEqual(resolved.eventID, lateID)
            XCTAssertTrue(resolved.encrypted)
            XCTAssertNotNil(resolved.mediaURL)
            let fetched = await fixture.alice.fetchWaitingDownloads()
            XCTAssertEqual(fetched, 2, "the first and the late one")
            XCTAssertEqual(FileManager.default.contents(atPath: fixture.alice.store.audioPath(of: resolved)), fixture.original)
        }
    }

    func testEncryptedBothWaysPlainInAPlainRoomAndAnUnverifiedDeviceMarked() throws {
        try EncryptedRoomFixture.run { fixture in
            let alice = fixture.alice
            // Alice's own send into the encrypted room went encrypted.
            let sent = try alice.store.importFile(fixture.voicePath, title: "Sent encrypted")
            _ = try alice.send(sent.id, to: fixture.room)
            let unsent = await alice.sendQueuedNow()
            XCTAssertEqual(unsent, [])
            XCTAssertTrue(try alice.store.message(sent.id).encrypted)

            // A device of Bob's he never cross-signed: read, and marked.
            let tablet = try NioPeer(homeserver: fixture.server.url, user: "bob", password: SharedHomeserver.password,
                                     store: fixture.device.scratch.path("bob-tablet"))
            defer { tablet.stop() }
            try await tablet.call("sync")
            try await tablet.call("trust", ["mode": "ignore_unverified"])
            let fromTablet = try await tablet.call("send_audio", ["room_id": fixture.room, "path": fixture.voicePath,
                                                                  "duration_ms": 4000])
            let tabletEvent = try XCTUnwrap(fromTablet["event_id"] as? String)
            try await EncryptedRoomFixture.sync(alice) { try fixture.messagesInRoom().contains { $0.eventID == tabletEvent } }
            let marked = try XCTUnwrap(try fixture.messagesInRoom().first { $0.eventID == tabletEvent })
            XCTAssertTrue(marked.encrypted)
            XCTAssertTrue(marked.unverifiedDevice, "its device's owner has not cross-signed it")
            XCTAssertNil(marked.undecrypted)

            // A room without encryption: nothing in it came or went encrypted.
            let created = try await fixture.bob.call("create_room", ["invite": ["@alice:localhost"], "encrypted": false])
            let plainRoom = try XCTUnwrap(created["room_id"] as? String)
            try await EncryptedRoomFixture.sync(alice) { try alice.store.matrix.room(plainRoom) != nil }
            try await alice.join(plainRoom)
            try await fixture.bob.call("sync_until", ["joined": "@alice:localhost", "room_id": plainRoom, "seconds": 60])
            _ = try await fixture.bob.call("send_audio", ["room_id": plainRoom, "path": fixture.voicePath, "duration_ms": 4000])
            try await EncryptedRoomFixture.sync(alice) { try !alice.store.shownIDs(in: .room(plainRoom)).isEmpty }
            let plain = try alice.store.message(try XCTUnwrap(try alice.store.shownIDs(in: .room(plainRoom)).first))
            XCTAssertFalse(plain.encrypted)
            XCTAssertFalse(plain.unverifiedDevice)
            let recorded = try alice.store.importFile(fixture.voicePath, title: "Sent in the clear")
            _ = try alice.send(recorded.id, to: plainRoom)
            let plainUnsent = await alice.sendQueuedNow()
            XCTAssertEqual(plainUnsent, [])
            XCTAssertFalse(try alice.store.message(recorded.id).encrypted)
        }
    }
}
