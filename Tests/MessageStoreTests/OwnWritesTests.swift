import Foundation
import HarkTestSupport
import Levels
@testable import MessageStore
import StoreAudio
import XCTest

/// Hark knows what it writes into `messages/`: after its own imports,
/// recordings, discards and purges, the next open has nothing to compare
/// (a large store would spend seconds on it); a change made by anyone else,
/// before or between Hark's own, is still compared and found.
final class OwnWritesTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    private func opus(_ name: String) throws -> String {
        let path = scratch.path(name)
        if !FileManager.default.fileExists(atPath: path) {
            try gstLaunch("audiotestsrc num-buffers=50 samplesperbuffer=960 volume=0.3 "
                          + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
        }
        return path
    }

    /// Another process (cp, rm) changing the folder behind Hark's back.
    private func shell(_ command: String, _ arguments: [String]) throws {
        let (status, output) = try ChildProcess.run(command, arguments)
        XCTAssertEqual(status, 0, output)
    }

    /// What the next open's recovery does: whether it compares, and what it finds.
    private func nextOpen() throws -> RecoveryReport { try MessageStore(folder: folder).recover() }

    /// A recording as the CLI and the window make one: its row, its lock,
    /// the file its recorder creates at start, its end.
    private func record(_ store: MessageStore) throws -> Message {
        let message = try store.beginRecording()
        var lock = RecordingLock(store: store, id: message.id)
        let source = try opus("take.ogg")
        try XCTUnwrap(lock).starting { try FileManager.default.copyItem(atPath: source, toPath: store.audioPath(of: message)) }
        try store.finishRecording(message.id, duration: 1, levels: LevelTrack(intervalMilliseconds: 50, rms: [-20], peak: [-10]))
        lock = nil
        return message
    }

    func testHarksOwnWritesLeaveTheNextOpenNothingToCompare() throws {
        let store = try MessageStore(folder: folder)
        XCTAssertTrue(try store.recover().comparedFiles, "a new store is compared once")
        XCTAssertFalse(try nextOpen().comparedFiles, "nothing changed")

        let imported = try store.importFile(try opus("note.ogg"))
        XCTAssertFalse(try MessageStore(folder: folder).filesChangedSinceComparison, "after an import")
        XCTAssertFalse(try nextOpen().comparedFiles, "after an import")

        let recorded = try record(store)
        XCTAssertFalse(try nextOpen().comparedFiles, "after a recording")

        let discarded = try store.beginRecording()
        var lock = RecordingLock(store: store, id: discarded.id)
        let source = try opus("take.ogg")
        try XCTUnwrap(lock).starting { try FileManager.default.copyItem(atPath: source, toPath: store.audioPath(of: discarded)) }
        try store.discardRecording(discarded.id)
        lock = nil
        try store.delete(imported.id)
        try store.purge(imported.id)
        XCTAssertFalse(try nextOpen().comparedFiles, "after a discarded recording and a purge")
        XCTAssertEqual(try store.list().map(\.id), [recorded.id])
    }

    func testAFilePlantedBehindHarksBackIsStillAdopted() throws {
        let store = try MessageStore(folder: folder)
        try store.recover()
        _ = try store.importFile(try opus("note.ogg"))
        try shell("/bin/cp", [try opus("note.ogg"), store.messagesFolder.appendingPathComponent("planted.ogg").path])
        XCTAssertTrue(try MessageStore(folder: folder).filesChangedSinceComparison)
        let report = try nextOpen()
        XCTAssertTrue(report.comparedFiles)
        XCTAssertEqual(report.adoptedFiles, ["planted.ogg"])
        XCTAssertFalse(try nextOpen().comparedFiles, "compared once")
    }

    func testAFileRemovedByAnotherProcessIsFoundMissing() throws {
        let store = try MessageStore(folder: folder)
        try store.recover()
        let message = try store.importFile(try opus("note.ogg"))
        try shell("/bin/rm", [store.audioPath(of: message)])
        let report = try nextOpen()
        XCTAssertTrue(report.comparedFiles)
        XCTAssertEqual(report.markedMissing, [message.id])
    }

    /// Hark's own change must start where the last comparison left the
    /// folder: one made after another's change does not hide that change.
    func testAChangeBeforeHarksOwnIsNotHiddenByIt() throws {
        let store = try MessageStore(folder: folder)
        try store.recover()
        try shell("/bin/cp", [try opus("note.ogg"), store.messagesFolder.appendingPathComponent("first.ogg").path])
        _ = try store.importFile(try opus("note.ogg"))
        XCTAssertEqual(try nextOpen().adoptedFiles, ["first.ogg"])
    }

    /// Nor one that comes between two of Hark's own: the lock's file, then
    /// the recording's.
    func testAChangeBetweenHarksOwnIsNotHiddenByThem() throws {
        let store = try MessageStore(folder: folder)
        try store.recover()
        let message = try store.beginRecording()
        let lock = try XCTUnwrap(RecordingLock(store: store, id: message.id))
        try shell("/bin/cp", [try opus("note.ogg"), store.messagesFolder.appendingPathComponent("between.ogg").path])
        try lock.starting { try FileManager.default.copyItem(atPath: try opus("take.ogg"), toPath: store.audioPath(of: message)) }
        let report = try nextOpen()
        XCTAssertTrue(report.comparedFiles)
        XCTAssertEqual(report.adoptedFiles, ["between.ogg"], "the live recording is left alone")
        withExtendedLifetime(lock) {}
    }

    /// The cheap part of recovery (interrupted recordings) never compares.
    func testInterruptedRecordingsAreRecoveredWithoutComparingTheFiles() throws {
        let store = try MessageStore(folder: folder)
        try store.recover()
        let message = try store.beginRecording()
        try shell("/bin/cp", [try opus("note.ogg"), store.audioPath(of: message)])  // its recorder, killed
        let reopened = try MessageStore(folder: folder)
        XCTAssertEqual(try reopened.recoverInterruptedRecordings().recoveredRecordings, [message.id])
        XCTAssertTrue(reopened.filesChangedSinceComparison, "left for compareFiles")
        XCTAssertEqual(try reopened.message(message.id).state, .ready)
    }

    /// A short page comes off the newest-first index: its rows only, never a
    /// scan of the table and a sort.
    func testAShortPageIsReadOffTheIndex() throws {
        let store = try MessageStore(folder: folder)
        for index in 0..<30 {
            try store.insert(Message(id: "m\(index)", title: "Message \(index)", createdAt: Date(timeIntervalSince1970: Double(index)),
                                     duration: 1, fileName: "m\(index).ogg", codec: "opus", state: index == 29 ? .deleted : .ready,
                                     deletedAt: nil, playPosition: 0), levels: nil)
        }
        // The plan SQLite chooses for `eachListed`'s query, one step a line.
        var steps: [String] = []
        try store.run("EXPLAIN QUERY PLAN SELECT id FROM messages WHERE state != 'deleted' ORDER BY created_at DESC, id LIMIT ?",
                      [.integer(10)]) { steps.append($0.text(3) ?? "") }
        let plan = steps.joined(separator: "; ")
        XCTAssertTrue(plan.contains("USING INDEX messages_by_time"), plan)
        XCTAssertFalse(plan.contains("TEMP B-TREE"), plan)
        var listed: [String] = []
        try store.eachListed(limit: 3) { listed.append($0.id) }
        XCTAssertEqual(listed, ["m28", "m27", "m26"])
        listed = []
        try store.eachListed { listed.append($0.id) }
        XCTAssertEqual(listed.count, 29, "all but the deleted one")
    }
}
