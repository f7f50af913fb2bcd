import Foundation
import HarkTestSupport
@testable import MessageStore
import XCTest

/// Encrypted messages in the store (migration 15): which came or went
/// encrypted, and the rows of events that cannot be read yet, kept until
/// their keys come, then turned into their messages or gone.
extension MatrixStoreTests {
    private func held(_ event: String, at seconds: Double = 1_700_000_000) -> HeldEvent {
        HeldEvent(eventID: event, roomID: "!room", sender: "@bob:example.org", sentAt: Date(timeIntervalSince1970: seconds),
                  event: Data(#"{"type":"m.room.encrypted","event_id":"\#(event)"}"#.utf8))
    }

    @discardableResult
    private func hold(_ store: MessageStore, _ event: String, sent seconds: Double = 1_700_000_000, withheld: String? = nil,
                      refusal: String? = nil, at now: Date) throws -> Message? {
        let held = held(event, at: seconds)
        return try store.matrix.holdUndecrypted(eventID: held.eventID, roomID: held.roomID, sender: held.sender,
                                                sentAt: held.sentAt, event: held.event, withheld: withheld,
                                                refusal: refusal, at: now)
    }

    private func encryptedIncoming(_ event: String, unverified: Bool = false) -> IncomingAudio {
        IncomingAudio(eventID: event, roomID: "!room", sender: "@bob:example.org", title: "Dentist",
                      sentAt: Date(timeIntervalSince1970: 1_700_000_000), duration: 3, fileExtension: "ogg",
                      mediaURL: "mxc://example.org/\(event.dropFirst())", levels: nil, unread: true,
                      encrypted: true, unverifiedDevice: unverified)
    }

    private func listed(_ store: MessageStore) throws -> [Message] {
        var messages: [Message] = []
        try store.eachListed { messages.append($0) }
        return messages
    }

    func testAVersionFourteenStoreKnowsWhatWentAndCameEncrypted() throws {
        do {
            let store = try MessageStore(folder: folder)
            // As migration 14 left it, with a message that came encrypted, one that went, and one that went in the clear.
            try store.database.execute("""
                DROP TABLE undecrypted_events;
                DROP TABLE identity_pins;
                ALTER TABLE messages DROP COLUMN encrypted;
                ALTER TABLE messages DROP COLUMN unverified_device;
                INSERT INTO messages (id, title, created_at, file_name, codec, state, origin, room_id)
                VALUES ('came', 'Came', 1, 'came.ogg', 'ogg', 'missing', 'received', '!secret'),
                       ('went', 'Went', 2, 'went.ogg', 'opus', 'ready', 'recorded', '!secret'),
                       ('plain', 'Plain', 3, 'plain.ogg', 'opus', 'ready', 'recorded', '!open');
                INSERT INTO encrypted_media (message_id, file) VALUES ('came', '{}');
                INSERT INTO outbox (transaction_id, message_id, room_id, state, queued_at, encrypted_content)
                VALUES ('t1', 'went', '!secret', 'sent', 2, '{}'), ('t2', 'plain', '!open', 'sent', 3, NULL);
                ALTER TABLE messages DROP COLUMN transcript_source;
                ALTER TABLE outbox DROP COLUMN caption;
                PRAGMA user_version = 14;
                """)
        }
        let store = try MessageStore(folder: folder)
        XCTAssertEqual(try ["came", "went", "plain"].map { try store.message($0).encrypted }, [true, true, false])
        XCTAssertEqual(try store.message("came").unverifiedDevice, false)
        XCTAssertNil(try store.message("came").undecrypted)
        XCTAssertEqual(try store.matrix.heldEvents().count, 0)
    }

    func testAnEventWaitingForItsKeyIsARowUntilItBecomesItsMessage() throws {
        let store = try MessageStore(folder: folder)
        let heldAt = Date(timeIntervalSince1970: 1_800_000_000)
        let row = try XCTUnwrap(try hold(store, "$late", at: heldAt))
        XCTAssertNil(try hold(store, "$late", at: heldAt), "each event once")
        XCTAssertEqual(try listed(store).map(\.id), [row.id])
        let waiting = try store.message(row.id)
        XCTAssertEqual(waiting.undecrypted, Undecrypted(heldSince: heldAt))
        XCTAssertEqual(waiting.undecrypted?.standing, .waiting)
        XCTAssertTrue(waiting.encrypted)
        XCTAssertEqual(waiting.state, .missing)
        XCTAssertEqual(waiting.sender, "@bob:example.org")
        XCTAssertEqual(waiting.roomID, "!room")
        XCTAssertFalse(waiting.isAwaitingDownload, "no audio to download before it is decrypted")
        XCTAssertEqual(try store.matrix.messagesAwaitingDownload(), [])
        XCTAssertTrue(try store.matrix.hasEvent("$late"))
        XCTAssertEqual(try store.matrix.heldEvents().map(\.event), [held("$late")])

        // Its key arrives: the same row is the voice message now.
        let message = try XCTUnwrap(try store.matrix.receive(encryptedIncoming("$late", unverified: true)))
        XCTAssertEqual(message.id, row.id)
        XCTAssertNil(message.undecrypted)
        XCTAssertEqual(message.title, "Dentist")
        XCTAssertEqual(message.mediaURL, "mxc://example.org/late")
        XCTAssertTrue(message.encrypted)
        XCTAssertTrue(message.unverifiedDevice)
        XCTAssertTrue(message.isAwaitingDownload)
        XCTAssertEqual(try store.matrix.heldEvents().count, 0)
        XCTAssertNil(try store.matrix.receive(encryptedIncoming("$late")), "each event once")
        XCTAssertEqual(try listed(store).map(\.id), [row.id])
    }

    func testRowsThatGoSayWhyOrGiveUp() throws {
        let store = try MessageStore(folder: folder)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let text = try XCTUnwrap(try hold(store, "$text", sent: 1, at: start))
        let withheld = try XCTUnwrap(try hold(store, "$withheld", sent: 2, withheld: "m.unverified", at: start))
        let late = try XCTUnwrap(try hold(store, "$late", sent: 3, at: start.addingTimeInterval(300)))
        let replay = try XCTUnwrap(try hold(store, "$replay", sent: 4, refusal: "A replay.", at: start))
        XCTAssertEqual(try store.matrix.heldEvents().map(\.event.eventID), ["$text", "$withheld", "$late"],
                       "a refused one is never tried again")

        // Decrypted to something Hark does not show: its row goes.
        XCTAssertEqual(try store.matrix.dropUndecrypted(eventIDs: ["$text", "$unknown"]), [text.id])
        XCTAssertThrowsError(try store.message(text.id))
        XCTAssertFalse(try store.matrix.hasEvent("$text"))

        // Ten minutes of syncs: those held as long say their key never came.
        func syncAt(_ seconds: TimeInterval) throws -> [String] {
            try store.matrix.giveUpUndecrypted(heldBefore: start.addingTimeInterval(seconds - Undecrypted.patience))
        }
        XCTAssertEqual(try syncAt(Undecrypted.patience - 1), [], "none held for ten minutes yet")
        XCTAssertEqual(try syncAt(Undecrypted.patience + 1), [], "the withheld and the refused say why already")
        try store.matrix.setWithheld(of: withheld.id, nil)
        XCTAssertEqual(try syncAt(Undecrypted.patience + 1), [withheld.id], "held since the start, not the late one")
        XCTAssertEqual(try store.message(withheld.id).undecrypted?.standing, .neverCame)
        XCTAssertEqual(try store.message(late.id).undecrypted?.standing, .waiting)
        XCTAssertEqual(try store.message(replay.id).undecrypted?.standing, .refused)
        XCTAssertEqual(try store.message(replay.id).undecrypted?.sentence, "A replay.")

        // Deleted and purged, it is gone with its event.
        try store.delete(late.id)
        try store.purge(late.id)
        XCTAssertEqual(try store.matrix.heldEvents().map(\.event.eventID), ["$withheld"])
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testWhatARowSaysOfItsMessage() {
        let since = Date(timeIntervalSince1970: 0)
        let waiting = Undecrypted(heldSince: since)
        let withheld = Undecrypted(heldSince: since, withheld: "m.unverified")
        let blocked = Undecrypted(heldSince: since, withheld: "m.blacklisted")
        let never = Undecrypted(heldSince: since, gaveUp: true)
        let refused = Undecrypted(heldSince: since, withheld: "m.unverified", gaveUp: true, refusal: "Refused.")
        XCTAssertEqual([waiting, withheld, never, refused].map(\.standing), [.waiting, .withheld, .neverCame, .refused])
        XCTAssertEqual(refused.sentence, "Refused.", "a refusal says its own reason above all")
        let sentences = [waiting, withheld, blocked, never].map(\.sentence)
        XCTAssertEqual(Set(sentences).count, 4, "each says something of its own")
        XCTAssertTrue(sentences.allSatisfy { !$0.isEmpty })
    }
}
