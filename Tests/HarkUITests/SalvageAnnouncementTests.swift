import CGLib
import CGtk
import Foundation
import GLibSupport
import HarkTestSupport
@testable import HarkUI
import Levels
@testable import MessageStore
import XCTest

/// A database found damaged while the window is open (a statement meets a
/// bad page, the store salvages it) is announced as one found at start-up
/// is, and the window shows the salvaged history.
final class SalvageAnnouncementTests: XCTestCase {
    /// 40 messages, newest last.
    private static func fill(_ store: MessageStore) throws -> [String] {
        try (0..<40).map { number -> String in
            let message = try store.beginRecording(title: "Message \(number) " + String(repeating: "·", count: 60),
                                                   at: Date(timeIntervalSinceNow: -Double(40 - number) * 60))
            try store.finishRecording(message.id, duration: 2, levels: LevelTrack(rms: [-20], peak: [-10]))
            return message.id
        }
    }

    /// A stray write over the third page of the database in `folder` (the
    /// messages), with every page in the file itself first.
    private static func damage(_ folder: URL, through store: MessageStore) throws {
        try store.run("PRAGMA wal_checkpoint(TRUNCATE)")
        let path = folder.appendingPathComponent("hark.sqlite3").path
        let header = try XCTUnwrap(FileManager.default.contents(atPath: path)).prefix(18)
        let pageSize = Int(header[16]) << 8 | Int(header[17])
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(2 * pageSize))
        try handle.write(contentsOf: Data((0..<pageSize).map { _ in UInt8.random(in: 0...255) }))
        try handle.close()
    }

    /// A window over a store of 40 messages in `folder`, shown.
    private static func withWindow(_ body: @MainActor (URL, MessageStore, MainWindow, [String]) throws -> Void) throws {
        let scratch = try ScratchFolder()
        try onMainActor {
            try WindowFixture.withWindow(storeIn: scratch.url, before: Self.fill) { store, window, ids in
                window.present()
                // The older messages come in front of the first page a step at a time.
                XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 40 }, timeout: 20),
                              "all 40 listed: \(window.history?.count ?? -1)")
                try body(scratch.url, store, window, ids)
            }
        }
    }

    func testDamageMetWhileTheWindowIsOpenIsAnnounced() throws {
        try Self.withWindow { folder, store, window, ids in
            XCTAssertEqual(window.history?.count, 40)
            window.takeInOutsideChanges()
            XCTAssertFalse(window.toastTexts.contains { $0.contains("damaged") }, "nothing to say yet")

            // A stray write over a page of the messages, then a rename meets it.
            try Self.damage(folder, through: store)
            try store.run("PRAGMA shrink_memory")  // forget the pages read so far
            try store.rename(ids[38], to: "Renamed")
            XCTAssertEqual(store.salvagesSinceOpening, 1, "the rename met the damage and the store salvaged it")

            window.takeInOutsideChanges()  // within 3 s, or when the window comes to the front
            let said = try XCTUnwrap(window.toastTexts.last { $0.contains("damaged") }, "\(window.toastTexts)")
            XCTAssertTrue(said.hasPrefix("The message database was damaged: 40 messages were saved"), said)
            XCTAssertTrue(said.contains(try XCTUnwrap(store.latestSalvage?.movedAsideDatabase)), "names the kept file: \(said)")
            XCTAssertEqual(window.history?.count, 40)
            XCTAssertEqual(window.history?.row(showing: ids[38])?.message?.title, "Renamed", "a row in view")
            let before = window.toastTexts.count
            window.takeInOutsideChanges()
            XCTAssertEqual(window.toastTexts.count, before, "said once")
        }
    }

    /// Another process (`hark list` in a terminal) met the damage first and
    /// salvaged: the window moves to the new database, says so, and shows it.
    func testASalvageByAnotherProcessIsFollowedAndAnnounced() throws {
        try Self.withWindow { folder, store, window, ids in
            try Self.damage(folder, through: store)
            let terminal = try MessageStore(folder: folder)
            XCTAssertNotNil(terminal.recovery.movedAsideDatabase, "the terminal's store salvaged it on opening")
            try terminal.rename(ids[39], to: "Renamed in the terminal")

            window.takeInOutsideChanges()
            XCTAssertEqual(window.toastTexts.last, MainWindow.repairedElsewhere)
            XCTAssertEqual(window.history?.count, 40)
            XCTAssertTrue(MainLoop.iterate(until: {
                window.history?.row(showing: ids[39])?.message?.title == "Renamed in the terminal"
            }, timeout: 5), "the newest row shows the terminal's rename")
            try store.rename(ids[38], to: "Renamed in the window")
            XCTAssertEqual(try terminal.message(ids[38]).title, "Renamed in the window", "one database again")
        }
    }
}
