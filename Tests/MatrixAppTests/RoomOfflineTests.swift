import CAdwaita
import CGtk
import Conversations
import Foundation
import HarkTestSupport
@testable import HarkUI
import MessageStore
import StoreAudio
import XCTest

/// A take sent while the server is away, as the window shows it: "Offline"
/// in the header, the row "Sending…" however many tries fail (never "Not
/// sent" for that), then "Sent" by itself once the server is back, and
/// "Offline" gone with its first answer; the room's header says it too in a
/// narrow window. (An extension of RoomWindowTests:
/// the same homeserver, stopped and started again here.)
extension RoomWindowTests {
    func testASendWhileTheServerIsAwayGoesByItselfWhenItIsBackAndOfflineEnds() throws {
        let homeserver = try homeserver
        let server = try XCTUnwrap(Self.server)
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        var stopped = false
        defer { if stopped { try? server.start() } }
        try MainActor.assumeIsolated {
            let bob = try Self.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store")) { store, window in
                let conversations = try XCTUnwrap(window.conversations)
                var policy = RetryPolicy()  // tries come quickly, so that many fail while the server is away
                policy.firstDelay = 0.05
                policy.longestDelay = 0.2
                policy.longestReconnectDelay = 0.2
                conversations.account.retryPolicy = policy
                _ = try Self.signIn(window, homeserver)
                let session = try XCTUnwrap(conversations.account.session)
                let roomID = try awaitOnLoop { try await bob.createRoom(name: "Away", invite: [Self.alice]) }
                XCTAssertTrue(waitUntil { (try? store.matrix.room(roomID))??.membership == .invite })
                try awaitOnLoop { try await session.join(roomID) }
                conversations.show(.room(roomID))
                let history = try XCTUnwrap(window.history)
                let title = try XCTUnwrap(adw_header_bar_get_title_widget(OpaquePointer(window.layout.sidebarHeader)))
                let subtitle = { adw_window_title_get_subtitle(OpaquePointer(title)).map { String(cString: $0) } ?? "" }
                XCTAssertEqual(subtitle(), "")
                // 480 px shows the room alone: its own header says "Offline" too.
                gtk_window_set_default_size(window.window, 480, 640)
                XCTAssertTrue(waitUntil { window.layout.isFolded })
                let roomSubtitle = { adw_window_title_get_subtitle(OpaquePointer(window.layout.title)).map { String(cString: $0) } ?? "" }
                XCTAssertEqual(roomSubtitle(), "")

                server.stop()
                stopped = true
                let message = try store.importFile(voice, title: "While away")
                conversations.send(message, to: roomID)
                history.apply(.storeChanged)
                XCTAssertTrue(waitUntil { subtitle() == "Offline" }, "the header says so")
                XCTAssertEqual(roomSubtitle(), "Offline", "and the room's, whose sidebar is hidden")
                let entry = { (try? store.matrix.sends(of: message.id))?.first }
                XCTAssertTrue(waitUntil(seconds: 120) { (entry()?.attempts ?? 0) >= 10 || entry()?.state != .queued })
                XCTAssertEqual(entry()?.state, .queued, "more tries failed than once made it \"Not sent\"")
                XCTAssertEqual(history.row(showing: message.id)?.shownSendState, "Sending…")

                try server.start()
                stopped = false
                XCTAssertTrue(waitUntil(seconds: 120) { entry()?.state != .queued })
                XCTAssertEqual(entry()?.state, .sent)
                XCTAssertTrue(waitUntil { history.row(showing: message.id)?.shownSendState == "Sent" })
                XCTAssertEqual(subtitle(), "", "Offline went with the server's first answer")
                XCTAssertEqual(roomSubtitle(), "")
                let eventID = try XCTUnwrap(entry()?.eventID)
                XCTAssertTrue(try Self.bobSees(bob, roomID) { $0.eventIDs == [eventID] }, "once")
            }
        }
    }
}
