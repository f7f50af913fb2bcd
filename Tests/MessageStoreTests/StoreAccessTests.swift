import CSQLite
import Foundation
import HarkTestSupport
@testable import MessageStore
import XCTest

/// A store that cannot be written, opened in the process: how it is opened,
/// and how it comes back to writing.
final class StoreAccessTests: XCTestCase {
    /// A store opened on a full disk is read-only until there is room again:
    /// the next change then opens it for writing and is made.
    func testAStoreOpenedOnAFullDiskWritesAgainOnceThereIsRoom() throws {
        let disk: TinyDisk
        do { disk = try TinyDisk(kilobytes: 2048, leaveFreeKilobytes: 1024) } catch let error as TinyDisk.Unavailable {
            throw XCTSkip(error.description)
        }
        let folder = disk.folder.url.appendingPathComponent("hark")
        let id = try MessageStore(folder: folder).beginRecording(title: "Before").id
        disk.fill(leavingFreeKilobytes: 0)
        let store = try MessageStore(folder: folder)
        XCTAssertEqual(store.access, .diskFull)
        XCTAssertThrowsError(try store.rename(id, to: "During")) {
            XCTAssertEqual($0 as? StoreError, .diskFull(folder: folder.path))
        }
        XCTAssertEqual(try store.message(id).title, "Before")
        for name in try FileManager.default.contentsOfDirectory(atPath: disk.folder.url.path) where name.hasPrefix("filler") {
            try FileManager.default.removeItem(atPath: disk.path(name))
        }
        try store.rename(id, to: "After")
        XCTAssertEqual(store.access, .readWrite)
        XCTAssertEqual(try MessageStore(folder: folder).message(id).title, "After")
    }

    /// Which failures mean a full disk or a read-only store: SQLite's own
    /// codes, and the errno behind an I/O error (a -shm file that could not
    /// grow is SQLITE_IOERR_SHMSIZE with ENOSPC). A database moved away by
    /// another process's salvage is neither.
    func testFailuresAreToldApartByTheirCodeAndErrno() {
        let shmSize = SQLITE_IOERR | 19 << 8, write = SQLITE_IOERR | 3 << 8
        XCTAssertTrue(SQLiteError(code: SQLITE_FULL, message: "").isDiskFull)
        XCTAssertTrue(SQLiteError(code: shmSize, message: "", systemError: ENOSPC).isDiskFull)
        XCTAssertFalse(SQLiteError(code: shmSize, message: "", systemError: EIO).isDiskFull)
        XCTAssertTrue(SQLiteError(code: SQLITE_READONLY, message: "").isReadOnly)
        XCTAssertTrue(SQLiteError(code: write, message: "", systemError: EROFS).isReadOnly)
        XCTAssertFalse(SQLiteError(code: SQLITE_READONLY | 4 << 8, message: "").isReadOnly, "SQLITE_READONLY_DBMOVED")
        XCTAssertFalse(SQLiteError(code: SQLITE_BUSY, message: "").isReadOnly)
    }

    /// A damaged database in a read-only folder cannot be salvaged (nowhere
    /// to move it aside or write the new one): opening says so, touching
    /// nothing.
    func testADamagedReadOnlyStoreSaysItCannotBeRepairedThere() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url.appendingPathComponent("hark")
        _ = try MessageStore(folder: folder).beginRecording(title: "Kept")
        let database = folder.appendingPathComponent("hark.sqlite3").path
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: database))
        try handle.write(contentsOf: Data(repeating: 0x55, count: 100))  // the header
        try handle.close()
        let damaged = FileManager.default.contents(atPath: database)
        try mountReadOnly(folder.path, keeping: scratch)
        XCTAssertThrowsError(try MessageStore(folder: folder)) {
            XCTAssertTrue("\($0)".contains("its folder is read-only and it is damaged"), "\($0)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       ["hark.sqlite3", "hark.sqlite3.salvage-lock", "messages"])
        XCTAssertEqual(FileManager.default.contents(atPath: database), damaged)
    }

    /// Bind-mounts `path` onto itself read-only until the test ends, keeping
    /// `scratch` (which holds it) until it is unmounted.
    private func mountReadOnly(_ path: String, keeping scratch: ScratchFolder) throws {
        guard try ChildProcess.run("/bin/mount", ["--bind", path, path]).status == 0 else {
            throw XCTSkip("cannot bind-mount here (not root?)")
        }
        addTeardownBlock {
            _ = try? ChildProcess.run("/bin/umount", [path])
            withExtendedLifetime(scratch) {}
        }
        XCTAssertEqual(try ChildProcess.run("/bin/mount", ["-o", "remount,bind,ro", path]).status, 0)
    }

    /// A read-only store is opened through an SQLite URI (`immutable=1`):
    /// a folder whose name holds `?`, `#` or `%` is still the folder named.
    func testAReadOnlyStoreIsFoundWhateverItsFolderIsCalled() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url.appendingPathComponent("odd ?name#%41 é/hark")
        let id = try MessageStore(folder: folder).beginRecording(title: "Kept").id
        let path = folder.path
        try mountReadOnly(path, keeping: scratch)
        let store = try MessageStore(folder: folder)
        XCTAssertEqual(store.access, .readOnly)
        XCTAssertEqual(try store.message(id).title, "Kept")
        XCTAssertThrowsError(try store.rename(id, to: "Changed")) {
            XCTAssertEqual($0 as? StoreError, .readOnly(folder: path))
        }
    }
}
