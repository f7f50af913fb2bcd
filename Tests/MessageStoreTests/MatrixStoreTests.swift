import CSQLite
import Foundation
import HarkTestSupport
import Levels
@testable import MessageStore
import XCTest

/// The store's Matrix side: the migration from version 6, the outbox's
/// states, received messages (each event once), rooms and their order,
/// which messages each history shows, and a salvage keeping all of it.
final class MatrixStoreTests: XCTestCase {
    var scratch: ScratchFolder!
    var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    private func incoming(_ event: String, room: String = "!room", sender: String = "@bob:example.org",
                          at seconds: Double = 1_700_000_000, unread: Bool = true) -> IncomingAudio {
        IncomingAudio(eventID: event, roomID: room, sender: sender, title: "Voice message",
                      sentAt: Date(timeIntervalSince1970: seconds), duration: 3, fileExtension: "ogg",
                      mediaURL: "mxc://example.org/\(event.dropFirst())", levels: nil, unread: unread)
    }

    private func recorded(_ store: MessageStore, title: String = "Mine", room: String? = nil) throws -> Message {
        let message = try store.beginRecording(title: title, roomID: room)
        _ = FileManager.default.createFile(atPath: store.audioPath(of: message), contents: Data("OggS".utf8))
        try store.finishRecording(message.id, duration: 2, levels: LevelTrack())
        return try store.message(message.id)
    }

