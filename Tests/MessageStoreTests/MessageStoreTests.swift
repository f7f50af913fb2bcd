import AudioEngine
import CSQLite
import Foundation
import HarkTestSupport
import Levels
@testable import MessageStore
import StoreAudio
import XCTest

/// A real store on disk, real audio made by gst-launch-1.0 or written sample
/// by sample.
final class MessageStoreTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws {
        scratch = try ScratchFolder()
    }

    override func tearDownWithError() throws {
        // Every test leaves a sound database behind.
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("hark.sqlite3").path) {
            XCTAssertEqual(try MessageStore(folder: folder).integrityCheck(), "ok")
        }
        scratch = nil
    }

    private func opus(_ name: String, seconds: Int = 2) throws -> String {
        let path = scratch.path(name)
        try gstLaunch("audiotestsrc num-buffers=\(seconds * 50) samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
        return path
    }

    private func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    private func storeContents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("messages").path)) ?? []).sorted()
    }

    func testOpeningCreatesPrivateFoldersAndAWALDatabase() throws {
        let store = try MessageStore(folder: folder)
        XCTAssertEqual(try permissions(folder.path), 0o700)
        XCTAssertEqual(try permissions(store.messagesFolder.path), 0o700)
        XCTAssertEqual(try permissions(store.databasePath), 0o600)
        var mode = ""
        try store.run("PRAGMA journal_mode") { mode = $0.text(0) ?? "" }
        XCTAssertEqual(mode, "wal")
        var version = 0
        try store.run("PRAGMA user_version") { version = Int($0.integer(0)) }
        XCTAssertEqual(version, Schema.version)
        XCTAssertTrue(store.recovery.isEmpty)
    }

    func testTheDefaultFolderFollowsXDGDataHome() {
        setenv("XDG_DATA_HOME", "/tmp/hark-xdg-test", 1)
        defer { unsetenv("XDG_DATA_HOME") }
        XCTAssertEqual(MessageStore.defaultFolder.path, "/tmp/hark-xdg-test/hark")
    }

    func testARecordingExistsFromItsStartAndKeepsItsLevels() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.beginRecording(title: "Shopping list")
        XCTAssertEqual(try store.message(message.id).state, .recording)
        XCTAssertEqual(try store.count(), 1)
        let levels = LevelTrack(rms: [-20, -30.5, -100], peak: [-10, -12, -100])
        try FileManager.default.copyItem(atPath: try opus("take.ogg"), toPath: store.audioPath(of: message))
        try store.finishRecording(message.id, duration: 2, levels: levels)
        let finished = try store.message(message.id)
        XCTAssertEqual(finished.state, .ready)
        XCTAssertEqual(finished.duration, 2)
        XCTAssertEqual(try store.levels(of: message.id), levels, "cached, never recomputed")
        XCTAssertEqual(try permissions(store.audioPath(of: finished)), 0o600)
    }

    func testImportCopiesTheFileUnchangedWithItsLevels() throws {
        let store = try MessageStore(folder: folder)
        let source = try opus("interview.ogg", seconds: 3)
        let message = try store.importFile(source)
        XCTAssertEqual(message.title, "interview")
        XCTAssertEqual(message.state, .ready)
        XCTAssertEqual(message.duration, 3, accuracy: 0.05)
        XCTAssertEqual(FileManager.default.contents(atPath: store.audioPath(of: message)),
                       FileManager.default.contents(atPath: source))
        XCTAssertEqual(try permissions(store.audioPath(of: message)), 0o600)
        XCTAssertEqual(try store.levels(of: message.id)?.count, 60)

        let wav = scratch.path("memo.wav")
        try WAVFile.write([.init(seconds: 1.5, amplitude: 0.5)], to: URL(fileURLWithPath: wav))
        let second = try store.importFile(wav)
        XCTAssertEqual(second.codec, "wav")
        XCTAssertEqual(second.duration, 1.5, accuracy: 0.001)
        XCTAssertEqual(storeContents().count, 2, "no partial copies left behind")
    }

    func testBadImportsFailAndLeaveTheStoreExactlyAsItWas() throws {
        let store = try MessageStore(folder: folder)
        _ = try store.importFile(try opus("good.ogg"))
        let empty = scratch.path("empty.ogg")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let random = scratch.path("random.bin")
        try Data((0..<32_768).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: random))
        let cut = scratch.path("cut.ogg")
        try Data(try Data(contentsOf: URL(fileURLWithPath: try opus("whole.ogg"))).prefix(50)).write(to: URL(fileURLWithPath: cut))
        let directory = scratch.path("a-folder")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)

        let before = (try store.list(), storeContents(), try store.count())
        for path in [empty, random, cut, "/etc/passwd", directory, scratch.path("missing.ogg")] {
            XCTAssertThrowsError(try store.importFile(path), path) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains(path), text)
                XCTAssertFalse(text.contains("\n"))
            }
        }
        XCTAssertEqual(try store.list(), before.0)
        XCTAssertEqual(storeContents(), before.1)
        XCTAssertEqual(try store.count(), before.2)
    }

    func testRenameDeleteUndeleteAndPurge() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(try opus("note.ogg"))
        try store.rename(message.id, to: "Call back Sam")
        XCTAssertEqual(try store.message(message.id).title, "Call back Sam")

        try store.delete(message.id)
        XCTAssertEqual(try store.count(), 0)
        XCTAssertEqual(try store.list(), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.audioPath(of: message)), "undoable: the file stays")
        try store.undelete(message.id)
        XCTAssertEqual(try store.message(message.id).state, .ready)
        XCTAssertEqual(try store.count(), 1)

        try store.purge(message.id)  // not deleted: nothing happens
        XCTAssertEqual(try store.count(), 1)
        try store.delete(message.id)
        try store.purge(message.id)
        XCTAssertThrowsError(try store.message(message.id))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.audioPath(of: message)))
        XCTAssertNil(try store.levels(of: message.id), "levels go with their message")

        XCTAssertThrowsError(try store.rename("no-such-id", to: "x")) { error in
            XCTAssertEqual(error as? StoreError, .noSuchMessage("no-such-id"))
        }
    }

    func testExportNeverOverwritesUnlessAsked() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(try opus("note.ogg"))
        let target = scratch.path("exported.ogg")
        try store.export(message.id, to: target)
        XCTAssertEqual(FileManager.default.contents(atPath: target), FileManager.default.contents(atPath: store.audioPath(of: message)))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: target))
        XCTAssertThrowsError(try store.export(message.id, to: target)) { error in
            XCTAssertEqual(error as? StoreError, .exists(path: target))
        }
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "mine")
        try store.export(message.id, to: target, overwrite: true)
        XCTAssertEqual(FileManager.default.contents(atPath: target), FileManager.default.contents(atPath: store.audioPath(of: message)))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains("hark-export") }, [],
                       "no partial copy left beside it")
    }

    func testOutgoingCopiesFollowTheTitleAndGoAfterADay() throws {
        let outgoing = scratch.url.appendingPathComponent("outgoing")
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(try opus("note.ogg"))
        try store.rename(message.id, to: "First name")
        let first = try store.outgoingCopy(message.id, in: outgoing)
        XCTAssertEqual(URL(fileURLWithPath: first).lastPathComponent, "First name.ogg")
        try store.rename(message.id, to: "Second name")
        let second = try store.outgoingCopy(message.id, in: outgoing)
        XCTAssertEqual(URL(fileURLWithPath: second).lastPathComponent, "Second name.ogg")
        XCTAssertFalse(FileManager.default.fileExists(atPath: first), "one copy per message, under its current name")
        XCTAssertEqual(FileManager.default.contents(atPath: second), FileManager.default.contents(atPath: store.audioPath(of: message)))

        MessageStore.pruneOutgoingCopies(in: outgoing, now: Date().addingTimeInterval(60))
        XCTAssertTrue(FileManager.default.fileExists(atPath: second), "a recent copy stays: a paste may come later")
        MessageStore.pruneOutgoingCopies(in: outgoing, now: Date().addingTimeInterval(MessageStore.outgoingLifetime + 3600))
        XCTAssertFalse(FileManager.default.fileExists(atPath: second), "gone after a day")
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.audioPath(of: message)), "the message itself untouched")
    }

    /// A drag or a copy of a message whose file is a symbolic link (recovery
    /// adopts links within the store; older stores may hold others) hands out
    /// the audio in a regular file, and the linked file keeps its mode.
    func testAnOutgoingCopyOfALinkedMessageIsItsAudioInARegularFile() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(try opus("note.ogg"))
        let stored = store.audioPath(of: message)
        let original = try XCTUnwrap(FileManager.default.contents(atPath: stored))
        let aside = scratch.path("aside.ogg")
        XCTAssertEqual(rename(stored, aside), 0)
        XCTAssertEqual(chmod(aside, 0o600), 0)
        try FileManager.default.createSymbolicLink(atPath: stored, withDestinationPath: aside)
        let copy = try store.outgoingCopy(message.id, in: scratch.url.appendingPathComponent("outgoing"))
        var status = stat()
        XCTAssertEqual(lstat(copy, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFREG, "a regular file, not a link")
        XCTAssertEqual(FileManager.default.contents(atPath: copy), original)
        XCTAssertEqual(try permissions(aside), 0o600, "the linked file stays private")
    }

    func testExportNeverReplacesAFolder() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(try opus("note.ogg"))
        let folderTarget = scratch.path("a folder")
        try FileManager.default.createDirectory(atPath: folderTarget, withIntermediateDirectories: false)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: folderTarget + "/inside.txt"))
        XCTAssertThrowsError(try store.export(message.id, to: folderTarget, overwrite: true))
        XCTAssertEqual(try String(contentsOfFile: folderTarget + "/inside.txt", encoding: .utf8), "keep me")
    }

    func testAnExportThatCannotBeWrittenKeepsTheFileItWouldReplace() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(try opus("note.ogg"))
        let locked = scratch.path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        let old = locked + "/old.ogg"
        try Data("old take".utf8).write(to: URL(fileURLWithPath: old))
        chmod(locked, 0o500)
        defer { chmod(locked, 0o700) }
        guard access(locked, W_OK) != 0 else { throw XCTSkip("root writes anywhere: this needs an ordinary user") }
        XCTAssertThrowsError(try store.export(message.id, to: old, overwrite: true))
        XCTAssertEqual(try String(contentsOfFile: old, encoding: .utf8), "old take")
    }

    func testListPagesNewestFirstAndSearchTakesWildcardsLiterally() throws {
        let store = try MessageStore(folder: folder)
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        for index in 0..<25 {
            _ = try store.beginRecording(title: index == 7 ? "50% off_sale" : "Note \(index)",
                                         at: base.addingTimeInterval(Double(index) * 60))
        }
        XCTAssertEqual(try store.count(), 25)
        let first = try store.list(offset: 0, limit: 10)
        XCTAssertEqual(first.map(\.title).first, "Note 24")
        XCTAssertEqual(first.map(\.createdAt), first.map(\.createdAt).sorted(by: >))
        let last = try store.list(offset: 20, limit: 10)
        XCTAssertEqual(last.count, 5)
        XCTAssertEqual(last.last?.title, "Note 0")
        // The search the window and `hark search` use: words, not wildcards.
        for message in try store.list() { try store.finishRecording(message.id, duration: 1, levels: LevelTrack()) }
        func found(_ words: String) throws -> [String] {
            try store.searchIDs(SearchQuery(words), in: .all).map { try store.message($0).title }.sorted()
        }
        XCTAssertEqual(try found("note 2"), ["Note 2", "Note 20", "Note 21", "Note 22", "Note 23", "Note 24"])
        XCTAssertEqual(try found("50% off_"), ["50% off_sale"])
        XCTAssertEqual(try found("_ale"), [], "“_” is no wildcard")
        XCTAssertEqual(try found("n%e"), [], "nor is “%”")
    }

    func testShownIDsAreOldestFirstWithoutDeletedOrUnfinishedOnes() throws {
        let store = try MessageStore(folder: folder)
        let older = try store.beginRecording(at: Date(timeIntervalSince1970: 1_000))
        try store.finishRecording(older.id, duration: 1, levels: LevelTrack())
        let newer = try store.beginRecording(at: Date(timeIntervalSince1970: 2_000))
        try store.finishRecording(newer.id, duration: 1, levels: LevelTrack())
        let deleted = try store.beginRecording(at: Date(timeIntervalSince1970: 1_500))
        try store.finishRecording(deleted.id, duration: 1, levels: LevelTrack())
        try store.delete(deleted.id)
        _ = try store.beginRecording(at: Date(timeIntervalSince1970: 3_000))  // still recording
        XCTAssertEqual(try store.shownIDs(), [older.id, newer.id])
        XCTAssertEqual(try store.shownIDs(), try store.list().filter { $0.state != .recording }.reversed().map(\.id),
                       "the order `list` gives, reversed")
    }

    func testTheNewestShownAreTheEndOfTheWholeListInItsOrder() throws {
        let store = try MessageStore(folder: folder)
        var made: [String] = []
        // Two at the same second: their order (by id, descending) holds in the page too.
        for seconds in [1_000.0, 2_000, 2_000, 3_000, 4_000] {
            let message = try store.beginRecording(at: Date(timeIntervalSince1970: seconds))
            try store.finishRecording(message.id, duration: 1, levels: LevelTrack())
            made.append(message.id)
        }
        let deleted = try store.beginRecording(at: Date(timeIntervalSince1970: 5_000))
        try store.finishRecording(deleted.id, duration: 1, levels: LevelTrack())
        try store.delete(deleted.id)
        let whole = try store.shownTimes(matching: nil)
        XCTAssertEqual(Set(whole.map(\.id)), Set(made))
        for newest in [1, 3, 5, 9] {
            let page = try store.shownTimes(matching: nil, newest: newest)
            XCTAssertEqual(page.map(\.id), whole.suffix(newest).map(\.id), "the newest \(newest)")
            XCTAssertEqual(page.map(\.time), whole.suffix(newest).map(\.time))
        }
    }

    func testPlayPositionIsRemembered() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(try opus("note.ogg"))
        try store.setPlayPosition(message.id, 1.25)
        XCTAssertEqual(try MessageStore(folder: folder).message(message.id).playPosition, 1.25)
    }

    func testSettingsAreRememberedAndKeptApartFromTheStoresOwnBookkeeping() throws {
        let store = try MessageStore(folder: folder)
        XCTAssertNil(store.setting("microphone"))
        try store.setSetting("microphone", "alsa_input.usb-mic")
        try store.setSetting("files_checked", "mine")
        XCTAssertEqual(try MessageStore(folder: folder).setting("microphone"), "alsa_input.usb-mic")
        var bookkeeping: [String] = []
        try store.run("SELECT value FROM meta WHERE key = 'files_checked'") { bookkeeping.append($0.text(0) ?? "") }
        XCTAssertNotEqual(bookkeeping, ["mine"], "a setting never overwrites the store's own entries")
        try store.setSetting("microphone", nil)
        XCTAssertNil(try MessageStore(folder: folder).setting("microphone"))
    }

    func testImportWithAnAnalysisDoneBeforeStoresThatAnalysis() throws {
        let path = try opus("analysed.ogg", seconds: 3)
        let analysis = try Analyzer.analyze(path: path)
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(path, title: "Analysed first", analysis: analysis)
        XCTAssertEqual(message.title, "Analysed first")
        XCTAssertEqual(message.duration, analysis.duration)
        let stored = try XCTUnwrap(try store.levels(of: message.id))
        XCTAssertEqual(stored.rms.count, analysis.levels.rms.count)
        // Stored in half-decibel steps.
        XCTAssertLessThanOrEqual(zip(stored.rms, analysis.levels.rms).map { abs($0 - $1) }.max() ?? 99, 0.25)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.audioPath(of: message))),
                       try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testAVersionOneDatabaseIsUpgradedWithItsMessages() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("messages"), withIntermediateDirectories: true)
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(folder.appendingPathComponent("hark.sqlite3").path, &db), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(db, Schema.migrations[0] + """
            PRAGMA user_version = 1;
            INSERT INTO messages (id, title, created_at, duration, file_name, codec, state)
            VALUES ('old-one', 'From version 1', 1600000000, 4.5, 'old-one.ogg', 'opus', 'missing');
            """, nil, nil, nil), SQLITE_OK)
        sqlite3_close(db)

        let store = try MessageStore(folder: folder)
        var version = 0
        try store.run("PRAGMA user_version") { version = Int($0.integer(0)) }
        XCTAssertEqual(version, Schema.version)
        XCTAssertEqual(try store.message("old-one").title, "From version 1")
        var indexes: [String] = []
        try store.run("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'messages_by_title'") {
            indexes.append($0.text(0) ?? "")
        }
        XCTAssertEqual(indexes, ["messages_by_title"])
    }
}
