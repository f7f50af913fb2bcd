import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import StoreAudio
import XCTest

/// A store that can only be read (a backup mounted read-only) opens in the
/// window with its messages, says once that nothing can be changed, and does
/// not try its repairs, which would fail at every start.
final class ReadOnlyStoreWindowTests: XCTestCase {
    func testAReadOnlyStoreIsShownAndSaysItCannotBeChanged() throws {
        let scratch = try ScratchFolder()
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 1)
        let folder = scratch.url.appendingPathComponent("store")
        try MainActor.assumeIsolated {
            let store = try MessageStore(folder: folder)
            _ = try store.importFile(tone, title: "Kept on the backup")
        }
        // The -wal and -shm go as a clean close leaves them; then the folder is mounted read-only.
        guard try ChildProcess.run("/bin/mount", ["--bind", folder.path, folder.path]).status == 0 else {
            throw XCTSkip("cannot bind-mount here (not root?)")
        }
        addTeardownBlock { _ = try? ChildProcess.run("/bin/umount", [folder.path]) }
        XCTAssertEqual(try ChildProcess.run("/bin/mount", ["-o", "remount,bind,ro", folder.path]).status, 0)
        try onMainActor {
            try withGtk {
                let store = try MessageStore(folder: folder)
                XCTAssertEqual(store.access, .readOnly)
                let (window, _) = try WindowFixture.makeWindow(store)
                defer { gtk_window_destroy(window.window) }
                window.present()
                var report: RecoveryReport??
                window.recoverInBackground { report = .some($0) }
                XCTAssertTrue(MainLoop.iterate(until: { report != nil }, timeout: 10))
                settle(seconds: 0.3)
                XCTAssertEqual(window.history?.count, 1, "the message is shown")
                XCTAssertTrue(window.toastTexts.contains { $0.contains("not changed: it is read-only") }, "\(window.toastTexts)")
                XCTAssertFalse(window.toastTexts.contains { $0.contains("could not be checked") }, "\(window.toastTexts)")
            }
        }
    }
}
