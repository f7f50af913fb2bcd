import CAdwaita
import CGtk
import CTestSignals
import Foundation
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import Levels
import Matrix
import MessageStore
import XCTest

/// A voice message whose "audio" is a picture: its row says that it could
/// not be downloaded and why (not "Downloading…" for ever), and its Delete
/// button deletes it.
final class FailedDownloadWindowTests: XCTestCase {
    nonisolated(unsafe) static var server: SynapseServer?

    override class func setUp() {
        super.setUp()
        server = SharedHomeserver.start(users: ["alice", "bob"])
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// 67 bytes of a real 1×1 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!

    func testAPictureSentAsAVoiceMessageSaysWhyItFailedAndDeletes() throws {
        let homeserver = try XCTUnwrap(Self.server).url
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        try MainActor.assumeIsolated {
            let bob = try RoomWindowTests.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store")) { store, window in
                let conversations = try RoomWindowTests.signIn(window, homeserver)
                let history = try XCTUnwrap(window.history)
                let roomID = try awaitOnLoop { try await bob.createRoom(name: "Pictures", invite: [RoomWindowTests.alice]) }
                XCTAssertTrue(waitUntil { conversations.sidebar.rowNames.contains("Pictures, Invitation from @bob:localhost") },
                              "\(conversations.sidebar.rowNames)")
                let accept = try XCTUnwrap(RoomWindowTests.button(labelled: "_Accept", in: conversations.sidebar.list))
                hark_test_emit(accept, "clicked")
                XCTAssertTrue(waitUntil { history.scope == .room(roomID) })

                let uri = try awaitOnLoop { try await bob.upload(Self.png, contentType: "audio/ogg", fileName: "Hello.ogg") }
                let message = OutgoingVoiceMessage(title: "Hello", fileName: "Hello.ogg", size: Self.png.count,
                                                   durationMilliseconds: 4000, levels: LevelTrack())
                try awaitOnLoop {
                    try await bob.sendVoiceMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                                                   message: message, contentURI: uri)
                }
                var id: String?
                XCTAssertTrue(waitUntil {
                    id = (try? store.shownIDs(in: .room(roomID)))?.first
                    return id.map { (try? store.message($0))?.downloadFailed == true } ?? false
                }, "the download failed for good")
                let failed = try store.message(try XCTUnwrap(id))
                let reason = try XCTUnwrap(failed.downloadFailure)
                XCTAssertTrue(reason.hasPrefix("it is not audio ("), reason)
                // The line the row shows in place of the audio.
                @MainActor func missingLine() -> String? {
                    guard let row = history.row(showing: failed.id), gtk_widget_get_visible(row.missing) != 0 else { return nil }
                    return gtk_label_get_text(hark_label(row.missing)).map { String(cString: $0) }
                }
                XCTAssertTrue(waitUntil { missingLine() == "The audio could not be downloaded: \(reason)." },
                              "\(String(describing: missingLine()))")

                let row = try XCTUnwrap(history.row(showing: failed.id))
                let delete = try XCTUnwrap(RoomWindowTests.button(labelled: "_Delete", in: row.widget))
                XCTAssertNotEqual(gtk_widget_get_visible(delete), 0, "Delete is offered")
                hark_test_emit(delete, "clicked")
                XCTAssertTrue(waitUntil { (try? store.message(failed.id))?.state == .deleted }, "deleted")
            }
        }
    }
}
