import CSQLite
import Foundation
import HarkTestSupport
import Levels
@testable import MessageStore
import XCTest

/// Transcripts that came inside their message (the sender's words) and the
/// words a send carries: migration 17, the queue passing over a sender's
/// transcript, search finding it, and the outbox keeping a send's words.
final class SenderTranscriptStoreTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    private func incoming(_ event: String, words: String?) -> IncomingAudio {
        IncomingAudio(eventID: event, roomID: "!room", sender: "@bob:example.org", title: "Dentist",
                      sentAt: Date(timeIntervalSince1970: 1_700_000_000), duration: 3, fileExtension: "ogg",
                      mediaURL: "mxc://example.org/\(event.dropFirst())", levels: nil, unread: true,
                      senderTranscript: words)
    }

    func testAVersionSixteenStoreMarksItsTranscriptsAsMadeHereAndItsSendsAsWithoutWords() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("messages"), withIntermediateDirectories: true)
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(folder.appendingPathComponent("hark.sqlite3").path, &db), SQLITE_OK)
        SearchTextFunction.register(on: try XCTUnwrap(db))  // the index's triggers call it
        XCTAssertEqual(sqlite3_exec(db, Schema.migrations.prefix(16).joined(separator: "\n") + """
            PRAGMA user_version = 16;
            INSERT INTO messages (id, title, created_at, duration, file_name, codec, state, transcript, transcript_state)
            VALUES ('done', 'Done', 1600000000, 4.5, 'done.ogg', 'opus', 'ready', 'See you at ten', 'done'),
                   ('empty', 'Empty', 1600000001, 6, 'empty.ogg', 'opus', 'ready', '', 'empty'),
                   ('none', 'None', 1600000002, 6, 'none.ogg', 'opus', 'ready', NULL, NULL);
            INSERT INTO outbox (transaction_id, message_id, room_id, state, queued_at) VALUES ('t1', 'done', '!room', 'sent', 2);
            """, nil, nil, nil), SQLITE_OK)
        sqlite3_close(db)

        let store = try MessageStore(folder: folder)
        XCTAssertEqual(try ["done", "empty", "none"].map { try store.message($0).transcriptSource }, [.local, .local, nil])
        XCTAssertNil(try store.matrix.outboxEntry("t1")?.caption)
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testAReceivedMessagesWordsAreItsSendersTranscriptFoundBySearchAndNeverQueued() throws {
        let store = try MessageStore(folder: folder)
        try store.setSetting(MessageStore.transcriptionSetting, "on")
        try store.matrix.updateRoom(RoomUpdate(id: "!room", membership: .join))
        let captioned = try XCTUnwrap(try store.matrix.receive(incoming("$words", words: "Dentist moved to Thursday at 10")))
        let plain = try XCTUnwrap(try store.matrix.receive(incoming("$plain", words: nil)))
        XCTAssertEqual(captioned.transcript, "Dentist moved to Thursday at 10")
        XCTAssertEqual(captioned.transcriptState, .done)
        XCTAssertEqual(captioned.transcriptSource, .sender)
        XCTAssertEqual(captioned.title, "Dentist", "the title stays the sender's")
        XCTAssertEqual(try store.transcriptSegments(of: captioned.id), [TranscriptSegment(start: 0, end: 3, text: "Dentist moved to Thursday at 10")])
        XCTAssertEqual(try store.searchIDs(SearchQuery("thursday ten"), in: .all), [captioned.id], "numbers both ways, as a local transcript")

        for message in [captioned, plain] {
            let file = try store.matrix.createDownloadFile(of: message)
            try Data("OggS".utf8).write(to: URL(fileURLWithPath: file.path))
            try store.matrix.adoptDownload(message.id, from: file, analysis: Analysis(duration: 3, levels: LevelTrack()))
        }
        XCTAssertEqual(try store.message(plain.id).transcriptState, .queued)
        XCTAssertEqual(try store.message(captioned.id).transcriptState, .done, "its audio here, it is not queued")
        XCTAssertEqual(try store.queueAllUntranscribed(), [plain.id], "nor by Transcribe All")
        XCTAssertEqual(try store.nextQueuedTranscription()?.id, plain.id)
        XCTAssertEqual(try store.transcriptToSend(of: captioned.id), "Dentist moved to Thursday at 10")
        XCTAssertNil(try store.transcriptToSend(of: plain.id), "queued: no words yet")
        try store.storeTranscript(plain.id, segments: [TranscriptSegment(start: 0, end: 3, text: " Call me back.")])
        XCTAssertEqual(try store.message(plain.id).transcriptSource, .local)
    }

    func testASendKeepsTheWordsItWasQueuedWith() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.beginRecording(title: "Dentist", roomID: "!room")
        _ = FileManager.default.createFile(atPath: store.audioPath(of: message), contents: Data("OggS".utf8))
        try store.finishRecording(message.id, duration: 2, levels: LevelTrack())
        try store.storeTranscript(message.id, segments: [TranscriptSegment(start: 0, end: 2, text: "Moved to Thursday.")])
        try store.matrix.enqueueSend(message.id, roomID: "!room", transactionID: "with", caption: "Moved to Thursday.")
        try store.matrix.enqueueSend(message.id, roomID: "!other", transactionID: "without")
        try store.storeTranscript(message.id, segments: [TranscriptSegment(start: 0, end: 2, text: "Moved to Friday.")])
        XCTAssertEqual(try store.matrix.outboxEntry("with")?.caption, "Moved to Thursday.", "as chosen, whatever the transcript became")
        XCTAssertNil(try store.matrix.outboxEntry("without")?.caption)
        try store.matrix.markAttemptFailed("with", error: "refused", retryAt: nil)
        try store.matrix.retrySend("with")
        XCTAssertEqual(try store.matrix.outboxEntry("with")?.caption, "Moved to Thursday.", "a retry sends the same words")
    }

    func testTheSwitchIsOffUntilTurnedOnAndRemembered() throws {
        do {
            let store = try MessageStore(folder: folder)
            XCTAssertFalse(store.sendsWithTranscript)
            try store.setSetting(MessageStore.sendWithTranscriptSetting, "on")
        }
        XCTAssertTrue(try MessageStore(folder: folder).sendsWithTranscript)
    }
}
