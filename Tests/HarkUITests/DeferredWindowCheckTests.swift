import CGtk
import Foundation
import GLibSupport
import HarkTestSupport
@testable import HarkUI
import Levels
@testable import MessageStore
import XCTest

/// The window's store is opened without the quick check for damage (it reads
/// every message); the check runs on a connection of its own once the window
/// has painted its first frame, and damage it finds is salvaged and
/// announced as damage found at start-up always was.
final class DeferredWindowCheckTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var databasePath: String { scratch.url.appendingPathComponent("hark.sqlite3").path }
    private var ids: [String] = []

    /// A store of 40 messages, no connection open, with a page of noise (as
    /// a bad sector leaves) where the quick check finds it and showing the
    /// history does not: the root of the titles' index, which only a
    /// search by title reads.
    override func setUpWithError() throws {
        scratch = try ScratchFolder()
        let store = try MessageStore(folder: scratch.url)
        ids = try (0..<40).map { number -> String in
            let message = try store.beginRecording(title: "Message \(number) " + String(repeating: "·", count: 60),
                                                   at: Date(timeIntervalSinceNow: -Double(40 - number) * 60))
            try store.finishRecording(message.id, duration: 2, levels: LevelTrack(rms: [-20], peak: [-10]))
            return message.id
        }
        var page = 0
        try store.run("SELECT rootpage FROM sqlite_schema WHERE name = 'messages_by_title'") { page = Int($0.integer(0)) }
        XCTAssertGreaterThan(page, 1)
        try store.run("PRAGMA wal_checkpoint(TRUNCATE)")
        let header = try XCTUnwrap(FileManager.default.contents(atPath: databasePath)).prefix(18)
        let pageSize = Int(header[16]) << 8 | Int(header[17])
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: databasePath))
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        try handle.write(contentsOf: Data((0..<pageSize).map { _ in UInt8.random(in: 0...255) }))
        try handle.close()
    }

    override func tearDownWithError() throws { scratch = nil }

    private static func movedAside(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix("hark.sqlite3.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
    }

    /// The announcement, the history and the store after the check salvaged.
    @MainActor
    private static func checkAnnounced(_ store: MessageStore, _ window: MainWindow, _ ids: [String]) throws {
        let movedAside = Self.movedAside(in: store.folder)
        let said = try XCTUnwrap(window.toastTexts.last { $0.contains("damaged") }, "\(window.toastTexts)")
        XCTAssertTrue(said.hasPrefix("The message database was damaged: 40 messages were saved"), said)
        XCTAssertEqual(movedAside.count, 1, "the damaged file is kept")
        XCTAssertTrue(said.contains(movedAside.first ?? "?"), "names the kept file: \(said)")
        XCTAssertFalse(window.toastTexts.contains(MainWindow.repairedElsewhere), "its own check: \(window.toastTexts)")
        XCTAssertEqual(store.databaseSwitches, 1, "the window's store moved to the salvaged database")
        // The older messages come in front of the first page a step at a time.
        XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 40 }, timeout: 20),
                      "all 40 listed: \(window.history?.count ?? -1)")
        try store.rename(ids[39], to: "Renamed in the window")
        XCTAssertEqual(try MessageStore(folder: store.folder).message(ids[39]).title, "Renamed in the window",
                       "one database: the salvaged one")
        let before = window.toastTexts.count
        window.takeInOutsideChanges()
        XCTAssertEqual(window.toastTexts.count, before, "said once")
    }

    /// Damage the window's store did not look for at opening is found by the
    /// check that recovery makes first, on its own connection, and announced.
    func testDamageFoundAfterOpeningIsSalvagedAndAnnounced() throws {
        let folder = scratch.url, ids = self.ids
        try onMainActor {
            try withGtk {
                let store = try MessageStore(folder: folder, checkingForDamage: false)
                XCTAssertNil(store.recovery.movedAsideDatabase, "not looked for at opening")
                let (window, _) = try WindowFixture.makeWindow(store)
                defer { gtk_window_destroy(window.window) }
                window.present()
                settle(seconds: 0.3)
                XCTAssertEqual(store.salvagesSinceOpening, 0, "showing the history met no damage")

                var report: RecoveryReport??
                window.recoverInBackground { report = .some($0) }
                XCTAssertTrue(MainLoop.iterate(until: { report != nil }, timeout: 20), "recovery ended")
                try Self.checkAnnounced(store, window, ids)
            }
        }
    }

    /// The application's store leaves the check for later, and the window
    /// starts it only once it has painted a frame.
    func testTheWindowChecksOnlyAfterItsFirstFrame() throws {
        let folder = scratch.url, ids = self.ids
        try onMainActor {
            try withGtk {
                let store = try HarkApplication.openStore(folder: folder)
                XCTAssertNil(store.recovery.movedAsideDatabase, "not looked for at opening")
                let (window, _) = try WindowFixture.makeWindow(store)
                defer { gtk_window_destroy(window.window) }
                window.recoverAfterFirstFrame()
                settle(seconds: 0.5)
                XCTAssertEqual(Self.movedAside(in: folder), [], "nothing checked while the window is not shown")
                XCTAssertEqual(window.toastTexts, [])

                window.present()
                XCTAssertTrue(MainLoop.iterate(until: { window.toastTexts.contains { $0.contains("damaged") } },
                                               timeout: 20), "announced after the first frame: \(window.toastTexts)")
                try Self.checkAnnounced(store, window, ids)
            }
        }
    }
}
