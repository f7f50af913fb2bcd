import Foundation
import HarkTestSupport
import XCTest

/// A store that can only be read (a full disk, a backup mounted read-only) is
/// read by every reading command, and every change asked of it is refused
/// with a sentence that says why, changing nothing.
final class StoreAccessCommandTests: XCTestCase {
    private let tone = "audiotestsrc is-live=true wave=sine volume=0.4"

    /// A message recorded into the store under `dataHome` (SQLite has closed
    /// it: no -wal or -shm is left beside the database).
    private func recordedMessage(dataHome: String) throws -> String {
        let environment = ["XDG_DATA_HOME": dataHome]
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "1", "--source", tone],
                                                    environment: environment)
        XCTAssertEqual(status, 0, output)
        let database = dataHome + "/hark/hark.sqlite3"
        for leftover in [database + "-wal", database + "-shm"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: leftover), "\(leftover) was removed on close")
        }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func listing(_ environment: [String: String]) throws -> String {
        let (status, output) = try ChildProcess.run(harkExecutable, ["list", "--json"], environment: environment)
        XCTAssertEqual(status, 0, "list --json reads the store: \(output)")
        return output
    }

    /// `list`, `list --json`, `export` and `play` all work on the store.
    private func assertReads(_ id: String, environment: [String: String], audio: String, exportingTo copy: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        var (status, output) = try ChildProcess.run(harkExecutable, ["list"], environment: environment)
        XCTAssertEqual(status, 0, "list: \(output)", file: file, line: line)
        XCTAssertTrue(output.contains(id), "list: \(output)", file: file, line: line)
        XCTAssertTrue(try listing(environment).contains("\"id\":\"\(id)\""), file: file, line: line)
        (status, output) = try ChildProcess.run(harkExecutable, ["export", id, copy], environment: environment)
        XCTAssertEqual(status, 0, "export: \(output)", file: file, line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: copy), FileManager.default.contents(atPath: audio),
                       "the export is the message's audio", file: file, line: line)
        (status, output) = try ChildProcess.run(harkExecutable, ["play", id],
                                                environment: environment.merging(["HARK_AUDIO_SINK": "fakesink sync=true"]) { $1 })
        XCTAssertEqual(status, 0, "play: \(output)", file: file, line: line)
    }

    /// rename, delete, import and record each fail (status 1) saying
    /// `reason`, and the store is as it was.
    private func assertRefusesChanges(_ id: String, environment: [String: String], saying reason: String,
                                      importing audio: String, store: String,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        let listedBefore = try listing(environment)
        let filesBefore = try FileManager.default.contentsOfDirectory(atPath: store + "/messages").sorted()
        let databaseBefore = FileManager.default.contents(atPath: store + "/hark.sqlite3")
        let changes = [["rename", id, "Renamed"], ["delete", id], ["import", audio],
                       ["record", "--raw", "--duration", "0.5", "--source", tone]]
        for change in changes {
            let (status, output) = try ChildProcess.run(harkExecutable, change, environment: environment)
            XCTAssertEqual(status, 1, "\(change[0]): \(output)", file: file, line: line)
            XCTAssertTrue(output.contains("Nothing was changed in the message store \(store): \(reason)."),
                          "\(change[0]) says why: \(output)", file: file, line: line)
        }
        XCTAssertEqual(try listing(environment), listedBefore, "the messages are as they were", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store + "/messages").sorted(), filesBefore,
                       "no file came or went", file: file, line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: store + "/hark.sqlite3"), databaseBefore, file: file, line: line)
    }

    /// On a full disk SQLite cannot make the -shm file it reads a WAL
    /// database through: the store used to fail to open ("disk I/O error"),
    /// so list and export failed and play said "no such file". Now it is
    /// read without it, and changes say the disk is full.
    func testAFullDiskIsReadAndChangesSayTheDiskIsFull() throws {
        let disk = try TinyDisk(skippingUnlessMountable: 2048, leaveFreeKilobytes: 1024)
        let environment = ["XDG_DATA_HOME": disk.folder.url.path]
        let id = try recordedMessage(dataHome: disk.folder.url.path)
        let store = disk.path("hark")
        let audio = store + "/messages/\(id).ogg"
        let outside = try ScratchFolder()
        let importable = outside.path("to-import.ogg")
        try FileManager.default.copyItem(atPath: audio, toPath: importable)
        disk.fill(leavingFreeKilobytes: 0)
        var stats = statvfs()
        XCTAssertEqual(statvfs(store, &stats), 0)
        XCTAssertEqual(stats.f_bavail, 0, "the disk is full")
        try assertReads(id, environment: environment, audio: audio, exportingTo: outside.path("exported.ogg"))
        try assertRefusesChanges(id, environment: environment, saying: "the disk is full", importing: importable, store: store)
    }

    /// A store in a folder mounted read-only (a backup), SQLite's -wal and
    /// -shm gone: it used to say "unable to open database file" to every
    /// command. Now it is read as it is, and changes say it is read-only.
    func testAReadOnlyStoreIsReadAndChangesSayItIsReadOnly() throws {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.path("data")]
        let id = try recordedMessage(dataHome: home.path("data"))
        let store = home.path("data/hark")
        let audio = store + "/messages/\(id).ogg"
        let importable = home.path("to-import.ogg")
        try FileManager.default.copyItem(atPath: audio, toPath: importable)
        try mountReadOnly(store, in: home)
        try assertReads(id, environment: environment, audio: audio, exportingTo: home.path("exported.ogg"))
        try assertRefusesChanges(id, environment: environment, saying: "it is read-only", importing: importable, store: store)
    }

    /// A read-only copy of a store whose WAL still holds a change (its writer
    /// was killed, or is still running elsewhere): the change is read, not
    /// just the main file, which holds the old title.
    func testAReadOnlyStoreWithAWriteAheadLogShowsWhatTheLogHolds() throws {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.path("data")]
        let id = try recordedMessage(dataHome: home.path("data"))
        let store = home.path("data/hark")
        // Committed to the WAL, never checkpointed: the process ends without closing.
        let (status, output) = try ChildProcess.run("/usr/bin/python3", ["-c", """
            import os, sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute('PRAGMA wal_autocheckpoint = 0')
            # The search index's triggers fold titles with Hark's own SQL function.
            db.create_function('hark_search_text', 1, lambda text: text and text.lower(), deterministic=True)
            db.execute("UPDATE messages SET title = 'Only in the log'")
            os._exit(0)
            """, store + "/hark.sqlite3"])
        XCTAssertEqual(status, 0, output)
        XCTAssertGreaterThan((try FileManager.default.attributesOfItem(atPath: store + "/hark.sqlite3-wal")[.size] as? Int) ?? 0, 0)
        try mountReadOnly(store, in: home)
        let (listed, printed) = try ChildProcess.run(harkExecutable, ["list"], environment: environment)
        XCTAssertEqual(listed, 0, printed)
        XCTAssertTrue(printed.contains("\(id)") && printed.contains("Only in the log"), printed)
        let (renamed, said) = try ChildProcess.run(harkExecutable, ["rename", id, "Renamed"], environment: environment)
        XCTAssertEqual(renamed, 1, said)
        XCTAssertTrue(said.contains("it is read-only"), said)
    }

    /// Bind-mounts `folder` (inside `scratch`) onto itself read-only until
    /// the test ends; `scratch` is kept until then, so that it can be removed.
    private func mountReadOnly(_ folder: String, in scratch: ScratchFolder) throws {
        guard try ChildProcess.run("/bin/mount", ["--bind", folder, folder]).status == 0 else {
            throw XCTSkip("cannot bind-mount here (not root?)")
        }
        addTeardownBlock {
            _ = try? ChildProcess.run("/bin/umount", [folder])
            withExtendedLifetime(scratch) {}
        }
        let (status, output) = try ChildProcess.run("/bin/mount", ["-o", "remount,bind,ro", folder])
        XCTAssertEqual(status, 0, output)
        XCTAssertNotEqual(access(folder, W_OK), 0, "\(folder) is read-only")
    }
}
