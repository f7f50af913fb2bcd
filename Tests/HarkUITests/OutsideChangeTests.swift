import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import StoreAudio
import XCTest

/// The window shows what another process does to the store (`hark import`,
/// `hark rename`, `hark delete` in a terminal beside it), without a restart.
final class OutsideChangeTests: XCTestCase {
    func testImportsRenamesAndDeletesFromAnotherProcessShowUp() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 1)
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { _, window in
                window.present()
                settle(seconds: 0.3)
                let history = try XCTUnwrap(window.history)
                XCTAssertEqual(history.count, 0)
                // Another process: its own connection to the same database.
                let other = try MessageStore(folder: folder)
                let imported = try other.importFile(tone, title: "From the terminal")
                XCTAssertTrue(MainLoop.iterate(until: { history.count == 1 }, timeout: 15),
                              "shown within a few seconds, with no focus change")
                XCTAssertEqual(history.row(showing: imported.id)?.message?.title, "From the terminal")

                try other.rename(imported.id, to: "Renamed elsewhere")
                window.takeInOutsideChanges()  // what the window coming to the front does
                XCTAssertEqual(history.row(showing: imported.id)?.message?.title, "Renamed elsewhere")

                try other.delete(imported.id)
                window.takeInOutsideChanges()
                XCTAssertEqual(history.count, 0)
            }
        }
    }
}
