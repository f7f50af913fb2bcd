import Foundation
import HarkTestSupport
import Levels
@testable import MessageStore
import StoreAudio
import XCTest

/// A database damaged on disk, as a bad sector or a stray write leaves it:
/// whatever rows can still be read are saved into a new database, the
/// damaged file is kept aside.
final class DamagedDatabaseTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }
    private var databasePath: String { folder.appendingPathComponent("hark.sqlite3").path }

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    private func opus(_ name: String) throws -> String {
        let path = scratch.path(name)
        try gstLaunch("audiotestsrc num-buffers=50 samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
        return path
    }

    /// A closed store of `count` finished recordings, each with levels.
    private func storeWithMessages(_ count: Int) throws -> [Message] {
        let store = try MessageStore(folder: folder)
        var made: [Message] = []
        for number in 0..<count {
            let message = try store.beginRecording(title: "Message \(number) " + String(repeating: "·", count: 60),
                                                   at: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 60))
            try store.finishRecording(message.id, duration: Double(number), levels: levels(number))
            made.append(try store.message(message.id))
        }
        try store.rename(made[0].id, to: "First")
        made[0] = try store.message(made[0].id)
        return made
    }

    private func levels(_ number: Int) -> LevelTrack {
        LevelTrack(rms: [-20, -30, Double(-number)], peak: [-10, -12, Double(-number)])
    }

    private func pageSize() throws -> Int {
        let header = try XCTUnwrap(FileManager.default.contents(atPath: databasePath)).prefix(18)
        let size = Int(header[16]) << 8 | Int(header[17])
        return size == 1 ? 65536 : size
    }

    private func overwrite(_ range: Range<Int>, with bytes: Data) throws {
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: databasePath))
        try handle.seek(toOffset: UInt64(range.lowerBound))
        try handle.write(contentsOf: bytes.prefix(range.count))
        try handle.close()
    }

    private func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private func overwritePage(_ number: Int) throws {
        let size = try pageSize()
        try overwrite((number - 1) * size..<number * size, with: randomBytes(size))
    }

    private func assertEverythingSurvived(_ made: [Message], in store: MessageStore,
                                          file: StaticString = #filePath, line: UInt = #line) throws {
        for message in made {
            XCTAssertEqual(try store.message(message.id), message, file: file, line: line)
            XCTAssertEqual(try store.levels(of: message.id), levels(Int(message.duration)), file: file, line: line)
        }
    }

    func testACorruptPageIsFoundOnOpenAndEveryRowIsSavedIntoANewDatabase() throws {
        let made = try storeWithMessages(40)
        try overwritePage(3)

        let store = try MessageStore(folder: folder)
        let aside = try XCTUnwrap(store.recovery.movedAsideDatabase)
        XCTAssertTrue(FileManager.default.fileExists(atPath: aside), "the damaged file is kept")
        XCTAssertEqual(store.recovery.salvagedMessages, 40)
        XCTAssertEqual(store.recovery.lostMessages, 0)
        XCTAssertEqual(try store.integrityCheck(), "ok")
        try assertEverythingSurvived(made, in: store)
        try store.rename(made[1].id, to: "Renamed")
        try store.delete(made[2].id)
        _ = try store.importFile(try opus("new.ogg"))
        XCTAssertEqual(try store.count(), 40)
        XCTAssertEqual(try store.searchIDs(SearchQuery("renamed")), [made[1].id], "the title index is rebuilt too")
    }

    func testACorruptPageMetByAStatementIsSalvagedAndTheStatementDone() throws {
        let made = try storeWithMessages(40)
        let store = try MessageStore(folder: folder)
        XCTAssertNil(store.recovery.movedAsideDatabase)
        try overwritePage(3)
        try store.run("PRAGMA shrink_memory")  // forget the pages read while opening

        try store.rename(made[1].id, to: "Renamed")
        XCTAssertNotNil(store.recovery.movedAsideDatabase)
        XCTAssertEqual(store.recovery.salvagedMessages, 40)
        XCTAssertEqual(try store.message(made[1].id).title, "Renamed")
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    /// Two processes (here two connections) meet the same damage: the first
    /// salvages, the second finds the salvaged database in place and uses it
    /// rather than moving it aside as damaged in turn.
    func testASecondConnectionMeetingTheSameDamageUsesTheFirstOnesSalvage() throws {
        let made = try storeWithMessages(40)
        let first = try MessageStore(folder: folder)
        let second = try MessageStore(folder: folder)
        try overwritePage(3)
        for store in [first, second] { try store.run("PRAGMA shrink_memory") }

        try first.rename(made[1].id, to: "Renamed by the first")
        XCTAssertEqual(first.salvagesSinceOpening, 1)
        try second.rename(made[2].id, to: "Renamed by the second")
        XCTAssertEqual(second.salvagesSinceOpening, 0, "the second found the first's salvage")
        XCTAssertNil(second.latestSalvage)

        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        XCTAssertEqual(kept.count, 1, "one damaged file kept, not the salvage too: \(kept)")
        for store in [first, second] {
            XCTAssertEqual(try store.message(made[1].id).title, "Renamed by the first")
            XCTAssertEqual(try store.message(made[2].id).title, "Renamed by the second")
            XCTAssertEqual(try store.count(), 40)
        }
    }

    /// A connection that has not met the damage yet follows another's
    /// salvage when it looks (as the window does every few seconds), and
    /// stops writing into the file set aside.
    func testAStoreFollowsASalvageMadeByAnotherProcess() throws {
        let made = try storeWithMessages(40)
        let window = try MessageStore(folder: folder)
        let terminal = try MessageStore(folder: folder)
        try overwritePage(3)
        try terminal.run("PRAGMA shrink_memory")
        try terminal.rename(made[1].id, to: "Renamed in the terminal")
        XCTAssertEqual(terminal.salvagesSinceOpening, 1)

        XCTAssertTrue(window.followReplacedDatabase(), "the window's store moves to the salvaged database")
        XCTAssertFalse(window.followReplacedDatabase(), "once")
        XCTAssertEqual(window.databaseSwitches, 1)
        XCTAssertEqual(window.salvagesSinceOpening, 0, "not its own salvage")
        XCTAssertEqual(try window.message(made[1].id).title, "Renamed in the terminal")
        try window.rename(made[2].id, to: "Renamed in the window")
        XCTAssertEqual(try terminal.message(made[2].id).title, "Renamed in the window", "one database again")
    }

    /// A store opening while another process salvages waits for the salvage
    /// to be done (it would read a database half written).
    func testOpeningWaitsForASalvageInProgress() throws {
        _ = try storeWithMessages(3)
        let lock = open(databasePath + ".salvage-lock", O_RDWR | O_CREAT, 0o600)
        XCTAssertGreaterThanOrEqual(lock, 0)
        XCTAssertEqual(flock(lock, LOCK_EX), 0, "a salvage holds the lock")
        let opened = DispatchSemaphore(value: 0)
        let folder = self.folder
        Thread.detachNewThread {
            _ = try? MessageStore(folder: folder)
            opened.signal()
        }
        XCTAssertEqual(opened.wait(timeout: .now() + 0.5), .timedOut, "the store waits while the lock is held")
        close(lock)
        XCTAssertEqual(opened.wait(timeout: .now() + 30), .success, "and opens once it is released")
    }

    func testALostPageOfMessagesLosesOnlyTheRowsOnIt() throws {
        let made = try storeWithMessages(200)
        var leaves: [(page: Int, cells: Int)] = []
        try MessageStore(folder: folder).run(
            "SELECT pageno, ncell FROM dbstat WHERE name = 'messages' AND pagetype = 'leaf' ORDER BY pageno") {
            leaves.append((page: Int($0.integer(0)), cells: Int($0.integer(1))))
        }
        XCTAssertGreaterThan(leaves.count, 3)
        let lost = leaves[1]
        try overwritePage(lost.page)

        let store = try MessageStore(folder: folder)
        XCTAssertEqual(store.recovery.salvagedMessages, 200 - lost.cells)
        XCTAssertEqual(store.recovery.lostMessages, lost.cells)
        let saved = made.filter { (try? store.message($0.id)) != nil }
        XCTAssertEqual(saved.count, 200 - lost.cells)
        try assertEverythingSurvived(saved, in: store)
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testADatabaseWithItsHeaderOverwrittenKeepsItsTitlesAndIds() throws {
        let made = try storeWithMessages(30)
        try overwrite(0..<100, with: randomBytes(100))

        let store = try MessageStore(folder: folder)
        XCTAssertNotNil(store.recovery.movedAsideDatabase)
        XCTAssertEqual(store.recovery.salvagedMessages, 30)
        try assertEverythingSurvived(made, in: store)
    }

    func testADatabaseWithHalfItsHeaderGoneKeepsItsMessagesAndAdoptsOnlyNewFiles() throws {
        var store: MessageStore? = try MessageStore(folder: folder)
        let imported = try store!.importFile(try opus("kept.ogg"), title: "Kept title")
        store = nil
        let stray = folder.appendingPathComponent("messages/stray.ogg").path
        try FileManager.default.copyItem(atPath: try opus("stray.ogg"), toPath: stray)
        try overwrite(50..<100, with: Data(count: 50))

        let reopened = try MessageStore(folder: folder)
        XCTAssertEqual(reopened.recovery.salvagedMessages, 1)
        XCTAssertEqual(try reopened.message(imported.id).title, "Kept title")
        XCTAssertEqual(try reopened.recover().adoptedFiles, ["stray.ogg"], "only the file no saved row names")
        XCTAssertEqual(try reopened.count(), 2)
    }
}
