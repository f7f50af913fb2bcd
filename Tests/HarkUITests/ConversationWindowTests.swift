import CAdwaita
import CGLib
import CGtk
import CTestSignals
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// The window's Matrix side without a server: a session adopted over a store
/// that already knows the account's rooms (it never syncs: the client points
/// at a closed port). What the sidebar, the rows and the composer show.
final class ConversationWindowTests: XCTestCase {
    static let me = "@me:localhost"

    /// A store that knows the account and three rooms: "Voice" (Bob spoke
    /// last, one unread), "Secret" (encrypted) and an invitation to "Party".
    static func prepareRooms(_ store: MessageStore) throws {
        try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: me, homeserver: "http://127.0.0.1:1", deviceID: "DEV"))
        try store.matrix.updateRoom(RoomUpdate(id: "!voice", membership: .join, name: "Voice"))
        try store.matrix.setMember(roomID: "!voice", userID: "@bob:localhost", displayName: "Bob", membership: "join")
        try store.matrix.updateRoom(RoomUpdate(id: "!secret", membership: .join, name: "Secret", isEncrypted: true))
        try store.matrix.noteActivity(roomID: "!secret", at: Date(timeIntervalSinceNow: -3600), sender: "@bob:localhost")
        try store.matrix.updateRoom(RoomUpdate(id: "!party", membership: .invite, name: "Party", inviter: "@carol:localhost"))
        try store.matrix.receive(IncomingAudio(eventID: "$bob1", roomID: "!voice", sender: "@bob:localhost", title: "Voice message",
                                        sentAt: Date(timeIntervalSinceNow: -60), duration: 4, fileExtension: "ogg",
                                        mediaURL: "mxc://localhost/bob1", levels: nil, unread: true))
    }

    /// Signs the window in with a client that never reaches a server.
    @MainActor
    static func adoptOfflineSession(_ window: MainWindow) throws -> WindowConversations {
        let conversations = try XCTUnwrap(window.conversations)
        conversations.account.startSession = { _ in }  // it never reaches a server
        conversations.isWindowActive = { false }  // no read receipts, no marking seen
        conversations.account.adopt(MatrixClient(
            homeserver: "http://127.0.0.1:1",
            session: Session(homeserver: "http://127.0.0.1:1", userID: me, deviceID: "DEV", accessToken: "not-a-token")))
        return conversations
    }

    func testSignedOutTheWindowIsTheHistoryAloneAndTheMenuOpensTheAccountDialog() throws {
        try onMainActor {
            try WindowFixture.withShownWindow { _, window in
                let conversations = try XCTUnwrap(window.conversations)
                XCTAssertFalse(window.layout.showsSidebar)
                XCTAssertEqual(gtk_widget_get_visible(window.layout.sidebarPane), 0)
                XCTAssertEqual(gtk_widget_get_visible(window.layout.backButton), 0)
                XCTAssertFalse(window.banner.isShown)
                XCTAssertNotEqual(g_action_group_has_action(OpaquePointer(window.window), "matrix-account"), 0)
                g_action_group_activate_action(OpaquePointer(window.window), "matrix-account", nil)
                settle()
                let dialog = try XCTUnwrap(conversations.accountDialog, "the menu's item opens the dialog")
                XCTAssertNotEqual(gtk_widget_get_visible(Widget.widget(dialog.window)), 0)
                XCTAssertEqual(gtk_widget_get_sensitive(dialog.signInButton), 0, "nothing typed yet")
                gtk_editable_set_text(OpaquePointer(dialog.serverRow), "@alice:example.org")
                gtk_editable_set_text(OpaquePointer(dialog.passwordRow), "secret")
                XCTAssertEqual(dialog.fields.user, "@alice:example.org", "a Matrix ID names the user")
                XCTAssertNotEqual(gtk_widget_get_sensitive(dialog.signInButton), 0)
                dialog.close()
                settle()
                XCTAssertNil(conversations.accountDialog)
            }
        }
    }

    func testTheSidebarListsRecordingsInvitationsAndRoomsAndARoomShowsItsOwnHistory() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let tone = scratch.path("tone.ogg")
            try WindowFixture.tone(tone, seconds: 1)
            try WindowFixture.withWindow(storeIn: scratch.url, before: { store in
                try Self.prepareRooms(store)
                return try store.importFile(tone, title: "My own recording")
            }) { store, window, recording in
                gtk_window_set_default_size(window.window, 800, 600)
                window.present()
                settle(seconds: 0.3)
                let conversations = try Self.adoptOfflineSession(window)
                settle()
                XCTAssertTrue(window.layout.showsSidebar)
                XCTAssertFalse(window.layout.isFolded, "800 px hold both panes")
                XCTAssertEqual(conversations.sidebar.rowNames, [
                    "Recordings",
                    "Party, Invitation from @carol:localhost",
                    "Voice, 1 unread, Latest from Bob",
                    "Secret, Encrypted: Hark’s encryption is not set up",
                ])
                XCTAssertEqual(conversations.sidebar.selected, .recordings)
                let history = try XCTUnwrap(window.history)
                XCTAssertEqual(history.count, 1, "the recordings: the received message is not among them")

                // Choosing "Voice" (a click on its row) shows its history, with the sender's name.
                let voiceRow = try XCTUnwrap(conversations.sidebar.row(named: "Voice"))
                activateRow(voiceRow)
                settle()
                XCTAssertEqual(history.scope, .room("!voice"))
                XCTAssertEqual(history.count, 1)
                let row = try XCTUnwrap(history.liveRows.first { $0.message != nil })
                XCTAssertEqual(row.shownSender, "Bob")
                XCTAssertEqual(row.shownMissing, MessageRow.downloadingText, "not “missing”: on its way")
                XCTAssertEqual(window.composer?.roomID, "!voice")
                XCTAssertTrue(window.composer?.recordIsSensitive ?? false)

                // The encrypted room: Record is unavailable, and says why.
                activateRow(try XCTUnwrap(conversations.sidebar.row(named: "Secret")))
                settle()
                let composer = try XCTUnwrap(window.composer)
                XCTAssertFalse(composer.recordIsSensitive)
                XCTAssertTrue(composer.recordTooltip.hasPrefix("This room is end-to-end encrypted and Hark’s encryption is not set up"), composer.recordTooltip)
                XCTAssertEqual(composer.hintShown, composer.recordTooltip)
                composer.toggleRecording()
                XCTAssertFalse(composer.isRecording, "nothing is recorded for an encrypted room")
                XCTAssertEqual(window.visiblePage, "empty")

                // Back to the recordings: Record is back, the message is there.
                activateRow(try XCTUnwrap(conversations.sidebar.row(named: "Recordings")))
                settle()
                XCTAssertEqual(history.scope, .recordings)
                XCTAssertTrue(composer.recordIsSensitive)
                XCTAssertNil(composer.roomID)
                XCTAssertEqual(history.liveRows.compactMap(\.message?.id), [recording.id])
                _ = store
            }
        }
    }
}

