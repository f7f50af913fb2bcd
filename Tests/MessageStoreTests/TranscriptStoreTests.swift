import CSQLite
import Foundation
import HarkTestSupport
import Levels
@testable import MessageStore
import StoreAudio
import XCTest

/// Transcripts in the store, without the engine: the migration from version
/// 7 (titles given before count as typed), the queue (newest first, only when
/// on), titles from the first words, search over transcripts with numbers
/// both ways, a salvage keeping them.
final class TranscriptStoreTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    private func recorded(_ store: MessageStore, title: String? = nil, at seconds: Double = 1_700_000_000) throws -> String {
        let message = try store.beginRecording(title: title, at: Date(timeIntervalSince1970: seconds))
        _ = FileManager.default.createFile(atPath: store.audioPath(of: message), contents: Data("OggS".utf8))
        try store.finishRecording(message.id, duration: 2, levels: LevelTrack())
        return message.id
    }

    private func found(_ store: MessageStore, _ words: String) throws -> [String] {
        try store.searchIDs(SearchQuery(words), in: .all)
    }

    func testSegmentsAreJoinedWithOneSpaceAndNoneBetweenChineseOnes() {
        func joined(_ parts: [String]) -> String {
            MessageStore.transcriptText(of: parts.enumerated().map { TranscriptSegment(start: Double($0.offset), end: Double($0.offset + 1), text: $0.element) })
        }
        XCTAssertEqual(joined([" Dentist moved to Thursday.", " Call me back. ", "  "]), "Dentist moved to Thursday. Call me back.")
        XCTAssertEqual(joined(["牙医改到周四。", " 请回电话。"]), "牙医改到周四。请回电话。")
        XCTAssertEqual(joined(["会议在 10 点", "Zoom link follows"]), "会议在 10 点 Zoom link follows")
        XCTAssertEqual(joined([]), "")
    }

    func testAVersionSevenStoreKeepsItsTitlesAsTypedAndSearchesThem() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("messages"), withIntermediateDirectories: true)
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(folder.appendingPathComponent("hark.sqlite3").path, &db), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(db, Schema.migrations.prefix(7).joined(separator: "\n") + """
            PRAGMA user_version = 7;
            INSERT INTO messages (id, title, created_at, duration, file_name, codec, state)
            VALUES ('default', 'Voice message', 1600000000, 4.5, 'default.ogg', 'opus', 'ready'),
                   ('named', 'Dentist on Monday', 1600000001, 6, 'named.ogg', 'opus', 'ready');
            """, nil, nil, nil), SQLITE_OK)
        sqlite3_close(db)

        let store = try MessageStore(folder: folder)
        XCTAssertFalse(try store.message("default").titleTyped)
        XCTAssertTrue(try store.message("named").titleTyped)
        XCTAssertEqual(try store.message("named").transcriptState, TranscriptState.none)
        XCTAssertEqual(try found(store, "dentist"), ["named"], "the index was made anew with the titles")
        try store.storeTranscript("named", segments: [TranscriptSegment(start: 0, end: 2, text: "See you at 10.")])
        XCTAssertEqual(try store.message("named").title, "Dentist on Monday", "a title given before is kept")
        try store.storeTranscript("default", segments: [TranscriptSegment(start: 0, end: 2, text: "Call me back.")])
        XCTAssertEqual(try store.message("default").title, "Call me back")
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    /// A take cut short by a crash and recovered at the next opening is
    /// queued, as Stop would have queued it.
    func testAnInterruptedRecordingRecoveredWithTranscriptionOnIsQueued() throws {
        let store = try MessageStore(folder: folder)
        try store.setSetting(MessageStore.transcriptionSetting, "on")
        let message = try store.beginRecording()
        try gstLaunch("audiotestsrc num-buffers=100 ! audioconvert ! opusenc ! oggmux ! filesink location=\(store.audioPath(of: message))")
        let reopened = try MessageStore(folder: folder)
        XCTAssertEqual(try reopened.recoverInterruptedRecordings().recoveredRecordings, [message.id])
        XCTAssertEqual(try reopened.message(message.id).state, .ready)
        XCTAssertEqual(try reopened.message(message.id).transcriptState, .queued)
    }

    func testNewMessagesAreQueuedOnlyWhenTranscriptionIsOnAndTheQueueIsNewestFirst() throws {
        let store = try MessageStore(folder: folder)
        let off = try recorded(store, at: 1_700_000_000)
        XCTAssertEqual(try store.message(off).transcriptState, TranscriptState.none)
        XCTAssertNil(try store.nextQueuedTranscription())
        try store.setSetting(MessageStore.transcriptionSetting, "on")
        let older = try recorded(store, at: 1_700_000_100)
        let newer = try recorded(store, at: 1_700_000_200)
        XCTAssertEqual(try store.queuedTranscriptionCount(), 2)
        XCTAssertEqual(try store.nextQueuedTranscription()?.id, newer)
        try store.markTranscriptFailed(newer, reason: "the transcriber stopped")
        XCTAssertEqual(try store.nextQueuedTranscription()?.id, older)
        XCTAssertEqual(try store.queueAllUntranscribed(), [newer, older, off],
                       "never asked for, failed, or waiting in the queue: every one without a transcript, newest first")
        XCTAssertEqual(try store.nextQueuedTranscription()?.id, newer)
        XCTAssertNil(try store.transcriptError(of: newer), "queued again: the old reason goes")
    }

    func testATranscriptIsSearchedWithNumbersAsDigitsAndWordsAndNamesADefaultTitle() throws {
        let store = try MessageStore(folder: folder)
        let id = try recorded(store)
        let typed = try recorded(store, title: "Anna")
        try store.storeTranscript(id, segments: [
            TranscriptSegment(start: 0, end: 2.5, text: "Dentist moved to Thursday at 10."),
            TranscriptSegment(start: 2.5, end: 5, text: "Bring the twenty forms, please."),
        ])
        try store.storeTranscript(typed, segments: [TranscriptSegment(start: 0, end: 1, text: "Hello there.")])
        let message = try store.message(id)
        XCTAssertEqual(message.transcriptState, .done)
        XCTAssertEqual(message.transcript, "Dentist moved to Thursday at 10. Bring the twenty forms, please.")
        XCTAssertEqual(message.title, "Dentist moved to Thursday at 10. Bring…")
        XCTAssertEqual(try store.message(typed).title, "Anna")
        XCTAssertEqual(try store.transcriptSegments(of: id).map(\.start), [0, 2.5])
        for words in ["dentist", "moved", "10", "ten", "twenty", "20", "dentist forms"] {
            XCTAssertEqual(try found(store, words), [id], words)
        }
        XCTAssertEqual(try found(store, "anna"), [typed])
        XCTAssertEqual(try found(store, "hello"), [typed])
        XCTAssertEqual(try found(store, "eleven"), [])

        // Renamed by the user: typed from then on, and the old title is no longer found.
        try store.rename(id, to: "Appointment")
        XCTAssertTrue(try store.message(id).titleTyped)
        try store.storeTranscript(id, segments: [TranscriptSegment(start: 0, end: 1, text: "Something else.")])
        XCTAssertEqual(try store.message(id).title, "Appointment")
        XCTAssertEqual(try found(store, "dentist"), [])
        XCTAssertEqual(try found(store, "something"), [id])

        // Nothing said: empty, not searchable, title kept.
        let quiet = try recorded(store)
        try store.storeTranscript(quiet, segments: [])
        XCTAssertEqual(try store.message(quiet).transcriptState, .empty)
        XCTAssertEqual(try store.message(quiet).title, "Voice message")
    }

    func testTitlesFromWordsAreCutAtAWord() {
        XCTAssertEqual(TitleFromWords.title(from: "Dentist moved to Thursday at ten in the morning, call me."),
                       "Dentist moved to Thursday at ten in the…")
        XCTAssertEqual(TitleFromWords.title(from: "Call me back."), "Call me back")
        XCTAssertNil(TitleFromWords.title(from: "  "))
        let long = String(repeating: "a", count: 60)
        XCTAssertEqual(TitleFromWords.title(from: long), String(repeating: "a", count: 40) + "…")
        for text in ["One two three four five six seven eight nine ten eleven twelve", "x y z"] {
            let title = TitleFromWords.title(from: text)!
            let words = title.replacingOccurrences(of: "…", with: "").split(separator: " ")
            XCTAssertTrue(text.split(separator: " ").starts(with: words), "\(title) cuts at a word")
        }
    }

    func testNumbersAreSpelledAndReadBack() {
        XCTAssertEqual(NumberWords.spelled(0), "zero")
        XCTAssertEqual(NumberWords.spelled(10), "ten")
        XCTAssertEqual(NumberWords.spelled(42), "forty two")
        XCTAssertEqual(NumberWords.spelled(305), "three hundred five")
        XCTAssertEqual(NumberWords.spelled(2026), "two thousand twenty six")
        XCTAssertEqual(NumberWords.digits(of: "ten"), 10)
        XCTAssertEqual(NumberWords.digits(of: "thirty"), 30)
        XCTAssertNil(NumberWords.digits(of: "often"))
        XCTAssertEqual(NumberWords.searchWords(for: "At 4:30, ten people."), "At 4:30, ten people.\nfour thirty 10")
        XCTAssertEqual(NumberWords.searchWords(for: "No numbers"), "No numbers")
    }

    func testASalvageKeepsTranscriptsAndTheQueue() throws {
        let store = try MessageStore(folder: folder)
        try store.setSetting(MessageStore.transcriptionSetting, "on")
        let done = try recorded(store, at: 1)
        let queued = try recorded(store, at: 2)
        try store.storeTranscript(done, segments: [TranscriptSegment(start: 0, end: 1, text: "Keys on the table.")])
        let fresh = try Database(path: scratch.path("fresh.sqlite3"))
        try Schema.migrate(fresh)
        let count = Salvage.copy(from: store.databasePath, into: fresh)
        XCTAssertEqual(count.messages, 2)
        var rows: [String: String] = [:]
        try fresh.query("SELECT id, transcript_state, transcript, title_typed FROM messages") {
            rows[$0.text(0) ?? ""] = "\($0.text(1) ?? "-")|\($0.text(2) ?? "-")|\($0.integer(3))"
        }
        XCTAssertEqual(rows[done], "done|Keys on the table.|0")
        XCTAssertEqual(rows[queued], "queued|-|0")
        var hits = 0
        try fresh.query("SELECT count(*) FROM messages_search WHERE messages_search MATCH 'keys'") { hits = Int($0.integer(0)) }
        XCTAssertEqual(hits, 1, "the salvaged rows are indexed")
    }
}
