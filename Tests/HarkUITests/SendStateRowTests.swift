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

/// The last row of a room, as its sending stands: what it says, and all of
/// it in view above the composer, its Retry too, once it turns "Not sent".
extension ConversationWindowTests {
    func testTheLastRowsNotSentLineIsWhollyInViewAboveTheComposer() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let tone = scratch.path("tone.ogg")
            try WindowFixture.tone(tone, seconds: 1)
            try WindowFixture.withWindow(storeIn: scratch.url, before: { store in
                try Self.prepareRooms(store)
                // More sent messages than the window holds, then one still sending
                // (an import is dated by its file's modification time).
                let start = Date()
                let dated = { (minutes: Int) in
                    try FileManager.default.setAttributes([.modificationDate: start.addingTimeInterval(Double(minutes) * 60)],
                                                          ofItemAtPath: tone)
                }
                for index in 1...8 {
                    try dated(index)
                    let message = try store.importFile(tone, title: "Sent \(index)")
                    try store.matrix.enqueueSend(message.id, roomID: "!voice", transactionID: "txn-\(index)")
                    try store.matrix.markSent("txn-\(index)", eventID: "$sent\(index)")
                }
                try dated(9)
                let last = try store.importFile(tone, title: "Dentist on Monday")
                try store.matrix.enqueueSend(last.id, roomID: "!voice", transactionID: "txn-last")
                return last
            }) { store, window, message in
                window.present()
                settle(seconds: 0.3)
                let conversations = try Self.adoptOfflineSession(window)
                settle()
                conversations.show(.room("!voice"))
                settle(seconds: 0.5)
                let history = try XCTUnwrap(window.history)
                XCTAssertEqual(history.row(showing: message.id)?.shownSendState, "Sending…")

                try store.matrix.markAttemptFailed("txn-last", error: "The server refused: forbidden (M_FORBIDDEN, HTTP 403).",
                                            retryAt: nil)
                history.apply(.changed(message.id))
                settle(seconds: 0.5)
                let row = try XCTUnwrap(history.row(showing: message.id))
                XCTAssertEqual(row.shownSendState, "Not sent")
                XCTAssertTrue(row.showsRetry)
                var bounds = graphene_rect_t()
                XCTAssertNotEqual(gtk_widget_compute_bounds(row.retryButton, history.scroller, &bounds), 0)
                let visible = Float(gtk_widget_get_height(history.scroller))
                XCTAssertLessThanOrEqual(bounds.origin.y + bounds.size.height, visible,
                                         "Retry's bottom within the list's visible height, above the composer")
                XCTAssertGreaterThanOrEqual(bounds.origin.y, 0)
                XCTAssertEqual(gtk_widget_get_tooltip_text(row.sendStatus).map { String(cString: $0) },
                               "The server refused: forbidden (M_FORBIDDEN, HTTP 403).", "why, on hovering")
            }
        }
    }

    func testASendThatWaitedADayUnsentSaysSo() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let tone = scratch.path("tone.ogg")
            try WindowFixture.tone(tone, seconds: 1)
            try WindowFixture.withWindow(storeIn: scratch.url, before: { store in
                try Self.prepareRooms(store)
                let message = try store.importFile(tone, title: "Dentist on Monday")
                try store.matrix.enqueueSend(message.id, roomID: "!voice", transactionID: "txn-1")
                try store.matrix.markAttemptFailed("txn-1", error: "Cannot reach example.org: Connection refused.", retryAt: nil,
                                            expired: true)
                return message
            }) { _, window, message in
                window.present()
                settle(seconds: 0.3)
                let conversations = try Self.adoptOfflineSession(window)
                settle()
                conversations.show(.room("!voice"))
                settle()
                let row = try XCTUnwrap(window.history?.row(showing: message.id))
                XCTAssertEqual(row.shownSendState, "Not sent in 24 hours")
                XCTAssertTrue(row.showsRetry)
                XCTAssertEqual(gtk_widget_get_tooltip_text(row.sendStatus).map { String(cString: $0) },
                               "Cannot reach example.org: Connection refused.")
            }
        }
    }
}
