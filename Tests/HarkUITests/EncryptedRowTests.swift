import CGtk
import Foundation
import HarkTestSupport
@testable import HarkUI
import MessageStore
import XCTest

/// Encrypted messages in a room's history, without a server: a message
/// waiting for its key is a row that says so and turns into the voice
/// message when the key comes; one from a device its owner has not verified
/// is marked, and a screen reader is told.
final class EncryptedRowTests: XCTestCase {
    func testAWaitingRowBecomesItsMessageAndAnUnverifiedDevicesMessageIsMarked() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            try WindowFixture.withWindow(storeIn: scratch.url, before: { store in
                try ConversationWindowTests.prepareRooms(store)
                let waiting = try XCTUnwrap(try store.matrix.holdUndecrypted(
                    eventID: "$late", roomID: "!voice", sender: "@bob:localhost", sentAt: Date(timeIntervalSinceNow: -50),
                    event: Data(#"{"type":"m.room.encrypted"}"#.utf8)))
                let marked = try XCTUnwrap(try store.matrix.receive(Self.audio("$tablet", unverified: true)))
                return (waiting, marked)
            }) { store, window, rows in
                window.present()
                settle(seconds: 0.3)
                let conversations = try ConversationWindowTests.adoptOfflineSession(window)
                settle()
                activateRow(try XCTUnwrap(conversations.sidebar.row(named: "Voice")))
                settle()
                let history = try XCTUnwrap(window.history)
                XCTAssertEqual(history.count, 3)

                let waiting = try XCTUnwrap(history.row(showing: rows.0.id))
                XCTAssertEqual(waiting.shownSender, "Bob")
                XCTAssertEqual(waiting.shownMissing, "Waiting for this message's key")
                XCTAssertFalse(waiting.showsUnverifiedMark)
                XCTAssertNil(waiting.descriptionDiffers(from: RowDescription.missingKeys))

                let marked = try XCTUnwrap(history.row(showing: rows.1.id))
                XCTAssertTrue(marked.showsUnverifiedMark)
                XCTAssertNil(marked.descriptionDiffers(from: "Sent from a device its owner has not verified. "
                                                       + RowDescription.downloadingKeys))

                // The key came: the same row is the voice message, on its way.
                try store.matrix.receive(Self.audio("$late", unverified: false))
                history.apply(.storeChanged)
                settle()
                let resolved = try XCTUnwrap(history.row(showing: rows.0.id))
                XCTAssertEqual(resolved.shownMissing, MessageRow.downloadingText)
                XCTAssertFalse(resolved.showsUnverifiedMark)
                XCTAssertNil(resolved.descriptionDiffers(from: RowDescription.downloadingKeys))
                XCTAssertEqual(history.count, 3)
            }
        }
    }

    private static func audio(_ event: String, unverified: Bool) -> IncomingAudio {
        IncomingAudio(eventID: event, roomID: "!voice", sender: "@bob:localhost", title: "Voice message",
                      sentAt: Date(timeIntervalSinceNow: -40), duration: 4, fileExtension: "ogg",
                      mediaURL: "mxc://localhost/\(event.dropFirst())", levels: nil, unread: false,
                      encrypted: true, unverifiedDevice: unverified)
    }
}