extension ConversationWindowTests {
    func testARowSaysHowItsSendingStandsAndRetryQueuesItAgain() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let tone = scratch.path("tone.ogg")
            try WindowFixture.tone(tone, seconds: 1)
            try WindowFixture.withWindow(storeIn: scratch.url, before: { store in
                try Self.prepareRooms(store)
                let message = try store.importFile(tone, title: "Dentist on Monday")
                try store.matrix.enqueueSend(message.id, roomID: "!voice", transactionID: "txn-1")
                return message
            }) { store, window, message in
                window.present()
                settle(seconds: 0.3)
                _ = try Self.adoptOfflineSession(window)
                settle()
                let history = try XCTUnwrap(window.history)
                var row = try XCTUnwrap(history.row(showing: message.id))
                XCTAssertEqual(row.shownSendState, "Sending…")
                XCTAssertFalse(row.showsRetry)
                XCTAssertTrue(try MenuReading.items(row).contains("Send to…"), "signed in")
                XCTAssertFalse(try MenuReading.items(row).contains("Delete for Everyone"), "not sent yet")

                // The outbox gave up: "Not sent", with Retry.
                try store.matrix.markAttemptFailed("txn-1", error: "Cannot reach the server", retryAt: nil)
                history.apply(.changed(message.id))
                row = try XCTUnwrap(history.row(showing: message.id))
                XCTAssertEqual(row.shownSendState, "Not sent")
                XCTAssertTrue(row.showsRetry)
                hark_test_emit(row.retryButton, "clicked")
                settle()
                XCTAssertEqual(try store.matrix.sendState(of: message.id), .sending, "queued again")
                XCTAssertEqual(try store.matrix.sends(of: message.id).map(\.transactionID), ["txn-1"], "the same transaction id")
                XCTAssertEqual(try XCTUnwrap(history.row(showing: message.id)).shownSendState, "Sending…")
                XCTAssertFalse(try XCTUnwrap(history.row(showing: message.id)).showsRetry)

                // Sent: "Sent", and the menu offers Delete for Everyone.
                try store.matrix.markSent("txn-1", eventID: "$sent")
                history.apply(.changed(message.id))
                row = try XCTUnwrap(history.row(showing: message.id))
                XCTAssertEqual(row.shownSendState, "Sent")
                XCTAssertTrue(try MenuReading.items(row).contains("Delete for Everyone"))
            }
        }
    }

    func testANarrowWindowShowsOnePaneAtATimeWithABackButton() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            try WindowFixture.withWindow(storeIn: scratch.url, before: { try Self.prepareRooms($0) }) { _, window, _ in
                gtk_window_set_default_size(window.window, 360, 640)
                window.present()
                settle(seconds: 0.3)
                let conversations = try Self.adoptOfflineSession(window)
                settle(seconds: 0.5)
                let layout = window.layout
                XCTAssertTrue(layout.isFolded, "360 px: one pane")
                XCTAssertNotEqual(gtk_widget_get_visible(layout.backButton), 0)
                XCTAssertEqual(layout.visibleChild, layout.content, "the history first, as signed out")

                hark_test_emit(layout.backButton, "clicked")
                settle(seconds: 0.5)
                XCTAssertEqual(layout.visibleChild, layout.sidebarPane)
                activateRow(try XCTUnwrap(conversations.sidebar.row(named: "Voice")))
                settle(seconds: 0.5)
                XCTAssertEqual(layout.visibleChild, layout.content, "choosing a room shows it")
                XCTAssertEqual(window.history?.scope, .room("!voice"))

                gtk_window_set_default_size(window.window, 800, 640)
                settle(seconds: 0.5)
                XCTAssertFalse(layout.isFolded, "800 px: side by side")
                XCTAssertEqual(gtk_widget_get_visible(layout.backButton), 0)
            }
        }
    }
}

/// Activates a list box row (Enter on it, a screen reader's action; a click also selects it).
@MainActor
func activateRow(_ row: UnsafeMutablePointer<GtkWidget>) {
    gtk_widget_activate(row)
}