    func testAVersionSixStoreIsUpgradedAndItsImportsAreKnownAsSuch() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("messages"), withIntermediateDirectories: true)
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(folder.appendingPathComponent("hark.sqlite3").path, &db), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(db, Schema.migrations.prefix(6).joined(separator: "\n") + """
            PRAGMA user_version = 6;
            INSERT INTO messages (id, title, created_at, duration, file_name, codec, state, voice_processed)
            VALUES ('take', 'A take', 1600000000, 4.5, 'take.ogg', 'opus', 'missing', 1),
                   ('song', 'A song', 1600000001, 60, 'song.mp3', 'mp3', 'missing', NULL);
            """, nil, nil, nil), SQLITE_OK)
        sqlite3_close(db)

        let store = try MessageStore(folder: folder)
        XCTAssertEqual(try store.message("take").origin, .recorded)
        XCTAssertEqual(try store.message("song").origin, .imported)
        XCTAssertNil(try store.message("take").roomID)
        XCTAssertEqual(try store.matrix.rooms(), [])
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testTheOutboxKeepsEachSendUntilTheServerConfirmsIt() throws {
        let store = try MessageStore(folder: folder)
        try store.matrix.updateRoom(RoomUpdate(id: "!room", membership: .join, name: "Plans"))
        let message = try recorded(store, room: "!room")
        XCTAssertNil(try store.matrix.sendState(of: message.id))
        let queuedAt = Date(timeIntervalSince1970: 1_000_000)
        let entry = try store.matrix.enqueueSend(message.id, roomID: "!room", transactionID: "txn-1", at: queuedAt)
        XCTAssertEqual(entry.state, .queued)
        XCTAssertEqual(entry.waitingSince, queuedAt, "waiting unsent since queued")
        XCTAssertEqual(try store.matrix.sendState(of: message.id), .sending)
        XCTAssertEqual(try store.matrix.queuedSends().map(\.transactionID), ["txn-1"])

        // Uploaded once: a retry reuses the address.
        try store.matrix.setUploaded("txn-1", contentURI: "mxc://example.org/a", size: 1234)
        let retryAt = Date().addingTimeInterval(30)
        try store.matrix.markAttemptFailed("txn-1", error: "Cannot reach example.org: refused.", retryAt: retryAt)
        var stored = try XCTUnwrap(try store.matrix.outboxEntry("txn-1"))
        XCTAssertEqual(stored.state, .queued)
        XCTAssertEqual(stored.attempts, 1)
        XCTAssertEqual(stored.contentURI, "mxc://example.org/a")
        XCTAssertEqual(stored.uploadedSize, 1234, "the bytes uploaded (converted to Ogg Opus), not the file's")
        XCTAssertEqual(stored.nextAttemptAt.timeIntervalSince1970, retryAt.timeIntervalSince1970, accuracy: 0.001)

        // Given up: "Not sent" until the user retries, with the same transaction id.
        try store.matrix.markAttemptFailed("txn-1", error: "The server refused.", retryAt: nil)
        XCTAssertEqual(try store.matrix.sendState(of: message.id), .failed)
        XCTAssertEqual(try store.matrix.outboxEntry("txn-1")?.expired, false, "refused")
        XCTAssertEqual(try store.matrix.queuedSends(), [])
        let retriedAt = Date(timeIntervalSince1970: 2_000_000)
        try store.matrix.retrySends(of: message.id, at: retriedAt)
        stored = try XCTUnwrap(try store.matrix.outboxEntry("txn-1"))
        XCTAssertEqual(stored.state, .queued)
        XCTAssertEqual(stored.attempts, 0)
        XCTAssertEqual(stored.waitingSince, retriedAt, "a retry may wait as long again")
        XCTAssertEqual(stored.queuedAt, queuedAt)

        // Waited too long unsent: "Not sent" too, told apart from a refusal.
        try store.matrix.markAttemptFailed("txn-1", error: "Cannot reach example.org: refused.", retryAt: nil, expired: true)
        XCTAssertEqual(try store.matrix.sendState(of: message.id), .failed)
        XCTAssertEqual(try store.matrix.outboxEntry("txn-1")?.expired, true)
        try store.matrix.retrySends(of: message.id)
        XCTAssertEqual(try store.matrix.outboxEntry("txn-1")?.expired, false)

        try store.matrix.markSent("txn-1", eventID: "$sent")
        XCTAssertEqual(try store.matrix.sendState(of: message.id), .sent)
        XCTAssertEqual(try store.message(message.id).eventID, "$sent", "recorded into the room: the event is its own")
        XCTAssertEqual(try store.message(message.id).mediaURL, "mxc://example.org/a")
        XCTAssertTrue(try store.matrix.hasEvent("$sent"))
        XCTAssertNil(try store.matrix.receive(incoming("$sent")), "the echo of a send is not a received message")
        XCTAssertEqual(try store.matrix.sendSummaries()[message.id]?.state, .sent)
        XCTAssertEqual(try store.matrix.sendSummaries()[message.id]?.eventID, "$sent")

        // A deleted message is not sent; purged, its sends go with it.
        let other = try recorded(store, title: "Second thoughts")
        try store.matrix.enqueueSend(other.id, roomID: "!room", transactionID: "txn-2")
        try store.delete(other.id)
        XCTAssertEqual(try store.matrix.queuedSends(), [])
        try store.undelete(other.id)
        XCTAssertEqual(try store.matrix.queuedSends().map(\.transactionID), ["txn-2"])
        try store.delete(other.id)
        try store.purge(other.id)
        XCTAssertNil(try store.matrix.outboxEntry("txn-2"))
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testAReceivedEventLandsOnceAndOnlyTheSendersRedactionRemovesIt() throws {
        let store = try MessageStore(folder: folder)
        try store.matrix.updateRoom(RoomUpdate(id: "!room", membership: .join))
        let first = try XCTUnwrap(try store.matrix.receive(incoming("$one")))
        XCTAssertNil(try store.matrix.receive(incoming("$one")), "the same event never lands twice")
        XCTAssertEqual(first.state, .missing)
        XCTAssertTrue(first.isAwaitingDownload)
        XCTAssertEqual(first.origin, .received)
        XCTAssertEqual(try store.matrix.messagesAwaitingDownload().map(\.id), [first.id])
        XCTAssertEqual(try store.matrix.room("!room")?.unreadCount, 1)
        XCTAssertEqual(try store.matrix.room("!room")?.lastSender, "@bob:example.org")

        XCTAssertEqual(try store.matrix.markRead(first.id), "$one")
        XCTAssertNil(try store.matrix.markRead(first.id), "read already: no second receipt")
        XCTAssertEqual(try store.matrix.room("!room")?.unreadCount, 0)

        XCTAssertEqual(try store.matrix.removeRedacted(eventID: "$one"), first.id)
        XCTAssertEqual(try store.message(first.id).state, .deleted)
        // A redaction of the user's own recording (by a room's admin) leaves their copy.
        let mine = try recorded(store, room: "!room")
        try store.matrix.enqueueSend(mine.id, roomID: "!room", transactionID: "txn")
        try store.matrix.markSent("txn", eventID: "$mine")
        XCTAssertNil(try store.matrix.removeRedacted(eventID: "$mine"))
        XCTAssertEqual(try store.message(mine.id).state, .ready)
    }

    /// "Transcribe New Messages" covers what arrives from a room as it does
    /// a recording: queued once its audio is here (not before: there is
    /// nothing to transcribe), the sender's own from another device too.
    func testADownloadedMessageIsQueuedForTranscriptionLikeARecordingWhenItIsOn() throws {
        let store = try MessageStore(folder: folder)
        try store.matrix.updateRoom(RoomUpdate(id: "!room", membership: .join))
        let analysis = Analysis(duration: 3, levels: LevelTrack())
        /// What the download of `message` wrote into the store's folder.
        func downloaded(_ message: Message) throws -> DownloadFile {
            let file = try store.matrix.createDownloadFile(of: message)
            try Data("OggS".utf8).write(to: URL(fileURLWithPath: file.path))
            return file
        }
        let off = try XCTUnwrap(try store.matrix.receive(incoming("$off", at: 1_700_000_000)))
        try store.matrix.adoptDownload(off.id, from: try downloaded(off), analysis: analysis)
        XCTAssertEqual(try store.message(off.id).transcriptState, TranscriptState.none, "off: nothing queued")

        try store.setSetting(MessageStore.transcriptionSetting, "on")
        let others = try XCTUnwrap(try store.matrix.receive(incoming("$others", at: 1_700_000_100)))
        let own = try XCTUnwrap(try store.matrix.receive(incoming("$own", sender: "@me:example.org", at: 1_700_000_200)))
        XCTAssertEqual(try store.message(others.id).transcriptState, TranscriptState.none, "no audio yet")
        XCTAssertEqual(try store.queuedTranscriptionCount(), 0)
        for message in [others, own] { try store.matrix.adoptDownload(message.id, from: try downloaded(message), analysis: analysis) }
        XCTAssertEqual(try store.message(others.id).transcriptState, .queued)
        XCTAssertEqual(try store.message(own.id).transcriptState, .queued)
        let mine = try recorded(store, room: "!room")  // recorded now: the newest
        XCTAssertEqual(try store.message(mine.id).transcriptState, .queued, "the same rule as a recording")
        XCTAssertEqual(try store.queuedTranscriptionCount(), 3)
        try store.storeTranscript(mine.id, segments: [])
        XCTAssertEqual(try store.nextQueuedTranscription()?.id, own.id, "newest first, whoever sent it")
    }

    func testEachHistoryShowsItsOwnMessages() throws {
        let store = try MessageStore(folder: folder)
        try store.matrix.updateRoom(RoomUpdate(id: "!a", membership: .join))
        try store.matrix.updateRoom(RoomUpdate(id: "!b", membership: .join))
        let local = try recorded(store, title: "Local")
        let intoA = try recorded(store, title: "Recorded in A", room: "!a")
        let sentToB = try recorded(store, title: "Sent to B")
        try store.matrix.enqueueSend(sentToB.id, roomID: "!b", transactionID: "t")
        let fromBob = try XCTUnwrap(try store.matrix.receive(incoming("$x", room: "!a", at: Date().timeIntervalSince1970)))

        XCTAssertEqual(Set(try store.shownIDs()), [local.id, intoA.id, sentToB.id], "Recordings: the user's own")
        XCTAssertEqual(Set(try store.shownIDs(in: .room("!a"))), [intoA.id, fromBob.id])
        XCTAssertEqual(Set(try store.shownIDs(in: .room("!b"))), [sentToB.id])
        XCTAssertEqual(Set(try store.shownIDs(in: .all)), [local.id, intoA.id, sentToB.id, fromBob.id])
    }

    /// In a room, a message sent there stands where it was sent (queued, or
    /// retried by the user); the recordings keep the order they were recorded in.
    func testARoomPlacesWhatWasSentThereByWhenItWasSent() throws {
        let store = try MessageStore(folder: folder)
        try store.matrix.updateRoom(RoomUpdate(id: "!room", membership: .join))
        let day: Double = 86_400, start: Double = 1_700_000_000
        let old = try store.beginRecording(title: "Recorded on day one", at: Date(timeIntervalSince1970: start))
        try store.finishRecording(old.id, duration: 2, levels: LevelTrack())
        let later = try recorded(store, title: "Recorded now")
        let bob = try XCTUnwrap(try store.matrix.receive(incoming("$bob", at: start + 2 * day)))
        let unsent = try store.beginRecording(title: "Never sent", at: Date(timeIntervalSince1970: start + day), roomID: "!room")
        try store.finishRecording(unsent.id, duration: 2, levels: LevelTrack())
        try store.matrix.enqueueSend(old.id, roomID: "!room", transactionID: "t1", at: Date(timeIntervalSince1970: start + 3 * day))

        XCTAssertEqual(try store.shownIDs(in: .room("!room")), [unsent.id, bob.id, old.id],
                       "sent on day four, after Bob's of day three")
        XCTAssertEqual(try store.shownTimes(matching: nil, in: .room("!room")).last?.time,
                       Date(timeIntervalSince1970: start + 3 * day))
        XCTAssertEqual(try store.shownIDs(in: .recordings), [old.id, unsent.id, later.id], "by when they were recorded")
        let dayFour = Date(timeIntervalSince1970: start + 3 * day)..<Date(timeIntervalSince1970: start + 4 * day)
        XCTAssertEqual(try store.searchIDs(SearchQuery(words: [], periods: [dayFour]), in: .room("!room")), [old.id],
                       "in the room, a day's messages are those sent that day")
        XCTAssertEqual(try store.searchIDs(SearchQuery(words: [], periods: [dayFour]), in: .recordings), [])
    }

    func testRoomsAreNamedAndOrderedAsASidebarShowsThem() throws {
        let store = try MessageStore(folder: folder)
        try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: "@me:example.org", homeserver: "https://example.org",
                                                       deviceID: "D"))
        try store.matrix.updateRoom(RoomUpdate(id: "!old", membership: .join, name: "Old news"))
        try store.matrix.updateRoom(RoomUpdate(id: "!dm", membership: .join))
        try store.matrix.setMember(roomID: "!dm", userID: "@me:example.org", displayName: "Me", membership: "join")
        try store.matrix.setMember(roomID: "!dm", userID: "@ann:example.org", displayName: "Ann", membership: "join")
        try store.matrix.updateRoom(RoomUpdate(id: "!new", membership: .invite, name: "Party", inviter: "@ann:example.org"))
        try store.matrix.updateRoom(RoomUpdate(id: "!gone", membership: .leave, name: "Left"))
        try store.matrix.receive(incoming("$1", room: "!old", at: 1_000))
        try store.matrix.receive(incoming("$2", room: "!dm", sender: "@ann:example.org", at: 2_000))

        let rooms = try store.matrix.rooms()
        XCTAssertEqual(rooms.map(\.id), ["!new", "!dm", "!old"], "invitations, then newest activity; left rooms gone")
        XCTAssertEqual(rooms.map(\.displayName), ["Party", "Ann", "Old news"])
        XCTAssertEqual(rooms[1].lastSenderName, "Ann")
        // A later update without a name keeps the name; encryption, once on, stays on.
        try store.matrix.updateRoom(RoomUpdate(id: "!old", membership: .join, isEncrypted: true))
        try store.matrix.updateRoom(RoomUpdate(id: "!old", membership: .join, isEncrypted: false))
        XCTAssertEqual(try store.matrix.room("!old")?.name, "Old news")
        XCTAssertEqual(try store.matrix.room("!old")?.isEncrypted, true)

        // Another account: its rooms are not this one's; no message is lost.
        try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: "@other:example.org", homeserver: "https://example.org",
                                                       deviceID: "E"))
        XCTAssertEqual(try store.matrix.rooms(), [])
        XCTAssertEqual(try store.shownIDs(in: .all).count, 2)
        XCTAssertNil(store.matrix.syncToken)
    }

    func testASalvageKeepsRoomsOutboxAndReceivedMessages() throws {
        do {
            let store = try MessageStore(folder: folder)
            try store.matrix.updateRoom(RoomUpdate(id: "!room", membership: .join, name: "Kept"))
            try store.matrix.setMember(roomID: "!room", userID: "@bob:example.org", displayName: "Bob", membership: "join")
            let message = try recorded(store, room: "!room")
            try store.matrix.enqueueSend(message.id, roomID: "!room", transactionID: "txn-kept")
            try store.matrix.receive(incoming("$kept"))
        }
        try damageDatabaseHeader(in: folder)

        let store = try MessageStore(folder: folder)
        XCTAssertEqual(try store.matrix.room("!room")?.name, "Kept")
        XCTAssertEqual(try store.matrix.outboxEntry("txn-kept")?.state, .queued)
        XCTAssertTrue(try store.matrix.hasEvent("$kept"))
        XCTAssertEqual(store.matrix.memberName(roomID: "!room", userID: "@bob:example.org"), "Bob")
    }
}
