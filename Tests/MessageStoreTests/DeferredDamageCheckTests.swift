import Foundation
import HarkTestSupport
import Levels
@testable import MessageStore
import XCTest

/// The quick check of the messages table reads every row; a caller that
/// shows a page first opens without it and checks afterwards, and damage is
/// then salvaged just as at opening.
final class DeferredDamageCheckTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }
    private var databasePath: String { folder.appendingPathComponent("hark.sqlite3").path }

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    /// Overwrites database page `number` with noise, as a bad sector would.
    private func overwritePage(_ number: Int) throws {
        let header = try XCTUnwrap(FileManager.default.contents(atPath: databasePath)).prefix(18)
        let stored = Int(header[16]) << 8 | Int(header[17])
        let size = stored == 1 ? 65536 : stored
        var generator = SystemRandomNumberGenerator()
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: databasePath))
        try handle.seek(toOffset: UInt64((number - 1) * size))
        try handle.write(contentsOf: Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        try handle.close()
    }

    func testDamageLeftForLaterIsSalvagedByTheCheck() throws {
        var made: [String] = []
        do {
            let store = try MessageStore(folder: folder)
            for number in 0..<40 {
                let message = try store.beginRecording(title: "Message \(number) " + String(repeating: "·", count: 60))
                try store.finishRecording(message.id, duration: 1, levels: LevelTrack(rms: [-20], peak: [-10]))
                made.append(message.id)
            }
        }
        try overwritePage(3)

        let store = try MessageStore(folder: folder, checkingForDamage: false)
        XCTAssertNil(store.recovery.movedAsideDatabase, "not looked for yet")
        XCTAssertTrue(try store.checkForDamage())
        let aside = try XCTUnwrap(store.recovery.movedAsideDatabase)
        XCTAssertTrue(FileManager.default.fileExists(atPath: aside), "the damaged file is kept")
        XCTAssertEqual(store.recovery.salvagedMessages, 40)
        XCTAssertEqual(try store.integrityCheck(), "ok")
        XCTAssertEqual(Set(try store.shownIDs()), Set(made))
        XCTAssertFalse(try store.checkForDamage(), "sound now")
    }
}
