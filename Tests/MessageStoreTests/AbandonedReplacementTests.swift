import Foundation
import HarkTestSupport
import MessageStore
import StoreAudio
import XCTest

/// A cut or a join writes the take's new audio under a hidden `.trimming-`
/// name beside it first. One killed before the rename leaves that file
/// behind, as a killed import leaves its copy: the next open's check removes
/// it, and nothing else.
extension StaleImportTests {
    private func names(_ store: MessageStore) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: store.messagesFolder.path)) ?? [])
    }

    func testACutKilledBeforeItsRenameLeavesNothingAfterTheNextOpensCheck() throws {
        var store: MessageStore? = try MessageStore(folder: folder)
        let take = try store!.importFile(try opus("take.ogg"))
        let audio = try Data(contentsOf: URL(fileURLWithPath: store!.audioPath(of: take)))
        // The half-written new audio of a cut, and of a join of a take since purged.
        let leftover = store!.replacementPath(of: take)
        try FileManager.default.copyItem(atPath: try opus("half.ogg"), toPath: leftover)
        let orphan = store!.messagesFolder.appendingPathComponent(".trimming-gone.ogg").path
        try FileManager.default.copyItem(atPath: try opus("orphan.ogg"), toPath: orphan)
        // Not Hark's: a hidden file of the user's.
        let hidden = store!.messagesFolder.appendingPathComponent(".notes").path
        XCTAssertTrue(FileManager.default.createFile(atPath: hidden, contents: Data("mine".utf8)))
        store = nil

        let reopened = try MessageStore(folder: folder)
        let report = try reopened.recover()
        XCTAssertTrue(report.comparedFiles)
        XCTAssertEqual(report.adoptedFiles, [], "never a message")
        XCTAssertEqual(names(reopened), [take.fileName, ".notes"], "the leftovers are gone")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: reopened.audioPath(of: take))), audio,
                       "the take's audio beside them untouched")
        XCTAssertEqual(try String(contentsOfFile: hidden, encoding: .utf8), "mine")
        XCTAssertEqual(try reopened.message(take.id).state, .ready)
    }

    func testACutUnderWayIsLeftAloneByAnotherOpen() throws {
        let store = try MessageStore(folder: folder)
        let take = try store.importFile(try opus("take.ogg"))
        var replacement: AudioReplacement? = try store.beginReplacement(of: take)
        let path = try XCTUnwrap(replacement?.path)
        try FileManager.default.copyItem(atPath: try opus("half.ogg"), toPath: path)
        XCTAssertThrowsError(try store.beginReplacement(of: take), "one replacement of a take at a time")

        let other = try MessageStore(folder: folder)  // another process's open, as far as the lock goes
        try other.recover(thorough: true)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "its file is still being written")

        replacement = nil  // the cut was killed
        try other.recover(thorough: true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.audioPath(of: take)))
    }
}
