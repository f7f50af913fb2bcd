import Foundation
import HarkTestSupport
import Levels
@testable import MessageStore
import StoreAudio
import XCTest

final class RecoveryTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    private func opus(_ name: String, seconds: Int = 2) throws -> String {
        let path = scratch.path(name)
        try gstLaunch("audiotestsrc num-buffers=\(seconds * 50) samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
        return path
    }

    func testARecordingLeftByACrashBecomesReadyWithItsRealDuration() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.beginRecording()
        try FileManager.default.copyItem(atPath: try opus("crash.ogg", seconds: 3), toPath: store.audioPath(of: message))
        let report = try store.recover()
        XCTAssertEqual(report.recoveredRecordings, [message.id])
        let recovered = try store.message(message.id)
        XCTAssertEqual(recovered.state, .ready)
        XCTAssertEqual(recovered.duration, 3, accuracy: 0.05)
        XCTAssertEqual(try store.levels(of: message.id)?.count, 60)
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testALiveRecordingIsLeftAlone() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.beginRecording()
        try FileManager.default.copyItem(atPath: try opus("live.ogg"), toPath: store.audioPath(of: message))
        let lock = try XCTUnwrap(RecordingLock(store: store, id: message.id))
        // Another process's view: a second store on the same folder.
        let other = try MessageStore(folder: folder)
        XCTAssertNil(RecordingLock(store: other, id: message.id), "one recorder at a time")
        XCTAssertEqual(try other.recover().recoveredRecordings, [])
        XCTAssertEqual(try other.message(message.id).state, .recording)
        withExtendedLifetime(lock) {}
    }

    func testFilesWithoutARowAreAdoptedAndNonAudioIsLeftAlone() throws {
        let store = try MessageStore(folder: folder)
        try FileManager.default.copyItem(atPath: try opus("stray.ogg"), toPath: store.messagesFolder.appendingPathComponent("stray.ogg").path)
        try Data("not audio".utf8).write(to: store.messagesFolder.appendingPathComponent("notes.txt"))
        let report = try store.recover()
        XCTAssertEqual(report.adoptedFiles, ["stray.ogg"])
        let adopted = try XCTUnwrap(try store.list().first)
        XCTAssertEqual(adopted.state, .ready)
        XCTAssertEqual(adopted.duration, 2, accuracy: 0.05)
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.messagesFolder.appendingPathComponent("notes.txt").path))
        XCTAssertEqual(try store.recover().adoptedFiles, [], "adopted once")
    }

    /// A symbolic link to a file outside the store is not adopted (the store
    /// would hand out a file it does not own) but named in the report; a link
    /// to a file inside the folder is adopted as any file is.
    func testALinkToAFileOutsideTheStoreIsNamedNotAdopted() throws {
        let store = try MessageStore(folder: folder)
        let outside = try opus("outside.ogg")
        let messages = store.messagesFolder.path
        try FileManager.default.createSymbolicLink(atPath: messages + "/linked.ogg", withDestinationPath: outside)
        try FileManager.default.copyItem(atPath: try opus("inside.ogg"), toPath: messages + "/inside.ogg")
        try FileManager.default.createSymbolicLink(atPath: messages + "/alias.ogg", withDestinationPath: "inside.ogg")
        let report = try store.recover()
        XCTAssertEqual(report.linksLeftOut, ["linked.ogg"])
        XCTAssertEqual(report.adoptedFiles, ["alias.ogg", "inside.ogg"])
        XCTAssertEqual(try store.list().map(\.fileName).sorted(), ["alias.ogg", "inside.ogg"])
    }

    func testAVanishedFileMarksItsMessageMissingUntilItReturns() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(try opus("note.ogg"))
        let path = store.audioPath(of: message)
        let aside = scratch.path("aside.ogg")
        try FileManager.default.moveItem(atPath: path, toPath: aside)
        let report = try store.recover()
        XCTAssertEqual(report.markedMissing, [message.id])
        XCTAssertEqual(report.missingTitles, ["note"])
        XCTAssertEqual(report.summary, "The audio file of “note” is missing.")
        XCTAssertEqual(try store.message(message.id).state, .missing)
        XCTAssertEqual(try store.count(), 1, "shown, not hidden")
        try FileManager.default.moveItem(atPath: aside, toPath: path)
        try store.recover()
        XCTAssertEqual(try store.message(message.id).state, .ready)
    }

    func testUndecodableLevelsAreMeasuredAgain() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(try opus("note.ogg"))
        try store.run("UPDATE levels SET data = X'01' WHERE message_id = ?", [.text(message.id)])  // odd length
        XCTAssertNil(try store.levels(of: message.id))
        XCTAssertEqual(try store.recover().recomputedLevels, [message.id])
        XCTAssertEqual(try store.levels(of: message.id)?.count, 40)
    }

    func testADatabaseThatIsNotADatabaseIsKeptAsideAndRebuiltFromTheFiles() throws {
        var store: MessageStore? = try MessageStore(folder: folder)
        let message = try store!.importFile(try opus("keep.ogg"))
        let fileName = message.fileName
        store = nil
        let database = folder.appendingPathComponent("hark.sqlite3").path
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: database))

        let rebuilt = try MessageStore(folder: folder)
        let aside = try XCTUnwrap(rebuilt.recovery.movedAsideDatabase)
        XCTAssertEqual(FileManager.default.contents(atPath: aside), Data(repeating: 0x5A, count: 8192), "kept as it was")
        let report = try rebuilt.recover()
        XCTAssertEqual(report.adoptedFiles, [fileName])
        XCTAssertEqual(try rebuilt.count(), 1)
        XCTAssertEqual(try rebuilt.integrityCheck(), "ok")
    }
}
